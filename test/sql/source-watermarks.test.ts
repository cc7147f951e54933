/**
 * A table's watermarks are generated per split in its source (Flink's
 * watermark push-down), not by an operator after it: a reader that holds
 * several files (after a restore or a rescale hands it more splits) then
 * never makes one file's rows late because another file it reads is ahead
 * in event time. (Files found by a later listing than the ones already read
 * are judged against what those promised: see docs/event-time.md.)
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import { Row } from "../../src/table/data/row.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const temp = tempDirs("weir-source-watermarks-");

it("a filesystem table's watermarks come from its source, per split, through computed columns", async () => {
  const dir = temp();
  const lines = Array.from({ length: 120 }, (_, i) => JSON.stringify({ t: `2026-12-01 10:${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}`, v: 1 }));
  writeFileSync(join(dir, "a.json"), lines.join("\n") + "\n");
  const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 1 });
  const tEnv = StreamTableEnvironment.create(env);
  tEnv.executeSql(`CREATE TABLE t (t TIMESTAMP(3), v INT, ts AS t + INTERVAL '1' SECOND, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
    WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'json')`);
  const query = "SELECT window_start, SUM(v) FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end";
  const rows: string[] = [];
  for await (const r of tEnv.executeSql(query).collect()) rows.push(Row.toString(r));
  expect(rows.sort()).toEqual(["+I[1796119200000, 59]", "+I[1796119260000, 60]", "+I[1796119320000, 1]"]);
  expect(env.graph.nodes.map((n) => n.type)).not.toContain("timestamps-watermarks");
});
