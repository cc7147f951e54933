/**
 * `table.optimizer.agg-phase-strategy`: window aggregations run in two phases by default
 * (LocalWindowAggregate before the exchange, GlobalWindowAggregate after it) where every call can
 * merge, and window Top-N queries with a LocalWindowRank before their WindowRank; EXPLAIN shows both,
 * the rows equal those of ONE_PHASE (window TVFs and legacy group windows, NULLs, every built-in call,
 * RANK, DENSE_RANK and ROW_NUMBER, parallelism 1 and 3), and a job's savepoint of one phase restores
 * into two.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import type { JobClient } from "../../src/deploy/job-client.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import { Row } from "../../src/table/data/row.ts";
import { randomInt, seededRandom, testSeed } from "../../src/util/seeded-random.ts";
import { waitFor } from "../support/cli-process.ts";
import { nameFor, publish } from "../support/reader-files.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const temp = tempDirs("weir-window-two-phase-");

/** JSON lines `{ k, v, d, s, t }`: 600 rows over 60 s, out of order by up to 1.5 s (the watermark's bound is 2 s: none late), NULLs among k and v. */
function rows(seed: number): string {
  const random = seededRandom(seed);
  const t0 = Date.UTC(2026, 11, 1);
  return Array.from({ length: 600 }, (_, i) => {
    const t = new Date(t0 + i * 100 - randomInt(random, 0, 1_500)).toISOString().replace("T", " ").replace("Z", "");
    const k = randomInt(random, 0, 8) === 0 ? null : `k${randomInt(random, 0, 4)}`;
    const v = randomInt(random, 0, 5) === 0 ? null : randomInt(random, -50, 50);
    return JSON.stringify({ k, v, d: `${randomInt(random, 0, 99)}.${randomInt(random, 10, 99)}`, s: `s${randomInt(random, 0, 6)}`, t });
  }).join("\n") + "\n";
}

const CALLS = "COUNT(*) AS c, COUNT(v) AS cv, SUM(v) AS sv, MIN(v) AS mn, MAX(v) AS mx, AVG(v) AS av, SUM(d) AS sd, AVG(d) AS ad, MAX(s) AS ms";

const QUERIES: Record<string, string> = {
  TUMBLE: `SELECT k, ${CALLS}, window_start, window_end FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(t), INTERVAL '5' SECOND)) GROUP BY k, window_start, window_end`,
  HOP: `SELECT k, ${CALLS}, window_start, window_end FROM TABLE(HOP(TABLE t, DESCRIPTOR(t), INTERVAL '2' SECOND, INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end`,
  CUMULATE: `SELECT k, ${CALLS}, window_start, window_end FROM TABLE(CUMULATE(TABLE t, DESCRIPTOR(t), INTERVAL '2' SECOND, INTERVAL '10' SECOND)) GROUP BY window_start, window_end, k`,
  "no group key": `SELECT ${CALLS}, window_start FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(t), INTERVAL '5' SECOND)) GROUP BY window_start, window_end`,
  "GROUP BY HOP": `SELECT k, ${CALLS}, HOP_START(t, INTERVAL '2' SECOND, INTERVAL '10' SECOND) AS ws FROM t GROUP BY HOP(t, INTERVAL '2' SECOND, INTERVAL '10' SECOND), k`,
  "GROUP BY TUMBLE": `SELECT MAX(v) AS mx, TUMBLE_END(t, INTERVAL '5' SECOND) AS we FROM t GROUP BY TUMBLE(t, INTERVAL '5' SECOND)`,
  DISTINCT: `SELECT k, COUNT(DISTINCT s) AS ds, SUM(v) AS sv, window_start FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(t), INTERVAL '5' SECOND)) GROUP BY k, window_start, window_end`,
  "window Top-N, RANK with ties": `SELECT k, v, s, window_start FROM (SELECT *, RANK() OVER (PARTITION BY window_start, window_end ORDER BY v DESC) AS r FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(t), INTERVAL '5' SECOND))) WHERE r <= 2`,
  "window Top-N, ROW_NUMBER over a window aggregation": `SELECT k, c, rn, window_start FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY c DESC, k) AS rn FROM (SELECT k, COUNT(*) AS c, window_start, window_end FROM TABLE(HOP(TABLE t, DESCRIPTOR(t), INTERVAL '2' SECOND, INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end)) WHERE rn <= 2`,
  "window Top-N, DENSE_RANK per key": `SELECT k, s, r, window_end FROM (SELECT *, DENSE_RANK() OVER (PARTITION BY window_start, window_end, k ORDER BY s) AS r FROM TABLE(CUMULATE(TABLE t, DESCRIPTOR(t), INTERVAL '2' SECOND, INTERVAL '10' SECOND))) WHERE r <= 2`,
};

