/**
 * The running-totals job of the in-process suites that step a job checkpoint
 * by checkpoint: a source of the events' sequence numbers that reads only
 * below `progress.limit`, a map that counts them in `progress.seen`, and the
 * keyed running totals (see running-totals.ts) at parallelism 2 into a
 * collect sink `out`, with incremental checkpoints of which all are retained.
 */
import { collectSink } from "../../src/connectors/builtin/collect-sink.ts";
import { RichFunction, StreamExecutionEnvironment, WatermarkStrategy } from "../../src/index.ts";
import { throttledSequence } from "../fixtures/throttled-sequence-source.ts";
import { runningTotals, type TotalsEvent } from "./running-totals.ts";

/** Checkpoints retained: more than a test's jobs complete. */
export const RETAINED = 10_000;

/** Records the map saw so far, and the number below which the source may read (the jobs run in this process). */
export const progress = { seen: 0, limit: Infinity };

/** Maps a sequence number to its event and counts them. */
class Events extends RichFunction {
  constructor(private readonly events: readonly TotalsEvent[]) {
    super();
  }
  map(i: number): TotalsEvent {
    progress.seen = Math.max(progress.seen, i + 1);
    return this.events[i]!;
  }
}

/**
 * The job over `events` with incremental checkpoints into `dir` every `intervalMs`, restored from
 * `fromSavepoint` if given.
 *
 * @example
 * ```ts
 * progress.limit = 2000;
 * const client = await steppedTotalsJob(events, dir, 3_600_000).executeAsync("first");
 * ```
 */
export function steppedTotalsJob(events: readonly TotalsEvent[], dir: string, intervalMs: number, fromSavepoint?: string): StreamExecutionEnvironment {
  const env = StreamExecutionEnvironment.create({ parallelism: 2, fromSavepoint });
  env.enableCheckpointing(intervalMs, "exactly-once");
  env.getCheckpointConfig().enableIncrementalCheckpointing(true).setCheckpointStorage(dir).setNumRetainedCheckpoints(RETAINED);
  env
    .fromSource(throttledSequence(0, events.length - 1, 5, 1, 0, () => progress.limit), WatermarkStrategy.noWatermarks(), "numbers")
    .uid("numbers")
    .setParallelism(1)
    .map(new Events(events))
    .uid("events")
    .setParallelism(1) // one channel per key: the per-record totals are deterministic
    .keyBy((e) => e.key)
    .process(runningTotals)
    .uid("totals")
    .sinkTo(collectSink("out"))
    .uid("out");
  return env;
}
