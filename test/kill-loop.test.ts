/**
 * Exactly-once through real crashes: `weir run` of FileSource → keyBy →
 * running total in keyed state → FileSink, at parallelism 2 on 2 workers, is
 * killed with SIGKILL at seeded random moments and restarted with the same
 * command until a run finishes. The committed part files then hold exactly the
 * output of a failure-free run (computed here from the input). The
 * at-least-once twin is in kill-loop-at-least-once.long.test.ts (`npm run
 * test:long`). Reproduce a failure with WEIR_SEED=<seed>.
 */
import { expect, it } from "vitest";
import { CRASH_LOOP_RECORDS, runningTotalCrashLoop } from "./support/running-total-crash-loop.ts";
import { committedTotals, describeDiff, diffTotals, expectedTotals, finalTallies, keySums } from "./support/e2e-orders.ts";
import { testSeed } from "../src/util/seeded-random.ts";

const SEED = testSeed();

it(`weir run killed at random moments (seed ${SEED}), exactly-once: the committed output equals a failure-free run's, every key's last total is its sum`, async () => {
  const { files, output, where } = await runningTotalCrashLoop({ seed: SEED, kills: 3 });
  const actual = committedTotals(output);
  const diff = diffTotals(expectedTotals(files), actual);
  expect(diff.missing.length + diff.duplicated.length + diff.wrong.length, `${where}: ${describeDiff(diff)}`).toBe(0);
  expect(actual.length, where).toBe(CRASH_LOOP_RECORDS);
  expect(finalTallies(actual), `${where}: last count and total per key`).toEqual(keySums(files));
}, 150_000);
