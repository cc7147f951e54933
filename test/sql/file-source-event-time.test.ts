/**
 * Event time of a filesystem table (WATERMARK FOR t AS t - 1 s, 10 s TUMBLE counts),
 * the SQL twin of test/file-source-event-time.test.ts:
 *
 * - with `source.monitor-interval` the window rows of each new file come while the
 *   job runs, at parallelism 1 and 2, with and without `table.exec.source.idle-timeout`;
 * - one reader given the later-in-time file first drops none of the earlier file's rows;
 * - a job on the disk backend checkpointed while its two readers are half-way through
 *   files of different event-time ranges, resumed at parallelism 1, counts every row.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { waitFor } from "../support/cli-process.ts";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { nameFor, publish } from "../support/reader-files.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import { Row } from "../../src/table/data/row.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const temp = tempDirs("weir-sql-file-event-time-");
const WINDOW = 10_000;
/** 2026-12-01 00:00:00 UTC: event time 0 of the files. */
const T0 = Date.UTC(2026, 11, 1);

/** JSON lines `{ t }`: `n` timestamps spread evenly over `[start, start + span)` ms after T0. */
function rows(start: number, n: number, span = WINDOW): string {
  const t = (i: number) => new Date(T0 + start + Math.floor((i * span) / n)).toISOString().replace("T", " ").replace("Z", "");
  return Array.from({ length: n }, (_, i) => JSON.stringify({ t: t(i) })).join("\n") + "\n";
}

function windowQuery(parallelism: number, dir: string, withOptions = "", idleTimeout?: string): { tEnv: StreamTableEnvironment; query: string } {
  const env = StreamExecutionEnvironment.create({ parallelism, autoWatermarkInterval: 5 });
  const tEnv = StreamTableEnvironment.create(env);
  if (idleTimeout) tEnv.getConfig().set("table.exec.source.idle-timeout", idleTimeout);
  tEnv.executeSql(`CREATE TABLE t (t TIMESTAMP(3), WATERMARK FOR t AS t - INTERVAL '1' SECOND)
    WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'json'${withOptions})`);
  return { tEnv, query: "SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(t), INTERVAL '10' SECOND)) GROUP BY window_start, window_end" };
}

const row = (windowIndex: number, count: number) => `+I[${T0 + windowIndex * WINDOW}, ${count}]`;

describe("event time of a continuous filesystem table", () => {
  const FILES = 6;
  const PER_FILE = 100;
  for (const c of [{ parallelism: 1 }, { parallelism: 2 }, { parallelism: 2, idleTimeout: "50 ms" }]) {
    it(`emits the window rows of each new file while the job runs (parallelism ${c.parallelism}${c.idleTimeout ? ", idle-timeout" : ""})`, async () => {
      const dir = temp();
      const file = (k: number) => nameFor(dir, `f${k}`, "json", k % c.parallelism, c.parallelism);
      publish(file(0), rows(0, PER_FILE));
      publish(file(1), rows(WINDOW, PER_FILE));
      const { tEnv, query } = windowQuery(c.parallelism, dir, ", 'source.monitor-interval' = '10 ms'", c.idleTimeout);
      const result = tEnv.executeSql(query).collect();
      const fired: string[] = [];
      // without event time the query would run forever: end the loop after a deadline
      const deadline = setTimeout(() => void result.return?.(), 15_000);
      try {
        for await (const r of result) {
          fired.push(Row.toString(r));
          // window k is emitted once file k + 1 is read: only then comes file k + 2
          const next = fired.length + 1;
          if (next < FILES) publish(file(next), rows(next * WINDOW, PER_FILE));
          if (fired.length === FILES - 1) break;
        }
      } finally {
        clearTimeout(deadline);
      }
      expect(fired).toEqual(Array.from({ length: FILES - 1 }, (_, k) => row(k, PER_FILE)));
    }, 20_000);
  }
});