function session(dir: string, strategy: string | undefined, parallelism = 2): StreamTableEnvironment {
  const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.create({ parallelism }));
  if (strategy !== undefined) tEnv.getConfig().set("table.optimizer.agg-phase-strategy", strategy);
  tEnv.executeSql(`CREATE TABLE t (k STRING, v INT, d DECIMAL(6, 2), s STRING, t TIMESTAMP(3), WATERMARK FOR t AS t - INTERVAL '2' SECOND)
    WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'json')`);
  return tEnv;
}

async function result(dir: string, query: string, strategy: string | undefined, parallelism: number): Promise<string[]> {
  const out: string[] = [];
  for await (const r of session(dir, strategy, parallelism).executeSql(query).collect()) out.push(Row.toString(r));
  return out.sort();
}

/** The names of the plan's nodes, top down. */
function nodes(dir: string, query: string, strategy: string | undefined): string[] {
  return session(dir, strategy).explainSql(query).split("\n").slice(1).map((l) => /^[\s:+|-]*(\w+)\(/.exec(l)?.[1] ?? "").filter((n) => n !== "");
}

describe("table.optimizer.agg-phase-strategy", () => {
  it("EXPLAIN: two phases by default and with TWO_PHASE, one with ONE_PHASE, DISTINCT or SESSION; a window Top-N's local phase", () => {
    const dir = temp();
    /** The aggregation's nodes and the one below them. */
    const aggregation = (n: string[]) => n.slice(n.findIndex((x) => x.endsWith("WindowAggregate")), n.findIndex((x) => x.endsWith("WindowAggregate")) + 3);
    expect(aggregation(nodes(dir, QUERIES.HOP!, undefined))).toEqual(["GlobalWindowAggregate", "LocalWindowAggregate", "Calc"]);
    expect(aggregation(nodes(dir, QUERIES.HOP!, "two_phase"))).toEqual(["GlobalWindowAggregate", "LocalWindowAggregate", "Calc"]);
    expect(nodes(dir, QUERIES["GROUP BY TUMBLE"]!, "AUTO")).toContain("LocalWindowAggregate");
    expect(aggregation(nodes(dir, QUERIES.HOP!, "ONE_PHASE")).slice(0, 2)).toEqual(["WindowAggregate", "Calc"]);
    expect(nodes(dir, QUERIES.DISTINCT!, "TWO_PHASE")).not.toContain("LocalWindowAggregate");
    // Table.explain reads the option too
    expect(session(dir, undefined).sqlQuery(QUERIES.HOP!).explain()).toContain("+- LocalWindowAggregate(");
    expect(session(dir, "ONE_PHASE").sqlQuery(QUERIES.HOP!).explain()).not.toContain("LocalWindowAggregate");
    const sessions = "SELECT k, COUNT(*) FROM TABLE(SESSION(TABLE t PARTITION BY k, DESCRIPTOR(t), INTERVAL '1' SECOND)) GROUP BY k, window_start, window_end";
    expect(nodes(dir, sessions, "TWO_PHASE")).not.toContain("LocalWindowAggregate");
    const plan = session(dir, undefined).explainSql("SELECT k, COUNT(*) AS c, MAX(v) AS mx, window_start FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(t), INTERVAL '5' SECOND)) GROUP BY k, window_start, window_end", "CHANGELOG_MODE");
    const ranks = nodes(dir, QUERIES["window Top-N, RANK with ties"]!, undefined);
    expect(ranks.slice(ranks.indexOf("WindowRank"), ranks.indexOf("WindowRank") + 2)).toEqual(["WindowRank", "LocalWindowRank"]);
    expect(nodes(dir, QUERIES["window Top-N, RANK with ties"]!, "ONE_PHASE")).not.toContain("LocalWindowRank");
    expect(plan.split("\n").filter((l) => l.includes("WindowAggregate"))).toEqual([
      "+- GlobalWindowAggregate(groupBy=[k], window=[TUMBLE(time_col=[$x1], size=[5000 ms])], select=[k, COUNT(*) AS c, MAX(v) AS mx, start('w$) AS window_start, end('w$) AS window_end], changelogMode=[I])",
      "   +- LocalWindowAggregate(groupBy=[k], window=[TUMBLE(time_col=[$x1], size=[5000 ms])], select=[k, COUNT(*) AS c, MAX(v) AS mx, slice_end('w$) AS $slice_end], changelogMode=[I])",
    ]);
  });

  it("refuses a value it does not know", () => {
    const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.create({ parallelism: 1 }));
    expect(() => tEnv.executeSql("SET 'table.optimizer.agg-phase-strategy' = 'THREE_PHASE'")).toThrow(/AUTO, ONE_PHASE or TWO_PHASE/);
  });

  for (const [name, query] of Object.entries(QUERIES)) {
    it(`${name}: the rows of ONE_PHASE, at parallelism 1 and 3`, async () => {
      const seed = testSeed();
      const dir = temp();
      writeFileSync(join(dir, "rows.json"), rows(seed));
      const one = await result(dir, query, "ONE_PHASE", 1);
      expect(one.length, `WEIR_SEED=${seed}`).toBeGreaterThan(10);
      expect(await result(dir, query, undefined, 1), `WEIR_SEED=${seed} parallelism 1`).toEqual(one);
      expect(await result(dir, query, undefined, 3), `WEIR_SEED=${seed} parallelism 3`).toEqual(one);
    }, 60_000);
  }
});

