/**
 * The async I/O part of `npm run bench`: the async I/O job
 * (bench/jobs/async-io.ts) in-process at parallelism 1, a simulated service
 * answering after 1 ms, capacity 100, ordered and unordered, each without
 * checkpoints and with exactly-once checkpoints every second. The job is
 * bound by latency, not CPU: its ceiling is capacity ÷ latency, so runs have
 * a fixed size. Every run is checked to deliver each record once and fails
 * with `BenchIntegrityError` otherwise.
 */
import { runAsyncIo } from "./jobs/async-io.ts";
import { BenchIntegrityError } from "./integrity-error.ts";
import { checkpointFigures, throughput, type AsyncIoRunFigures, type CheckpointFigures } from "./report.ts";

/** Requests in flight at most, and the service's latency: the ceiling is ASYNC_IO_CAPACITY / ASYNC_IO_LATENCY_MS per ms. */
export const ASYNC_IO_CAPACITY = 100;
export const ASYNC_IO_LATENCY_MS = 1;
/** Records of each measured run (a few seconds at the ceiling's half). */
const RECORDS = 200_000;
/** Records of the warm-up run. */
const WARM_UP_RECORDS = 20_000;

/** Label, output mode and checkpoint interval of the measured runs. */
export const ASYNC_IO_PLAN: readonly (readonly [label: string, outputMode: "ordered" | "unordered", checkpointIntervalMs: number])[] = [
  ["async ordered, no checkpoints", "ordered", 0],
  ["async ordered, exactly-once 1 s", "ordered", 1_000],
  ["async unordered, no checkpoints", "unordered", 0],
  ["async unordered, exactly-once 1 s", "unordered", 1_000],
];

/**
 * Runs a warm-up, the hand loop, then `ASYNC_IO_PLAN`, adding the checkpoint
 * figures of checkpointed runs to `checkpoints`.
 *
 * @example
 * ```ts
 * const { runs, handLoopRecordsPerSecond } = await measureAsyncIoRuns((line) => console.error(line), {});
 * console.log(runs.map((r) => `${r.label}: ${Math.round(r.recordsPerSecond / handLoopRecordsPerSecond * 100)} % of the hand loop`));
 * ```
 */
export async function measureAsyncIoRuns(
  progress: (line: string) => void,
  checkpoints: Record<string, CheckpointFigures>,
): Promise<{ runs: AsyncIoRunFigures[]; handLoopRecordsPerSecond: number }> {
  progress(`async I/O: warm-up (${WARM_UP_RECORDS.toLocaleString("en-US")} records)`);
  await run("async warm-up", WARM_UP_RECORDS, "unordered", 0);
  progress(`async I/O: hand loop (${RECORDS.toLocaleString("en-US")} requests)`);
  const handLoopRecordsPerSecond = await handLoop(RECORDS);
  const runs: AsyncIoRunFigures[] = [];
  for (const [label, outputMode, checkpointIntervalMs] of ASYNC_IO_PLAN) {
    progress(`${label} (${RECORDS.toLocaleString("en-US")} records)`);
    const m = await run(label, RECORDS, outputMode, checkpointIntervalMs);
    const cp = checkpointFigures(m.checkpoints);
    if (checkpointIntervalMs > 0) checkpoints[label] = cp;
    runs.push({ label, outputMode, checkpointIntervalMs, records: RECORDS, elapsedMs: m.elapsedMs, recordsPerSecond: throughput(RECORDS, m.elapsedMs), checkpointsCompleted: cp.completed });
  }
  return { runs, handLoopRecordsPerSecond };
}

/**
 * The same requests without the engine: `ASYNC_IO_CAPACITY` timers of
 * `ASYNC_IO_LATENCY_MS` in flight, each replaced by the next as it fires.
 * What Node's timers allow; the engine's runs are compared with it.
 */
async function handLoop(requests: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  let done = 0;
  await new Promise<void>((finish) => {
    const request = (): void => {
      next++;
      void new Promise<void>((answer) => setTimeout(answer, ASYNC_IO_LATENCY_MS)).then(() => {
        if (++done === requests) finish();
        else if (next < requests) request();
      });
    };
    for (let i = 0; i < ASYNC_IO_CAPACITY; i++) request();
  });
  return throughput(requests, performance.now() - started);
}

/** One run, checked: every record arrived once. */
async function run(label: string, records: number, outputMode: "ordered" | "unordered", checkpointIntervalMs: number) {
  const m = await runAsyncIo({ records, outputMode, checkpointIntervalMs, parallelism: 1, capacity: ASYNC_IO_CAPACITY, latencyMs: ASYNC_IO_LATENCY_MS });
  if (m.received !== records) throw new BenchIntegrityError(label, "records the sinks received", records, m.received);
  return m;
}
