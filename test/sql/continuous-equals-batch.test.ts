/**
 * Continuous = batch, proven (issue 10; see test/support/continuous-equals-batch.ts): every query of
 * test/sql/queries, continuously on 2 worker threads at parallelism 2 with the disk state backend and one injected
 * failure, folds to DuckDB's batch result. The in-process and input-prefix configurations are in
 * continuous-equals-batch-configs.long.test.ts (`npm run test:long`). Reproduce with `WEIR_SEED=<seed>`.
 */
import { describe, expect, it } from "vitest";
import { Row } from "../../src/index.ts";
import { decimal } from "../../src/table/types/decimal.ts";
import { CONFIGS, describeContinuousEqualsBatch, input, seed } from "../support/continuous-equals-batch.ts";
import { batchResults, compareWithBatch, type HarnessQuery } from "../support/sql-harness.ts";
import { ALL_QUERIES } from "./queries/index.ts";

describeContinuousEqualsBatch(CONFIGS.workers);

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
