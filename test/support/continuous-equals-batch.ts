/**
 * Continuous = batch (issue 10): every query of test/sql/queries runs continuously on Weir over seeded random input
 * (exactly-once, one injected failure), and its folded changelog must equal the same query run in batch by DuckDB
 * over the same input. All queries run in one job per configuration; a query marked `knownBug` must still differ
 * from the batch result (when its bug is fixed, remove the mark), and those queries run in a job of their own, so
 * that one whose bug fails the job does not take the others down. Reproduce with `WEIR_SEED=<seed>`; run some
 * queries only with `WEIR_SQL_QUERIES=name,name`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Row } from "../../src/index.ts";
import { randomInt, seededRandom, testSeed } from "../../src/util/seeded-random.ts";
import { jsonResult, runCli } from "./cli-process.ts";
import {
  batchResults,
  compareWithBatch,
  decodeRun,
  DEFAULT_SIZES,
  generateInput,
  prefixOf,
  runInProcess,
  type HarnessInput,
  type HarnessQuery,
  type HarnessRun,
} from "./sql-harness.ts";
import { tempDirs } from "./temp-dirs.ts";
import { ALL_QUERIES } from "../sql/queries/index.ts";

export const seed = testSeed();
const random = seededRandom(seed);
export const input = generateInput(seed);
const only = process.env.WEIR_SQL_QUERIES?.split(",");
const queries = only ? ALL_QUERIES.filter((q) => only.includes(q.name)) : ALL_QUERIES;
const failAt = randomInt(random, DEFAULT_SIZES.clicks / 4, DEFAULT_SIZES.clicks / 2);
const fraction = 0.15 + random() * 0.7;
const tempDir = tempDirs("weir-sql-harness-");

/** A configuration: how the job runs, over which input, how many restarts it must report. */
export interface Config {
  label: string;
  input: HarnessInput;
  restarts: number;
  run(queries: readonly HarnessQuery[]): Promise<HarnessRun>;
}

/** The configurations, by name. */
export const CONFIGS = {
  inProcess: {
    label: "in-process, parallelism 2, one failure",
    input,
    restarts: 1,
    run: (qs) => runInProcess(input, qs, { failAt, dir: tempDir() }),
  },
  workers: {
    // The disk state backend here (heap in the other configs): every SQL operator's state in lmdb, incremental checkpoints.
    label: "2 worker threads, parallelism 2, one failure, disk state backend",
    input,
    restarts: 1,
    run: async (qs) => {
      const r = await runCli(
        ["run", "test/fixtures/sql-harness-job.ts", "--state-backend", "disk", "--parallelism", "2", "--workers", "2", "--checkpoint-dir", tempDir(), "--", String(seed), String(failAt), qs.map((q) => q.name).join(","), tempDir()],
        240_000,
      );
      expect(r.code, `WEIR_SEED=${seed}\n${r.stderr}`).toBe(0);
      return decodeRun(jsonResult(r));
    },
  },
  prefix: {
    label: `a prefix (${Math.round(fraction * 100)}%) of the input`,
    input: prefixOf(input, fraction),
    restarts: 0,
    run: (qs) => runInProcess(prefixOf(input, fraction), qs, { failAt: -1, dir: tempDir() }),
  },
} satisfies Record<string, Config>;

const knownBugs = queries.filter((q) => q.knownBug !== undefined);
const expectedGood = queries.filter((q) => q.knownBug === undefined);

/** The run of queries with known bugs: a job that fails is a result too (every query of it differs). */
async function runKnownBugs(config: Config): Promise<HarnessRun> {
  if (knownBugs.length === 0) return { restarts: 0, changelogs: new Map(), planErrors: new Map() };
  try {
    return await config.run(knownBugs);
  } catch (e) {
    return { restarts: 0, changelogs: new Map(), planErrors: new Map(knownBugs.map((q) => [q.name, `the job failed: ${(e as Error).message}`])) };
  }
}

/** The tests of one configuration: its job(s), then every query against its batch result. */
export function describeContinuousEqualsBatch(config: Config): void {
  describe(`continuous = batch: ${config.label}`, () => {
    let good: HarnessRun;
    let buggy: HarnessRun;
    let batch: Map<string, Row[] | Error>;
    const context = `${config.label}, WEIR_SEED=${seed}`;

    beforeAll(async () => {
      batch = await batchResults(config.input, queries);
      good = await config.run(expectedGood);
      buggy = await runKnownBugs(config);
    }, 300_000);

    it("the job restarted as many times as failures were injected", () => {
      expect(good.restarts, context).toBe(config.restarts);
    });

    const mismatch = (q: HarnessQuery) => {
      const run = q.knownBug === undefined ? good : buggy;
      const planError = run.planErrors.get(q.name);
      if (planError !== undefined) return `${context}: query '${q.name}' has no changelog: ${planError}\n  Flink SQL: ${q.flink}`;
      return compareWithBatch(q, run.changelogs.get(q.name), batch.get(q.name), context);
    };

    for (const q of queries) {
      if (q.knownBug === undefined) {
        it(`${q.name}`, () => {
          const m = mismatch(q);
          if (m !== undefined) expect.fail(m);
        });
      } else {
        it(`${q.name} (known bug: ${q.knownBug})`, () => {
          expect(mismatch(q), `${context}: query '${q.name}' now equals the batch result: the bug '${q.knownBug}' looks fixed, remove its knownBug mark`).toBeDefined();
        });
      }
    }
  });
}
