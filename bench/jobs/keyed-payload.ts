/**
 * The recovery benchmark job, run with `weir run` (bench/recovery.ts starts
 * it as a child process, kills it with SIGKILL and starts it again):
 *
 * ```
 * fromSequence(1, 2^53 - 1) → keyBy(n % keys) → KeyedProcessFunction (ValueState<string> payload of 1 KiB per key) → discarding sink
 * ```
 *
 * `keys` is the wished state size (first job argument, in bytes) divided by
 * the payload size, so every checkpoint holds about that much keyed state once
 * every key was seen. The job never ends by itself.
 *
 * It writes marker lines to stderr (bench/jobs/payload-marker.ts): `module`
 * when the job module starts in the client process, and `first-record` when
 * the first record after a restore is processed, with whether that record's
 * key found its payload restored. Only bench/recovery.ts should start it.
 */
import {
  KeyedProcessFunction,
  StreamExecutionEnvironment,
  ValueStateDescriptor,
  getJobArgs,
  isWorker,
  type CheckpointedFunction,
  type FunctionInitializationContext,
  type KeyedProcessContext,
  type Sink,
  type ValueState,
} from "../../src/index.ts";
import { markerLine, type PayloadMarker } from "./payload-marker.ts";

/** Bytes of the payload string kept per key. */
const PAYLOAD_BYTES = 1024;

function writeMarker(marker: PayloadMarker): void {
  process.stderr.write(`${markerLine(marker)}\n`);
}

/** Keeps a payload per key; reports the first record processed after a restore. */
class KeepPayload extends KeyedProcessFunction<number, number, number> implements CheckpointedFunction {
  private payload!: ValueState<string>;
  private awaitingFirstRestoredRecord = false;

  initializeState(context: FunctionInitializationContext): void {
    this.awaitingFirstRestoredRecord = context.isRestored();
  }

  snapshotState(): void {}

  override open(): void {
    this.payload = this.getRuntimeContext().getState(new ValueStateDescriptor<string>("payload"));
  }

  processElement(n: number, ctx: KeyedProcessContext<number>): void {
    const kept = this.payload.value();
    if (this.awaitingFirstRestoredRecord) {
      this.awaitingFirstRestoredRecord = false;
      writeMarker({ event: "first-record", at: Date.now(), keyRestored: kept !== undefined && kept !== null });
    }
    if (kept === undefined || kept === null) this.payload.update(`${ctx.getCurrentKey()}:${n}:`.padEnd(PAYLOAD_BYTES, "x"));
  }
}

/** Drops every record. */
const discard: Sink<number> = { createWriter: () => ({ write() {} }) };

if (!isWorker()) writeMarker({ event: "module", at: Date.now() });
const stateBytes = Number(getJobArgs()[0]);
if (!Number.isSafeInteger(stateBytes) || stateBytes < PAYLOAD_BYTES)
  throw new RangeError(`bench/jobs/keyed-payload.ts: the first job argument must be the state size in bytes (≥ ${PAYLOAD_BYTES}), got '${getJobArgs()[0] ?? ""}'`);
const keys = Math.ceil(stateBytes / PAYLOAD_BYTES);

const env = StreamExecutionEnvironment.getExecutionEnvironment();
env
  .fromSequence(1, Number.MAX_SAFE_INTEGER)
  .uid("sequence")
  .keyBy((n) => n % keys)
  .process(new KeepPayload())
  .uid("keep-payload")
  .sinkTo(discard)
  .uid("discard");
await env.execute("bench-keyed-payload");
