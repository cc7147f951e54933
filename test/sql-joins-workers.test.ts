/**
 * The SQL regular and interval joins across worker threads: the same folded
 * results with 1 and 2 workers, equal to the nested-loop oracle.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Row } from "../src/table/data/row.ts";
import { testSeed } from "../src/util/seeded-random.ts";
import { jsonResult, runCli } from "./support/cli-process.ts";
import { finalRows, nestedLoopJoin, pairMatches } from "./support/join-oracle.ts";
import { intervalSpec, joinJobInputs, regularSpec } from "./support/sql-joins-job-data.ts";

const dir = mkdtempSync(join(tmpdir(), "weir-sql-joins-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Out {
  regular: string[];
  interval: string[];
}

describe("SQL joins across worker threads", () => {
  it("the regular and the interval join fold to the same result with 1 and 2 workers, the batch join", async () => {
    const seed = testSeed();
    const run = async (workers: number) => {
      const r = await runCli(["run", "test/fixtures/sql-joins-job.ts", "--parallelism", "3", "--workers", String(workers), "--fresh", "--checkpoint-interval", "100", "--checkpoint-dir", join(dir, `w${workers}`), "--", String(seed)], 60_000);
      expect(r.code, `WEIR_SEED=${seed}\n${r.stderr}`).toBe(0);
      return jsonResult<Out>(r);
    };
    const [one, two] = [await run(1), await run(2)];
    const msg = `WEIR_SEED=${seed}`;
    expect(two, msg).toEqual(one);
    const inputs = joinJobInputs(seed);
    const strings = (rows: Row[]) => rows.map((r) => Row.toString(r));
    expect(one.regular, msg).toEqual(strings(nestedLoopJoin(regularSpec, finalRows(inputs.regularLeft), finalRows(inputs.regularRight))));
    const s = intervalSpec;
    const expectedInterval = nestedLoopJoin(s, finalRows(inputs.intervalLeft), finalRows(inputs.intervalRight), (l, r) => {
      const tl = l[1] as number;
      const tr = r[1] as number;
      return tr >= tl + s.lowerBound && tr <= tl + s.upperBound && pairMatches(s, l, r);
    });
    expect(one.interval, msg).toEqual(strings(expectedInterval));
  }, 120_000);
});