describe("event time of a bounded filesystem table", () => {
  it("one reader given the later-in-time file first drops none of the earlier file's rows", async () => {
    const dir = temp();
    writeFileSync(join(dir, "a-later.json"), rows(10 * WINDOW, 400, 4 * WINDOW));
    writeFileSync(join(dir, "b-earlier.json"), rows(0, 400, 4 * WINDOW));
    const { tEnv, query } = windowQuery(1, dir);
    const fired: string[] = [];
    for await (const r of tEnv.executeSql(query).collect()) fired.push(Row.toString(r));
    expect(fired.sort()).toEqual([0, 1, 2, 3, 10, 11, 12, 13].map((k) => row(k, 100)).sort());
  }, 20_000);
});

describe("event time of a filesystem table across a rescale", () => {
  it("checkpointed while two readers are half-way through files of different times (disk backend), resumed at parallelism 1: every row counted", async () => {
    const dir = temp();
    const PER_FILE = 600;
    const LATE = 20; // first window of the later file
    // reader 0 reads the later file: resumed in one reader, its rest comes before the earlier file's rest
    writeFileSync(nameFor(dir, "late", "json", 0, 2), rows(LATE * WINDOW, PER_FILE, 6 * WINDOW));
    writeFileSync(nameFor(dir, "early", "json", 1, 2), rows(0, PER_FILE, 6 * WINDOW));
    /**
     * Rows read per file (early, late), as the distinct timestamps seen (the function runs more than once
     * per row); past a third of a file a reader crawls (3 ms a call: the rest of a file takes ≥ 1.2 s, time enough
     * on a loaded machine for the checkpoint's barrier to pass both readers mid-file).
     */
    const seen = [new Set<number>(), new Set<number>()];
    const read = () => seen.map((s) => s.size);
    let crawl = true;
    const job = (parallelism: number, fromSavepoint?: string) => {
      const env = StreamExecutionEnvironment.create({ parallelism, autoWatermarkInterval: 1, batchSize: 8, stateBackend: "disk", checkpointInterval: 3_600_000, checkpointDir: checkpoints, fromSavepoint });
      const tEnv = StreamTableEnvironment.create(env);
      tEnv.createTemporarySystemFunction("observed", {
        resultType: "TIMESTAMP(3)",
        eval: (t: number) => {
          const file = seen[t - T0 < LATE * WINDOW ? 0 : 1]!;
          file.add(t);
          if (crawl && file.size > PER_FILE / 3) for (const end = performance.now() + 3; performance.now() < end; );
          return t;
        },
      });
      tEnv.executeSql(`CREATE TABLE t (t TIMESTAMP(3), ts AS observed(t), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
        WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'json')`);
      const windows: string[] = [];
      tEnv
        .toDataStream(tEnv.sqlQuery("SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end"))
        .map((r) => Row.toString(r))
        .uid("as-text")
        .sinkTo({ createWriter: () => ({ write: (w: string) => void windows.push(w) }) })
        .uid("windows");
      return { env, windows };
    };
    const checkpoints = temp();
    const first = job(2);
    const client = await first.env.executeAsync("first");
    await waitFor("both readers a third into their files", () => read().every((n) => n >= PER_FILE / 3), 15_000, 1);
    const checkpoint = await client.triggerCheckpoint();
    expect(read().every((n) => n < PER_FILE), `both readers mid-file at the checkpoint: ${read().join(", ")}`).toBe(true);
    await client.cancel();

    crawl = false;
    const resumed = job(1, join(checkpoints, `chk-${checkpoint.checkpointId}`));
    await resumed.env.execute("resumed");
    // a window emitted before the checkpoint stays emitted; one emitted after it is emitted again by the resumed run
    const byWindow = new Map<string, string>();
    for (const w of [...first.windows, ...resumed.windows]) byWindow.set(w.split(",")[0]!, w);
    expect([...byWindow.values()].sort(), `before: ${first.windows.join(" ")}; after: ${resumed.windows.join(" ")}`).toEqual(
      [0, 1, 2, 3, 4, 5, 20, 21, 22, 23, 24, 25].map((k) => row(k, 100)).sort(),
    );
  }, 30_000);
});