describe("the local phase when its input goes idle", () => {
  const T0 = Date.UTC(2026, 11, 1);
  /** JSON lines `{ t }`: 100 times over `[start, start + 10 s)` after T0. */
  const times = (start: number) =>
    Array.from({ length: 100 }, (_, i) => JSON.stringify({ t: new Date(T0 + start + i * 100).toISOString().replace("T", " ").replace("Z", "") })).join("\n") + "\n";

  it("sends its partials on before the idle status: a window of the idle reader's rows fires whole when the other reader's watermark passes it", async () => {
    const dir = temp();
    const env = StreamExecutionEnvironment.create({ parallelism: 2, autoWatermarkInterval: 5 });
    const tEnv = StreamTableEnvironment.create(env);
    tEnv.getConfig().set("table.exec.source.idle-timeout", "50 ms");
    tEnv.executeSql(`CREATE TABLE t (t TIMESTAMP(3), WATERMARK FOR t AS t - INTERVAL '1' SECOND)
      WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'json', 'source.monitor-interval' = '10 ms')`);
    // reader 0 reads window 0 and then nothing (idle, its watermark below the window's end); reader 1 reads windows 1 and 2
    publish(nameFor(dir, "a", "json", 0, 2), times(0));
    const result = tEnv.executeSql("SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(t), INTERVAL '10' SECOND)) GROUP BY window_start, window_end").collect();
    const deadline = setTimeout(() => void result.return?.(), 15_000);
    const fired: string[] = [];
    try {
      setTimeout(() => {
        publish(nameFor(dir, "b", "json", 1, 2), times(10_000));
        publish(nameFor(dir, "c", "json", 1, 2), times(20_000));
      }, 300);
      for await (const r of result) {
        fired.push(Row.toString(r));
        if (fired.length === 2) break;
      }
    } finally {
      clearTimeout(deadline);
    }
    expect(fired).toEqual([`+I[${T0}, 100]`, `+I[${T0 + 10_000}, 100]`]);
  }, 20_000);
});

describe("a SQL job's savepoint across agg-phase-strategy", () => {
  const tempDir = tempDirs("weir-window-two-phase-savepoint-");

  /** An unbounded datagen table counted per HOP(2 s, 1 s) window into a blackhole, in `strategy`. */
  async function start(strategy: string, fromSavepoint?: string, ignoreUnclaimed = false): Promise<JobClient> {
    const env = StreamExecutionEnvironment.create({ parallelism: 2, checkpointInterval: 50, checkpointDir: tempDir(), ...(fromSavepoint === undefined ? {} : { fromSavepoint }) });
    const tEnv = StreamTableEnvironment.create(env);
    tEnv.getConfig().set("table.optimizer.agg-phase-strategy", strategy);
    if (ignoreUnclaimed) tEnv.getConfig().set("execution.savepoint.ignore-unclaimed-state", "true");
    tEnv.executeSql(`CREATE TABLE g (k INT, ts AS LOCALTIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
      WITH ('connector' = 'datagen', 'rows-per-second' = '200', 'fields.k.min' = '0', 'fields.k.max' = '9')`);
    tEnv.executeSql("CREATE TABLE out (k INT, c BIGINT) WITH ('connector' = 'blackhole')");
    const insert = "INSERT INTO out SELECT k, COUNT(*) FROM TABLE(HOP(TABLE g, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '2' SECOND)) GROUP BY k, window_start, window_end";
    return (await tEnv.executeSql(insert).getJobClient())!;
  }

  async function savepointOf(client: JobClient): Promise<string> {
    await waitFor("a completed checkpoint", () => (client.getCheckpointStats()?.counts.completed ?? 0) > 0, 60_000);
    return client.stopWithSavepoint(tempDir());
  }

  it("one phase's restores into two (the global phase has the window aggregate's uid); two phases' into one only with leave to drop the local phase's", async () => {
    const onePhase = await savepointOf(await start("ONE_PHASE"));
    const twoPhases = await savepointOf(await start("AUTO", onePhase));
    const refused = await start("ONE_PHASE", twoPhases);
    await expect(refused.getJobExecutionResult()).rejects.toThrow(/has state for operator uid 'local-window-aggregate', which this job does not have/);
    expect(await savepointOf(await start("ONE_PHASE", twoPhases, true))).toMatch(/savepoint/);
  }, 120_000);
});
