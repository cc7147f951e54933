/**
 * At-least-once through real crashes (`npm run test:long`): the crash loop of
 * kill-loop.test.ts in at-least-once mode; no record is missing from the
 * committed output. Reproduce a failure with WEIR_SEED=<seed>.
 */
import { expect, it } from "vitest";
import { runningTotalCrashLoop } from "./support/running-total-crash-loop.ts";
import { committedTotals, describeDiff, diffTotals, expectedTotals } from "./support/e2e-orders.ts";
import { testSeed } from "../src/util/seeded-random.ts";

const SEED = testSeed();

it(`weir run killed at random moments (seed ${SEED}), at-least-once: no record is missing from the committed output`, async () => {
  const { files, output, where } = await runningTotalCrashLoop({ mode: "at-least-once", seed: SEED + 1, kills: 4 });
  const diff = diffTotals(expectedTotals(files), committedTotals(output));
  expect(diff.missing, `${where}: ${describeDiff(diff)}`).toEqual([]);
}, 150_000);
