/**
 * The job of the bench's `cluster` section (bench/cluster.ts): the keyed count (as bench/jobs/keyed-count.ts)
 * or Nexmark q5 (bench/jobs/nexmark/q5-hot-items.ts, DataStream). It is bundled once, as `weir run -m` bundles a
 * job, and the same bundle runs on a cluster (uploaded to a job manager) and under `weir run` in one process, so
 * both run the same code. Its figures leave the processes through files, readable from every process of one
 * machine: a marker chained to the source appends the instant of every `SOURCE_MARK_EVERY`-th record of its
 * subtask to `marks-<subtask>` (bench/jobs/source-marks.ts: the steady window of the run, across processes), and the sink
 * writes its rows and their digest to `sink-<subtask>.json` at the end of input (the integrity check;
 * bench/jobs/cluster-job-report.ts).
 *
 * Args: `keyed-count|q5 records keys outDir` (`keys`: of the keyed count; q5 ignores it).
 *
 * @example
 * ```sh
 * weir run cluster-job.mjs -p 2 --workers 2 -- keyed-count 2000000 10000 /tmp/out
 * ```
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  getJobArgs,
  KeyedProcessFunction,
  NexmarkSource,
  StreamExecutionEnvironment,
  ValueStateDescriptor,
  WatermarkStrategy,
  type Collector,
  type KeyedProcessContext,
  type NexmarkEvent,
  type Sink,
  type ValueState,
} from "../../src/index.ts";
import type { ClusterSinkReport } from "./cluster-job-report.ts";
import { markedSource } from "./source-marks.ts";
import { digestAdd, digestStart, NEXMARK_OUT_OF_ORDERNESS_MS } from "./nexmark/nexmark-query.ts";
import { q5, type HotItem } from "./nexmark/q5-hot-items.ts";

/** Events per second of event time, as in the `nexmark` section (bench/nexmark.ts): windows fire steadily. */
const EVENT_TIME_RATE = 1_000;

/** Counts the records of each key in keyed state and emits the running count. */
class RunningCount extends KeyedProcessFunction<number, number, number> {
  private count!: ValueState<number>;

  override open(): void {
    this.count = this.getRuntimeContext().getState(new ValueStateDescriptor<number>("count", 0));
  }

  processElement(_value: number, _ctx: KeyedProcessContext<number>, out: Collector<number>): void {
    const next = (this.count.value() ?? 0) + 1;
    this.count.update(next);
    out.collect(next);
  }
}

/** Counts and digests the rows; writes `sink-<subtask>.json` in `dir` at the end of input. */
function reportingSink<T>(dir: string, digest: (row: T) => number): Sink<T> {
  return {
    createWriter(context) {
      let rows = 0;
      let sum = 0;
      return {
        write(row) {
          rows++;
          sum = (sum + digest(row)) >>> 0;
        },
        finish: () => writeFileSync(join(dir, `sink-${context.subtaskIndex}.json`), JSON.stringify({ rows, digest: sum } satisfies ClusterSinkReport)),
      };
    },
  };
}

const [kind, recordsArg, keysArg, outDir] = getJobArgs();
if ((kind !== "keyed-count" && kind !== "q5") || !recordsArg || !keysArg || !outDir) throw new Error("usage: -- keyed-count|q5 records keys outDir");
const records = Number(recordsArg);
const keys = Number(keysArg);
const env = StreamExecutionEnvironment.getExecutionEnvironment();
if (kind === "keyed-count") {
  markedSource(env.fromSequence(1, records).uid("sequence"), outDir)
    .keyBy((n) => n % keys)
    .process(new RunningCount())
    .uid("running-count")
    .sinkTo(reportingSink<number>(outDir, (count) => digestAdd(digestStart(), count)))
    .uid("result");
} else {
  const source = NexmarkSource.create({ events: records, eventsPerSecond: EVENT_TIME_RATE, maxOutOfOrdernessMs: NEXMARK_OUT_OF_ORDERNESS_MS, rateLimited: false });
  const events = env.fromSource(source, WatermarkStrategy.forBoundedOutOfOrderness<NexmarkEvent>(NEXMARK_OUT_OF_ORDERNESS_MS), "nexmark").uid("nexmark");
  q5.build(markedSource(events, outDir))
    .sinkTo(reportingSink<HotItem>(outDir, q5.digest))
    .uid("result");
}
await env.execute(`bench-cluster-${kind}`);
