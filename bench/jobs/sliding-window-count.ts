/**
 * The sliding-window benchmark job, in the calling thread:
 *
 * ```
 * fromSequence(1, N) → map (event: key, timestamp with seeded disorder) → timestamps/watermarks (bounded 5 s)
 *   → keyBy(key) → window(SlidingEventTimeWindows.of(10 s, 2 s)).aggregate(count) → sink summing the counts
 *                                                              └ late side output → sink counting late events
 * ```
 *
 * Event `s` (bench/jobs/event-time-data.ts) has key `s % 10 000` and
 * timestamp `base + s − lag(s)` with a seeded lag in [0, 5 s): event time
 * advances 1 ms per event and is out of order by less than the watermark
 * bound, so no event is late and every event is counted in exactly
 * size / slide = 5 windows.
 */
import {
  OutputTag,
  SlidingEventTimeWindows,
  WatermarkStrategy,
  type AggregateFunction,
  type CheckpointStats,
  type Sink,
  type StreamExecutionEnvironment,
} from "../../src/index.ts";
import { EVENT_TIME_BASE, eventIndex, seededOffset } from "./event-time-data.ts";
import { runInProcess, type InProcessRunParams } from "./in-process-run.ts";
import { countingSink } from "./counting-sink.ts";

/** Distinct keys. */
export const WINDOW_KEYS = 10_000;
/** Window size, slide and the events' out-of-orderness (= the watermark bound), in ms. */
export const WINDOW_SIZE_MS = 10_000;
export const WINDOW_SLIDE_MS = 2_000;
export const WINDOW_DISORDER_MS = 5_000;
/** Windows each event belongs to. */
export const WINDOWS_PER_EVENT = WINDOW_SIZE_MS / WINDOW_SLIDE_MS;

const SEED = 1;
const COUNTS = "window-counts";
const LATE = "late-events";

/** One generated event. */
interface KeyedEvent {
  readonly key: number;
  readonly ts: number;
}

/** One run of the sliding-window job. */
export interface SlidingWindowParams extends InProcessRunParams {
  /** Events (a multiple of `parallelism`). */
  readonly events: number;
}

/** What one run measured. */
export interface SlidingWindowMeasurement {
  readonly elapsedMs: number;
  /** Window results the sinks received (one per key and window with at least one event). */
  readonly windowsFired: number;
  /** Sum of all window counts (`WINDOWS_PER_EVENT` × events when nothing was late, lost or duplicated). */
  readonly countSum: number;
  /** Events sent to the late side output (0 when the watermark bound holds). */
  readonly lateEvents: number;
  readonly checkpoints: CheckpointStats | null;
}

/** Counts the events of a window. */
const count: AggregateFunction<KeyedEvent, number, number> = {
  createAccumulator: () => 0,
  add: (_event, acc) => acc + 1,
  getResult: (acc) => acc,
  merge: (a, b) => a + b,
};

/** Drops the window counts; reports how many arrived and their sum. */
const countSumSink: Sink<number> = {
  createWriter(context) {
    let windows = 0;
    let sum = 0;
    return {
      write(n) {
        windows++;
        sum += n;
      },
      finish: () => context.reportResult(COUNTS, [[windows, sum]]),
    };
  },
};

/** Builds the job's graph on `env`. */
function build(env: StreamExecutionEnvironment, p: SlidingWindowParams): void {
  const lateTag = new OutputTag<KeyedEvent>("late");
  const counts = env
    .fromSequence(1, p.events)
    .uid("sequence")
    .map((n): KeyedEvent => {
      const s = eventIndex(n, p.events, p.parallelism);
      return { key: s % WINDOW_KEYS, ts: EVENT_TIME_BASE + s - seededOffset(s, WINDOW_DISORDER_MS, SEED) };
    })
    .uid("events")
    .assignTimestampsAndWatermarks(WatermarkStrategy.forBoundedOutOfOrderness<KeyedEvent>(WINDOW_DISORDER_MS).withTimestampAssigner((e) => e.ts))
    .uid("timestamps")
    .keyBy((e) => e.key)
    .window(SlidingEventTimeWindows.of(WINDOW_SIZE_MS, WINDOW_SLIDE_MS))
    .sideOutputLateData(lateTag)
    .aggregate(count)
    .uid("sliding-count");
  counts.sinkTo(countSumSink).uid("counts");
  counts.getSideOutput(lateTag).sinkTo(countingSink(LATE)).uid("late");
}

/**
 * Runs the sliding-window job once, in-process, and measures it.
 *
 * @example
 * ```ts
 * const m = await runSlidingWindowCount({ events: 1_000_000, parallelism: 4, checkpointIntervalMs: 1_000 });
 * console.log(m.countSum === 5 * 1_000_000, m.lateEvents);
 * ```
 */
export async function runSlidingWindowCount(params: SlidingWindowParams): Promise<SlidingWindowMeasurement> {
  const run = await runInProcess("bench-sliding-window", params, (env) => build(env, params));
  const perSubtask = run.result.getCollected<[number, number]>(COUNTS);
  return {
    elapsedMs: run.elapsedMs,
    windowsFired: perSubtask.reduce((a, [w]) => a + w, 0),
    countSum: perSubtask.reduce((a, [, s]) => a + s, 0),
    lateEvents: run.result.getCollected<number>(LATE).reduce((a, b) => a + b, 0),
    checkpoints: run.checkpoints,
  };
}
