/**
 * The inputs and specs of test/fixtures/sql-joins-job.ts, shared with the
 * test that computes their expected results.
 */
import type { Row } from "../../src/table/data/row.ts";
import type { IntervalJoinSpec } from "../../src/table/runtime/interval-join.ts";
import type { RegularJoinSpec } from "../../src/table/runtime/regular-join.ts";
import type { SqlValue } from "../../src/table/types/sql-value.ts";
import { randomInt, seededRandom } from "../../src/util/seeded-random.ts";
import { randomChangelog } from "./join-oracle.ts";

/** How far the interval join's input times are out of order (and its watermarks behind). */
export const INTERVAL_BOUND = 40;

/** `[k, s]` ⋈ `[k, s]` FULL on k with `l.s < r.s`. */
export const regularSpec: RegularJoinSpec = {
  joinType: "FULL", leftKeys: [0], rightKeys: [0], leftArity: 2, rightArity: 2,
  condition: (f: SqlValue[]) => (f[1] === null || f[3] === null ? null : (f[1] as string) < (f[3] as string)),
};

/** `[k, t, s]` ⋈ `[k, t, s]` LEFT on k with `r.t BETWEEN l.t - 15 AND l.t + 25`. */
export const intervalSpec: IntervalJoinSpec = {
  joinType: "LEFT", leftKeys: [0], rightKeys: [0], leftArity: 3, rightArity: 3, leftTimeField: 1, rightTimeField: 1, lowerBound: -15, upperBound: 25,
};

/** The seeded inputs of both joins. */
export function joinJobInputs(seed: number): { regularLeft: Row[]; regularRight: Row[]; intervalLeft: Row[]; intervalRight: Row[] } {
  const random = seededRandom(seed);
  const keyed = (): SqlValue[] => [random() < 0.1 ? null : randomInt(random, 0, 9), random() < 0.1 ? null : "abcdef"[randomInt(random, 0, 5)]!];
  const timed = (n: number): Row[] =>
    Array.from({ length: n }, (_, i) => ({
      kind: "+I",
      fields: [random() < 0.1 ? null : randomInt(random, 0, 9), i * 2 + randomInt(random, 0, INTERVAL_BOUND), "abcdef"[randomInt(random, 0, 5)]!],
    }));
  return {
    regularLeft: randomChangelog(random, 400, keyed),
    regularRight: randomChangelog(random, 400, keyed),
    intervalLeft: timed(600),
    intervalRight: timed(600),
  };
}
