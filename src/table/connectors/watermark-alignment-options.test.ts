import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import type { SourceOperatorLike } from "../../runtime/operators/stream-operator.ts";
import { StreamTableEnvironment } from "../api/table-environment.ts";

const NEXMARK = `CREATE TABLE datagen (
    event_type INT, bid ROW<auction BIGINT, \`dateTime\` TIMESTAMP(3)>,
    \`dateTime\` AS bid.\`dateTime\`, WATERMARK FOR \`dateTime\` AS \`dateTime\` - INTERVAL '4' SECOND
  ) WITH ('connector' = 'nexmark', 'events.num' = '100'OPTIONS)`;

/** The watermark alignment of the source operator of `sql`'s plan over a table made by `ddl`. */
function sourceAlignment(ddl: string, sql: string) {
  const env = StreamExecutionEnvironment.create({ parallelism: 2, log: () => {} });
  const tEnv = StreamTableEnvironment.create(env);
  tEnv.executeSql(ddl);
  tEnv.toChangelogStream(tEnv.sqlQuery(sql));
  const source = env.graph.nodes.find((n) => n.type === "source")!;
  return (source.createOperator() as SourceOperatorLike).alignment;
}

describe("scan.watermark.alignment.*", () => {
  it("aligns the watermarks of a table's source subtasks, as Flink's options say", () => {
    const options = ", 'scan.watermark.alignment.group' = 'bids', 'scan.watermark.alignment.max-drift' = '20 s'";
    expect(sourceAlignment(NEXMARK.replace("OPTIONS", options), "SELECT bid.auction FROM datagen")).toEqual({ group: "bids", maxAllowedDriftMs: 20_000, updateIntervalMs: 1_000 });
    const interval = `${options}, 'scan.watermark.alignment.update-interval' = '50 ms'`;
    expect(sourceAlignment(NEXMARK.replace("OPTIONS", interval), "SELECT bid.auction FROM datagen")?.updateIntervalMs).toBe(50);
    expect(sourceAlignment(NEXMARK.replace("OPTIONS", ""), "SELECT bid.auction FROM datagen")).toBeNull();
  });

  it("is taken by the other connectors whose sources make the watermarks (filesystem)", () => {
    const dir = mkdtempSync(join(tmpdir(), "weir-alignment-"));
    const ddl = `CREATE TABLE clicks (u STRING, t TIMESTAMP(3), WATERMARK FOR t AS t - INTERVAL '1' SECOND)
      WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'json', 'scan.watermark.alignment.group' = 'g', 'scan.watermark.alignment.max-drift' = '1 min')`;
    try {
      expect(sourceAlignment(ddl, "SELECT u FROM clicks")).toEqual({ group: "g", maxAllowedDriftMs: 60_000, updateIntervalMs: 1_000 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("needs both a group and a maximum drift, and an interval above 0", () => {
    expect(() => sourceAlignment(NEXMARK.replace("OPTIONS", ", 'scan.watermark.alignment.group' = 'bids'"), "SELECT bid.auction FROM datagen")).toThrow(
      /Table 'default_catalog.default_database.datagen': watermark alignment needs both 'scan.watermark.alignment.group' \(a non-empty name\) and 'scan.watermark.alignment.max-drift'/,
    );
    expect(() =>
      sourceAlignment(
        NEXMARK.replace("OPTIONS", ", 'scan.watermark.alignment.group' = 'bids', 'scan.watermark.alignment.max-drift' = '1 s', 'scan.watermark.alignment.update-interval' = '0 ms'"),
        "SELECT bid.auction FROM datagen",
      ),
    ).toThrow(/'scan.watermark.alignment.update-interval' must be longer than 0 ms/);
  });
});
