/**
 * Continuous = batch, proven (issue 10): every query of test/sql/queries runs
 * continuously on Weir over seeded random input (exactly-once, one injected
 * failure), and its folded changelog must equal the same query run in batch
 * by DuckDB over the same input. All queries run in one job per
 * configuration: in-process at parallelism 2 with a failure, on 2 worker
 * threads with a failure, and over a random prefix of the input (the input
 * seen so far at some moment).
 *
 * Reproduce with `WEIR_SEED=<seed>`; run some queries only with
 * `WEIR_SQL_QUERIES=name,name`. A query marked `knownBug` must still differ
 * from the batch result: when its bug is fixed, remove the mark. Those
 * queries run in a job of their own, so that one whose bug fails the job
 * does not take the others down.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Row } from "../../src/index.ts";
import { decimal } from "../../src/table/types/decimal.ts";
import { randomInt, seededRandom, testSeed } from "../../src/util/seeded-random.ts";
import { jsonResult, runCli } from "../support/cli-process.ts";
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
} from "../support/sql-harness.ts";
import { tempDirs } from "../support/temp-dirs.ts";
import { ALL_QUERIES } from "./queries/index.ts";

const seed = testSeed();
const random = seededRandom(seed);
const input = generateInput(seed);
const only = process.env.WEIR_SQL_QUERIES?.split(",");
const queries = only ? ALL_QUERIES.filter((q) => only.includes(q.name)) : ALL_QUERIES;
const failAt = randomInt(random, DEFAULT_SIZES.clicks / 4, DEFAULT_SIZES.clicks / 2);
const fraction = 0.15 + random() * 0.7;
const tempDir = tempDirs("weir-sql-harness-");

/** A configuration: how the job runs, over which input, how many restarts it must report. */
interface Config {
  label: string;
  input: HarnessInput;
  restarts: number;
  run(queries: readonly HarnessQuery[]): Promise<HarnessRun>;
}

const configs: Config[] = [
  {
    label: "in-process, parallelism 2, one failure",
    input,
    restarts: 1,
    run: (qs) => runInProcess(input, qs, { failAt, dir: tempDir() }),
  },
  {
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
  {
    label: `a prefix (${Math.round(fraction * 100)}%) of the input`,
    input: prefixOf(input, fraction),
    restarts: 0,
    run: (qs) => runInProcess(prefixOf(input, fraction), qs, { failAt: -1, dir: tempDir() }),
  },
];

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

describe.each(configs)("continuous = batch: $label", (config) => {
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

describe("the comparison with the batch result", () => {
  const q: HarnessQuery = { name: "q", flink: "SELECT user, COUNT(*) FROM clicks GROUP BY user" };
  const changelog: Row[] = [Row.of("Mary", 1n), Row.of("Bob", 1n), Row.ofKind("-U", "Mary", 1n), Row.ofKind("+U", "Mary", 2n)];

  it("accepts the folded changelog of an equal result, whatever the numeric types and order", () => {
    expect(compareWithBatch(q, changelog, [Row.of("Bob", 1), Row.of("Mary", decimal(200n, 2))], "ctx")).toBeUndefined();
  });

  it("names the rows that differ, the query and the context", () => {
    const m = compareWithBatch(q, changelog, [Row.of("Mary", 2n), Row.of("Bob", 2n)], "in-process, WEIR_SEED=1");
    expect(m).toContain("in-process, WEIR_SEED=1: query 'q'");
    expect(m).toContain(q.flink);
    expect(m).toMatch(/in batch only \(1\):\s+\("Bob", 2\)/);
    expect(m).toMatch(/in the folded changelog only \(1\):\s+\("Bob", 1\)/);
  });

  it("rejects a changelog that retracts a row it never inserted, and tells strings from numbers", () => {
    expect(compareWithBatch(q, [Row.ofKind("-D", "Mary", 1n)], [], "ctx")).toContain("retracts a row that is not in the table");
    expect(compareWithBatch(q, [Row.of("Mary", "1")], [Row.of("Mary", 1n)], "ctx")).toBeDefined();
  });
});

describe("the DuckDB text of every query", () => {
  it("runs on the generated input", async () => {
    const results = await batchResults(input, ALL_QUERIES);
    const failed = [...results].filter(([, r]) => r instanceof Error).map(([name, r]) => `${name}: ${(r as Error).message}`);
    expect(failed, `WEIR_SEED=${seed}`).toEqual([]);
  });

  it("names every query once", () => {
    const names = ALL_QUERIES.map((q) => q.name);
    expect(names.length).toBeGreaterThanOrEqual(40);
    expect(new Set(names).size).toBe(names.length);
  });
});
