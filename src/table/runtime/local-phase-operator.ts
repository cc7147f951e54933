/**
 * What the local phases before an exchange share (`local-window-aggregate.ts`, `local-window-rank.ts`): a
 * buffer that is never state. What the windows up to a watermark hold is sent on before that watermark is
 * forwarded, so the operator after the exchange has it before the watermark that fires those windows; all of it
 * is sent on before a checkpoint's barrier is forwarded (a checkpoint then holds every row before its barrier in
 * the state after the exchange), when the input goes idle, and at the end of input.
 */
import { edgesOf } from "../../api/connected-streams.ts";
import { SingleOutputStreamOperator, type DataStream } from "../../api/data-stream.ts";
import { NO_TIMESTAMP } from "../../runtime/elements.ts";
import type { OperatorContext, Output, StreamOperator } from "../../runtime/operators/stream-operator.ts";
import type { Row } from "../data/row.ts";
import type { OperatorNaming } from "./operator-naming.ts";

/**
 * A local phase: subclasses buffer in {@link processElement} and say what the smallest max timestamp of their
 * buffered windows is in {@link nextFire}.
 *
 * @example
 * ```ts
 * class LocalCount extends LocalPhaseOperator<Row> {
 *   private readonly counts = new Map<number, number>(); // by window end
 *   processElement(row: Row): void {
 *     const end = row.fields[1] as number;
 *     this.counts.set(end, (this.counts.get(end) ?? 0) + 1);
 *     if (end - 1 < this.nextFire) this.nextFire = end - 1;
 *   }
 *   protected sendFired(timestamp: number): number {
 *     let next = Infinity;
 *     for (const [end, n] of this.counts) {
 *       if (end - 1 > timestamp) next = Math.min(next, end - 1);
 *       else this.out.collect({ kind: "+I", fields: [end, n] }), this.counts.delete(end);
 *     }
 *     return next;
 *   }
 *   protected sendAll(): void {
 *     for (const [end, n] of this.counts) this.out.collect({ kind: "+I", fields: [end, n] });
 *     this.counts.clear();
 *   }
 * }
 * ```
 */
export abstract class LocalPhaseOperator<OUT> implements StreamOperator<Row, OUT> {
  protected out!: Output<OUT>;
  protected ctx!: OperatorContext;
  /** The last watermark forwarded (-Infinity before the first). */
  protected watermark = -Infinity;
  /** The smallest max timestamp of the buffered windows: a watermark there sends rows on. */
  protected nextFire = Infinity;

  open(context: OperatorContext, output: Output<OUT>): void {
    this.ctx = context;
    this.out = output;
  }

  abstract processElement(row: Row): void;

  processWatermark(timestamp: number): void {
    this.watermark = timestamp;
    if (timestamp >= this.nextFire) {
      this.ctx.element.timestamp = NO_TIMESTAMP;
      this.nextFire = this.sendFired(timestamp);
    }
    this.out.emitWatermark(timestamp);
  }

  processWatermarkStatus(idle: boolean): void {
    if (idle) this.flush();
  }

  prepareSnapshotPreBarrier(): void {
    this.flush();
  }

  finish(): void {
    this.flush();
  }

  /** Sends on what the windows whose max timestamp is at most `timestamp` hold; returns the smallest max timestamp left. */
  protected abstract sendFired(timestamp: number): number;

  /** Sends on everything buffered and empties the buffer. */
  protected abstract sendAll(): void;

  /** Sends on everything buffered (also when the buffer is full). */
  protected flush(): void {
    this.ctx.element.timestamp = NO_TIMESTAMP;
    this.sendAll();
    this.nextFire = Infinity;
  }
}

/**
 * Adds the local phase made by `create` after `input`, chained to it (forward, at `input`'s parallelism), with
 * the node `type` and `naming`'s uid and name.
 *
 * @example
 * ```ts
 * const partials = localPhase<SlicePartial>(rows, "local-window-aggregate", naming, () => new LocalWindowAggOperator(spec));
 * ```
 */
export function localPhase<OUT>(input: DataStream<Row>, type: string, naming: OperatorNaming, create: () => LocalPhaseOperator<OUT>): SingleOutputStreamOperator<OUT> {
  const env = input.getExecutionEnvironment();
  const node = env.addNode({ type, name: naming.name, inputs: edgesOf(input, 0), createOperator: create });
  return new SingleOutputStreamOperator<OUT>(env, node).uid(naming.uid);
}
