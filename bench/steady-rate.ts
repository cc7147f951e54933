/**
 * Throughput in the steady state: the rate between the instants at which a
 * job's sinks together had received a `from` and a `to` fraction of its
 * records, from the marks of progress sinks (bench/jobs/progress-sink.ts).
 * It leaves out the start (threads, module import, the JIT warming up) and the
 * end (the last subtasks finishing alone), which dominate the spread of a
 * whole-run figure; with the process's CPU time at the same instants it also
 * gives what a record costs in CPU, whatever else shares the machine.
 */

/** The steady part of one run. */
export interface SteadyWindow {
  /** Start and end of the window, in ms since the epoch. */
  readonly startAt: number;
  readonly endAt: number;
  /** Records the sinks received within the window. */
  readonly records: number;
  readonly recordsPerSecond: number;
}

/** The default window: from 20 % to 90 % of the records. */
export const STEADY_FROM = 0.2;
export const STEADY_TO = 0.9;

/**
 * The window of a run from the marks of its sinks: `marks[s]` are the instants
 * at which sink subtask `s` received its `every`-th, 2·`every`-th, … record,
 * `records` is the job's total.
 *
 * @throws RangeError when the marks do not cover the window (a run too short for `every`)
 * @example
 * ```ts
 * // two sinks, a mark every 100 records, 1 000 records in all, 1 mark per ms
 * steadyWindow([[1, 3, 5, 7, 9], [2, 4, 6, 8, 10]], 100, 1_000).recordsPerSecond; // 100_000
 * ```
 */
export function steadyWindow(marks: readonly (readonly number[])[], every: number, records: number, from = STEADY_FROM, to = STEADY_TO): SteadyWindow {
  const all = marks.flat().sort((a, b) => a - b);
  // The i-th mark (0-based) of the merged, ordered marks is the instant at which (i + 1) · every records had arrived.
  const first = Math.ceil((from * records) / every) - 1;
  const last = Math.floor((to * records) / every) - 1;
  if (first < 0 || last <= first || last >= all.length)
    throw new RangeError(`steadyWindow: ${all.length} marks of ${every} records do not cover ${from * 100}–${to * 100} % of ${records} records`);
  const startAt = all[first]!;
  const endAt = all[last]!;
  const inWindow = (last - first) * every;
  if (!(endAt > startAt)) throw new RangeError(`steadyWindow: the window from ${startAt} to ${endAt} has no duration`);
  return { startAt, endAt, records: inWindow, recordsPerSecond: (inWindow * 1000) / (endAt - startAt) };
}
