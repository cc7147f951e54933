/**
 * The interval join equals a nested-loop oracle on seeded random inputs: in
 * process at parallelism 3, and through `weir run` with 1 and 2 worker threads.
 * A failing run prints its seed (rerun with WEIR_SEED=…).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { jsonResult, runCli } from "./support/cli-process.ts";
import { testSeed } from "../src/util/seeded-random.ts";
import { oraclePairs, joinInputs } from "./fixtures/two-streams-join-data.ts";

const SEED = testSeed();
const WHERE = `seed ${SEED} (WEIR_SEED=${SEED})`;
const RECORDS = 800;
const root = mkdtempSync(join(tmpdir(), "weir-interval-join-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe(`interval join vs nested-loop oracle (${WHERE})`, () => {
  it("weir run with 1 and 2 workers at parallelism 3 gives exactly the oracle's pairs and timestamps", async () => {
    const { left, right } = joinInputs(SEED, RECORDS);
    const expected = oraclePairs(left, right);
    expect(expected.length, WHERE).toBeGreaterThan(RECORDS * 5);
    const run = (workers: number) =>
      runCli([
        "run", "test/fixtures/two-streams-interval-join-job.ts", "--parallelism", "3", "--workers", String(workers),
        "--checkpoint-interval", "50", "--checkpoint-dir", join(root, `w${workers}`), "--", String(SEED), String(RECORDS),
      ], 60_000);
    const [one, two] = await Promise.all([run(1), run(2)]);
    expect(one.code, `${WHERE}\n${one.stderr}`).toBe(0);
    expect(two.code, `${WHERE}\n${two.stderr}`).toBe(0);
    expect(jsonResult<{ pairs: unknown }>(one).pairs, `${WHERE}: 1 worker`).toEqual(expected);
    expect(jsonResult<{ pairs: unknown }>(two).pairs, `${WHERE}: 2 workers`).toEqual(expected);
  }, 90_000);
});
