/**
 * Sub-plan reuse (`table.optimizer.reuse-sub-plan-enabled`, on by default):
 * a query that names the same aggregation twice (as published Nexmark q5
 * names its HOP count) computes it once, EXPLAIN prints it once, and the
 * result is the one without reuse.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import { Row } from "../../src/table/data/row.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const temp = tempDirs("weir-sub-plan-reuse-");
const SEED = 25;

/** JSON lines `{ k, t }`: 400 rows over 40 s, keys drawn from a seeded generator so that windows have different leaders. */
function bids(): string {
  let x = SEED;
  const next = () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31);
  const t0 = Date.UTC(2026, 11, 1);
  return Array.from({ length: 400 }, (_, i) => {
    const t = new Date(t0 + i * 100).toISOString().replace("T", " ").replace("Z", "");
    return JSON.stringify({ k: next() % 7, t });
  }).join("\n") + "\n";
}

/** Per HOP(10 s, 2 s) window, the keys with the most rows: the count is named twice, as in Nexmark q5. */
const HOT_KEYS = `
  SELECT c.k, c.num, c.window_end FROM (
    SELECT k, COUNT(*) AS num, window_start, window_end
    FROM TABLE(HOP(TABLE t, DESCRIPTOR(t), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
    GROUP BY k, window_start, window_end
  ) AS c JOIN (
    SELECT MAX(num) AS maxn, window_start, window_end FROM (
      SELECT COUNT(*) AS num, window_start, window_end
      FROM TABLE(HOP(TABLE t, DESCRIPTOR(t), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
      GROUP BY k, window_start, window_end
    ) GROUP BY window_start, window_end
  ) AS m ON c.window_start = m.window_start AND c.window_end = m.window_end AND c.num >= m.maxn`;

function session(dir: string, reuse: boolean | undefined) {
  const env = StreamExecutionEnvironment.create({ parallelism: 2 });
  const tEnv = StreamTableEnvironment.create(env);
  if (reuse !== undefined) tEnv.getConfig().set("table.optimizer.reuse-sub-plan-enabled", String(reuse));
  tEnv.executeSql(`CREATE TABLE t (k BIGINT, t TIMESTAMP(3), WATERMARK FOR t AS t - INTERVAL '1' SECOND)
    WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'json')`);
  return { env, tEnv };
}

async function rowsOf(dir: string, reuse: boolean | undefined): Promise<{ rows: string[]; hopNodes: number }> {
  const { env, tEnv } = session(dir, reuse);
  const rows: string[] = [];
  for await (const r of tEnv.executeSql(HOT_KEYS).collect()) rows.push(Row.toString(r));
  const hopNodes = env.graph.nodes.filter((n) => n.name.startsWith("GlobalWindowAggregate(groupBy=[k]")).length;
  return { rows: rows.sort(), hopNodes };
}

describe(`sub-plan reuse (seed ${SEED})`, () => {
  it("computes a sub-plan named twice once, with the result of the plan without reuse", async () => {
    const dir = temp();
    writeFileSync(join(dir, "bids.json"), bids());
    const reused = await rowsOf(dir, undefined);
    const separate = await rowsOf(dir, false);
    expect(reused.hopNodes).toBe(1);
    expect(separate.hopNodes).toBe(2);
    expect(reused.rows.length).toBeGreaterThan(20);
    expect(reused.rows).toEqual(separate.rows);
  });

  it("EXPLAIN prints the shared sub-plan once and refers to it where it is consumed again", () => {
    const dir = temp();
    const explain = (reuse: boolean) => session(dir, reuse).tEnv.explainSql(HOT_KEYS);
    const withReuse = explain(true);
    const countHops = (text: string) => text.split("\n").filter((l) => l.includes("GlobalWindowAggregate(groupBy=[k]")).length;
    expect(countHops(withReuse)).toBe(1);
    expect(withReuse).toMatch(/WindowAggregate\(groupBy=\[k\].*, reuse_id=\[1\]\)/);
    expect(withReuse).toContain("+- Reused(reference_id=[1])");
    expect(withReuse.split("\n").filter((l) => l.includes("TableSourceScan")).length).toBe(1);
    const without = explain(false);
    expect(countHops(without)).toBe(2);
    expect(without).not.toContain("Reused");
  });

  it("reads a shared Calc's rows in each consumer, with the source's watermarks (published Nexmark q7's shape)", async () => {
    const dir = temp();
    writeFileSync(join(dir, "bids.json"), bids());
    // the bids of a view read by a join and by the window MAX it joins with, as q7 reads its `bid` view
    const highest = `SELECT B.k, B.t FROM v B JOIN (
        SELECT MAX(k) AS maxk, window_end AS t FROM TABLE(TUMBLE(TABLE v, DESCRIPTOR(t), INTERVAL '10' SECOND)) GROUP BY window_start, window_end
      ) B1 ON B.k = B1.maxk WHERE B.t BETWEEN B1.t - INTERVAL '10' SECOND AND B1.t`;
    const run = async (reuse: boolean) => {
      const { env, tEnv } = session(dir, reuse);
      tEnv.executeSql("CREATE VIEW v AS SELECT k + 1 AS k, t FROM t WHERE k > 0");
      const rows: string[] = [];
      for await (const r of tEnv.executeSql(highest).collect()) rows.push(Row.toString(r));
      const named = (prefix: string) => env.graph.nodes.filter((n) => n.name.startsWith(prefix)).length;
      return { rows: rows.sort(), bidCalcs: env.graph.nodes.filter((n) => n.name.includes("Calc(where=[k > 0]")).length, assigners: named("WatermarkAssigner") };
    };
    const reused = await run(true);
    const separate = await run(false);
    // one Calc computes the view's rows for both consumers; the source generates the watermarks of both
    expect(reused.bidCalcs).toBe(1);
    expect(reused.assigners).toBe(0);
    expect(separate.bidCalcs).toBe(2);
    expect(reused.rows.length).toBeGreaterThan(2);
    expect(reused.rows).toEqual(separate.rows);
  });

  it("never shares a sub-plan that calls a non-deterministic function (CURRENT_TIMESTAMP)", () => {
    const dir = temp();
    const { tEnv } = session(dir, true);
    const text = tEnv.explainSql("SELECT a.r, b.r FROM (SELECT k, CURRENT_TIMESTAMP AS r FROM t) a JOIN (SELECT k, CURRENT_TIMESTAMP AS r FROM t) b ON a.k = b.k");
    // the scan and its watermarks are shared; each Calc that reads the clock stays its consumer's own
    const calcs = text.split("\n").filter((l) => l.includes("CURRENT_TIMESTAMP"));
    expect(calcs).toHaveLength(2);
    for (const line of calcs) expect(line).not.toContain("reuse_id");
  });
});
