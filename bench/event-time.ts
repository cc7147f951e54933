/**
 * The event-time part of `npm run bench`: the sliding-window count
 * (bench/jobs/sliding-window-count.ts) and the interval join
 * (bench/jobs/interval-join.ts), in-process at parallelism 4, each without
 * checkpoints and with exactly-once checkpoints every second. A first small
 * run of each job warms it up and sizes its measured runs to about
 * `TARGET_RUN_MS`. Every run is checked against the closed-form expected
 * result and fails with `BenchIntegrityError` otherwise.
 */
import { runIntervalJoin } from "./jobs/interval-join.ts";
import { WINDOWS_PER_EVENT, runSlidingWindowCount } from "./jobs/sliding-window-count.ts";
import { BenchIntegrityError } from "./integrity-error.ts";
import { checkpointFigures, throughput, type CheckpointFigures, type EventTimeRunFigures } from "./report.ts";

/** Parallelism of both event-time jobs (in-process). */
export const EVENT_TIME_PARALLELISM = 4;
/** Wished duration of a measured run. */
const TARGET_RUN_MS = 4_000;
/** Events of the sizing runs (also the warm-up). */
const SIZING_WINDOW_EVENTS = 40_000;
const SIZING_JOIN_ORDERS = 100_000;
/** Measured runs are rounded to this many events (a multiple of the parallelism). */
const ROUNDING = 10_000;

/** Label and checkpoint interval of the measured runs of each job. */
export const WINDOW_PLAN: readonly (readonly [label: string, checkpointIntervalMs: number])[] = [
  ["window, no checkpoints", 0],
  ["window, exactly-once 1 s", 1_000],
];
export const JOIN_PLAN: readonly (readonly [label: string, checkpointIntervalMs: number])[] = [
  ["join, no checkpoints", 0],
  ["join, exactly-once 1 s", 1_000],
];

/**
 * Runs both jobs (sizing run, then `WINDOW_PLAN` and `JOIN_PLAN`), adding
 * the checkpoint figures of checkpointed runs to `checkpoints`.
 *
 * @example
 * ```ts
 * const checkpoints = {};
 * const runs = await measureEventTimeRuns((line) => console.error(line), checkpoints);
 * console.log(runs.map((r) => `${r.label}: ${Math.round(r.eventsPerSecond)} events/s`));
 * ```
 */
export async function measureEventTimeRuns(progress: (line: string) => void, checkpoints: Record<string, CheckpointFigures>): Promise<EventTimeRunFigures[]> {
  const runs: EventTimeRunFigures[] = [];
  const parallelism = EVENT_TIME_PARALLELISM;

  progress(`sliding window: sizing run (${SIZING_WINDOW_EVENTS.toLocaleString("en-US")} events)`);
  const sizing = await slidingWindow("window, sizing", SIZING_WINDOW_EVENTS, 0);
  const windowEvents = sized(throughput(SIZING_WINDOW_EVENTS, sizing.elapsedMs));
  for (const [label, checkpointIntervalMs] of WINDOW_PLAN) {
    progress(`${label} (${windowEvents.toLocaleString("en-US")} events)`);
    const m = await slidingWindow(label, windowEvents, checkpointIntervalMs);
    runs.push(figures(label, "sliding window", checkpointIntervalMs, windowEvents, m.elapsedMs, m.windowsFired, m.checkpoints, checkpoints));
  }

  progress(`interval join: sizing run (${SIZING_JOIN_ORDERS.toLocaleString("en-US")} orders)`);
  const joinSizing = await intervalJoin("join, sizing", SIZING_JOIN_ORDERS, 0);
  const orders = sized(throughput(SIZING_JOIN_ORDERS, joinSizing.elapsedMs));
  for (const [label, checkpointIntervalMs] of JOIN_PLAN) {
    progress(`${label} (${orders.toLocaleString("en-US")} orders + as many payments)`);
    const m = await intervalJoin(label, orders, checkpointIntervalMs);
    runs.push(figures(label, "interval join", checkpointIntervalMs, 2 * orders, m.elapsedMs, m.matchedPairs, m.checkpoints, checkpoints));
  }
  return runs;

  /** One sliding-window run, checked: no late event, every event counted in `WINDOWS_PER_EVENT` windows. */
  async function slidingWindow(label: string, events: number, checkpointIntervalMs: number) {
    const m = await runSlidingWindowCount({ events, parallelism, checkpointIntervalMs });
    if (m.lateEvents !== 0) throw new BenchIntegrityError(label, "late events", 0, m.lateEvents);
    if (m.countSum !== WINDOWS_PER_EVENT * events) throw new BenchIntegrityError(label, "sum of the window counts", WINDOWS_PER_EVENT * events, m.countSum);
    return m;
  }

  /** One interval-join run, checked: no late record, each order paired with its own payment only. */
  async function intervalJoin(label: string, n: number, checkpointIntervalMs: number) {
    const m = await runIntervalJoin({ orders: n, parallelism, checkpointIntervalMs });
    if (m.lateRecords !== 0) throw new BenchIntegrityError(label, "late orders and payments", 0, m.lateRecords);
    if (m.foreignPairs !== 0) throw new BenchIntegrityError(label, "pairs of an order with another order's payment", 0, m.foreignPairs);
    if (m.matchedPairs !== n) throw new BenchIntegrityError(label, "pairs of an order with its payment", n, m.matchedPairs);
    return m;
  }
}

/** Events for a run of about `TARGET_RUN_MS` at `eventsPerSecond`, rounded to `ROUNDING` (at least `ROUNDING`). */
function sized(eventsPerSecond: number): number {
  return Math.max(1, Math.round((eventsPerSecond * TARGET_RUN_MS) / 1000 / ROUNDING)) * ROUNDING;
}

function figures(
  label: string,
  job: EventTimeRunFigures["job"],
  checkpointIntervalMs: number,
  events: number,
  elapsedMs: number,
  outputs: number,
  stats: Parameters<typeof checkpointFigures>[0],
  checkpoints: Record<string, CheckpointFigures>,
): EventTimeRunFigures {
  const cp = checkpointFigures(stats);
  if (checkpointIntervalMs > 0) checkpoints[label] = cp;
  return { label, job, checkpointIntervalMs, events, elapsedMs, eventsPerSecond: throughput(events, elapsedMs), outputs, checkpointsCompleted: cp.completed };
}
