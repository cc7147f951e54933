/**
 * Each Nexmark query of the bench on a few thousand events: the engine's rows
 * (with checkpoints) and the RxJS pipeline's equal the hand-fused loop's, as
 * a multiset, and their digests agree; so do the row count and digest of the
 * query's SQL twin (sql-twins.ts: q0, q1, q2, q5, q7) and of the nexmark
 * project's published SQL on the `nexmark` connector, for the queries whose
 * SELECT gives the twin's rows (q1, q2, q5, q7). 200 events per second of event
 * time, so that the events span 30 s and the windowed queries fire several windows.
 */
import { describe, expect, it } from "vitest";
import { tempDirs } from "../../../test/support/temp-dirs.ts";
import { hasRx, runFused, runRx } from "./baselines.ts";
import { runNexmarkQuery, type NexmarkSourceParams } from "./nexmark-job.ts";
import { NEXMARK_OUT_OF_ORDERNESS_MS, NEXMARK_QUERIES } from "./nexmark-query.ts";
import { rowDifference } from "./query-result.ts";
import { PUBLISHED_SQL_WITH_TWIN_ROWS, hasSqlTwin } from "./sql-twins.ts";

const SOURCE: NexmarkSourceParams = { events: 6_000, eventsPerSecond: 200, maxOutOfOrdernessMs: NEXMARK_OUT_OF_ORDERNESS_MS };
const tempDir = tempDirs("weir-nexmark-queries-");

describe("the Nexmark bench queries", () => {
  for (const query of NEXMARK_QUERIES) {
    const published = (PUBLISHED_SQL_WITH_TWIN_ROWS as readonly string[]).includes(query);
    const runners = ["the engine", ...(hasRx(query) ? ["RxJS"] : []), ...(hasSqlTwin(query) ? ["the SQL twin"] : []), ...(published ? ["the published SQL"] : [])];
    it(`${query}: the fused loop's rows from ${runners.join(", ")}`, async () => {
      const fused = runFused(query, SOURCE, true);
      expect(fused.rows).toBeGreaterThan(0);
      const engine = await runNexmarkQuery({ query, source: SOURCE, parallelism: 2, workers: 0, checkpointIntervalMs: 20, collect: true });
      expect(rowDifference(fused.collected, engine.collected)).toEqual({ missing: [], unexpected: [], count: 0 });
      expect([engine.rows, engine.digest]).toEqual([fused.rows, fused.digest]);
      // SQL rows compare by digest: SQL's DECIMAL arithmetic is exact where the hand-written queries use doubles (q1)
      if (hasSqlTwin(query)) {
        const twin = await runNexmarkQuery({ query, source: SOURCE, parallelism: 2, workers: 0, checkpointIntervalMs: 20, connector: { twin: true } });
        expect([twin.rows, twin.digest], "the SQL twin on the nexmark connector").toEqual([fused.rows, fused.digest]);
      }
      if (published) {
        const sql = await runNexmarkQuery({ query, source: SOURCE, parallelism: 2, workers: 0, checkpointIntervalMs: 20, connector: { dir: tempDir(), digest: true } });
        expect([sql.rows, sql.digest], "the published SQL on the nexmark connector").toEqual([fused.rows, fused.digest]);
      }
      if (hasRx(query)) {
        const rx = runRx(query, SOURCE, true);
        expect(rowDifference(fused.collected, rx.collected)).toEqual({ missing: [], unexpected: [], count: 0 });
        expect(rx.digest).toBe(fused.digest);
      }
    });
  }

  it("q5 on 2 worker threads: the fused loop's rows", async () => {
    const fused = runFused("q5", SOURCE);
    const engine = await runNexmarkQuery({ query: "q5", source: SOURCE, parallelism: 2, workers: 2, checkpointIntervalMs: 20 });
    expect([engine.rows, engine.digest]).toEqual([fused.rows, fused.digest]);
  });
});
