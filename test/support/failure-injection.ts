/**
 * The keyed count of the failure-injection suites: 100 000 records over 10 keys at parallelism 4, failing once at a
 * seeded random point 40–70 % through the input; what a run counted and what it must count.
 */
import { RestartStrategies, StreamExecutionEnvironment, type CheckpointingMode } from "../../src/index.ts";
import { randomInt } from "../../src/util/seeded-random.ts";
import { buildKeyedCount, expectedCounts, finalCounts, type Counts } from "../fixtures/keyed-count.ts";

export const RECORDS = 100_000;
export const KEYS = 10;
/** Read at most 100 numbers per poll, then pause 2 ms: about a second of input, many checkpoints. */
export const THROTTLE = { perPoll: 100, pauseMs: 2 };
/** Every key's count in a failure-free run. */
export const truth = expectedCounts(RECORDS, KEYS);

/** A seeded random record number 40–70 % through the input, where the job fails once. */
export function failPoint(random: () => number): number {
  return randomInt(random, Math.ceil(RECORDS * 0.4), Math.floor(RECORDS * 0.7));
}

/** Keys whose count is below the truth, as `key: got/expected`. */
export function countsBelow(counts: Counts): string[] {
  return Object.entries(truth)
    .filter(([k, c]) => (counts[k] ?? 0) < c)
    .map(([k, c]) => `${k}: ${counts[k] ?? 0}/${c}`);
}

/** Runs the keyed count in this process in `mode`, failing once at `failAt`; `repro` heads the failure context. */
export async function runInProcess(mode: CheckpointingMode, failAt: number, repro: string) {
  const log: string[] = [];
  const env = StreamExecutionEnvironment.create({ parallelism: 4, checkpointInterval: 50, mode, log: (l) => log.push(l) });
  env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 0));
  const reopened: string[] = [];
  buildKeyedCount(env, { records: RECORDS, keys: KEYS, failAt, throttle: THROTTLE, onReopen: (l) => reopened.push(l) });
  const result = await env.execute(`keyed-count-${mode}`);
  return { result, counts: finalCounts(result), reopened, context: `${repro} (fail at ${failAt})\nlog:\n${log.join("\n")}` };
}
