/**
 * One parallel subtask: a single-threaded mailbox loop that takes the next
 * batch from its input gate (or its source) and pushes it through the operator
 * chain, or runs a mail (checkpoint trigger, notification). Barriers are
 * handled here, never by operators: the barrier handler aligns them, then the
 * task snapshots (synchronous capture), forwards the barrier, and writes the
 * captured state asynchronously while records flow again (DESIGN.md
 * "Checkpoint" steps 2–4).
 */
import { AbortedAhead, createBarrierHandler, type BarrierDecision, type CheckpointBarrierHandler } from "../../checkpoint/barrier/index.ts";
import type { CheckpointBarrier } from "../../checkpoint/types.ts";
import { Signal } from "../../util/signal.ts";
import type { InputChannel, OutputChannel } from "../channel/channel.ts";
import { InputGate } from "../channel/input-gate.ts";
import { RecordWriter } from "../channel/record-writer.ts";
import { END_OF_DATA, END_OF_INPUT, NO_TIMESTAMP, type ElementContext } from "../elements.ts";
import type { TimerHandle } from "../../util/clock.ts";
import type { ProcessingTimeService } from "../../time/processing-time-service.ts";
import { WatermarkValve } from "./watermark-valve.ts";
import type { TaskSpec } from "../execution/execution-plan.ts";
import { chainPredecessors, consumersIsolate, type JobEdge } from "../../graph/job-graph.ts";
import { isSourceOperator, type SourceOperatorLike } from "../operators/stream-operator.ts";
import { Mailbox } from "./mailbox.ts";
import { OperatorChain } from "./operator-chain.ts";
import type { TaskResults, TaskServices } from "./task-services.ts";
import { yieldIfBusy } from "./yield.ts";
import { markTaskActive } from "./task-activity.ts";
import { TaskMetrics } from "./task-metrics.ts";
import { SourceAlignment, type GroupLowest } from "./source-alignment.ts";

/** Longest time a record may wait in a partly filled output batch while the task is busy (Flink's buffer timeout). */
const FLUSH_INTERVAL_MS = 50;

/** Lifecycle of a subtask (Flink's ExecutionState subset). */
export type TaskState = "initializing" | "running" | "finished" | "failed" | "cancelled";

export class StreamTask {
  private readonly wake = new Signal();
  readonly mailbox = new Mailbox(() => this.wake.notify());
  /** The task's built-in metrics (and its operators'), in the thread's registry. */
  readonly metrics: TaskMetrics;
  private state_: TaskState = "initializing";
  private readonly writers: RecordWriter[];
  private readonly gate: InputGate | null;
  private readonly handler: CheckpointBarrierHandler | null;
  private chain: OperatorChain | null = null;
  private cancelled = false;
  /** End of data reached: operators finished, waiting for the final checkpoint. */
  private dataEnded = false;
  /** The job master asked the task to end after the final checkpoint. */
  private terminating = false;
  /** Stop-with-savepoint: the source reads no more. */
  private sourceSuspended = false;
  /** A stop with savepoint (without drain) suspended this source task at its barrier; a failed stop resumes it. */
  private stoppedAtBarrier = false;
  /** The operators are finishing (end of data): checkpoint triggers wait until they finished. */
  private finishing = false;
  /** Checkpoint triggers that came while the operators were finishing. */
  private readonly afterFinish: (() => Promise<void>)[] = [];
  /** Source tasks: checkpoints the coordinator aborted before their trigger ran (the barrier handler keeps its own). */
  private readonly abortedAhead = new AbortedAhead();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly results: TaskResults = {};
  private lastFlush = performance.now();
  /** Timestamp of the record being processed (read by writers and operators). */
  private readonly element: ElementContext = { timestamp: NO_TIMESTAMP };
  private readonly valve: WatermarkValve | null;
  /** Processing-time callbacks not yet run (cancelled when the task ends). */
  private readonly timers = new Set<TimerHandle>();
  private readonly processingTime: ProcessingTimeService;
  private nextPeriodicWatermark = 0;
  /** A source task's watermark alignment (its strategy's `withWatermarkAlignment`); null: none. */
  private alignment: SourceAlignment | null = null;
  /** Resolved by `cancel()`: ends waits on operators (a sink's destination) that may never resolve. */
  private readonly cancellation: Promise<void>;
  private onCancel!: () => void;

  /**
   * @param inputSides for each input channel, the input (0 or 1) of a two-input operator it feeds
   */
  constructor(
    private readonly spec: TaskSpec,
    inputs: readonly InputChannel[],
    private readonly inputSides: readonly (0 | 1)[],
    outputs: readonly (readonly OutputChannel[])[],
    private readonly services: TaskServices,
  ) {
    this.cancellation = new Promise<void>((resolve) => (this.onCancel = resolve));
    const v = spec.vertex;
    const clock = services.clock;
    this.processingTime = {
      now: () => clock.now(),
      scheduleAt: (timestamp, callback) => {
        const handle = clock.setTimeout(() => {
          this.timers.delete(handle);
          this.mailbox.put(callback);
        }, timestamp - clock.now());
        this.timers.add(handle);
      },
    };
    this.valve = inputs.length > 0 ? new WatermarkValve(inputs.length) : null;
    this.metrics = new TaskMetrics(spec, services.metrics, () => this.queued());
    for (const c of inputs) c.countBytes?.(this.metrics.numBytesIn);
    for (const c of outputs.flat()) c.countBytes?.(this.metrics.numBytesOut);
    // the members that operators of the chain are chained to (they feed them after their writers)
    const chainedTo = new Set(chainPredecessors(v).flatMap((p) => (p < 0 ? [] : [v.nodes[p]!.id])));
    this.writers = v.outputs.map((edge, i) => {
      const node = v.nodes.find((n) => n.id === edge.sourceNode)!;
      const sameOutput = (other: JobEdge) => other.sourceNode === edge.sourceNode && other.sideTag === edge.sideTag;
      return new RecordWriter(outputs[i]!, edge.partitioning, edge.keySelector, edge.targetMaxParallelism, services.batchSize, this.metrics.backPressure, spec.subtaskIndex, this.element, {
        producer: `operator '${node.name}' (uid '${node.uid}')`,
        // Every edge of one output but the last sends copies (fan-out), and all of them when operators chained to the
        // producer take its records after them (operator-chain.ts `outputOf`), unless the job reuses objects or
        // every consumer of the output leaves its records alone.
        copy:
          !v.objectReuse &&
          (v.outputs.slice(i + 1).some(sameOutput) || (edge.sideTag === undefined && chainedTo.has(node.id))) &&
          !consumersIsolate(v, edge.sourceNode, edge.sideTag),
        // The producer's output emits to the edges of one output in this order, before its chained operators.
        checked: v.outputs.slice(0, i).some(sameOutput),
        reuse: v.objectReuse,
        // a source's records reach its writers as its readers made them (the writers come before any chained operator)
        ...(node.copyRecord && edge.sideTag === undefined ? { copyRecord: node.copyRecord } : {}),
      });
    });
    if (inputs.length > 0) {
      this.gate = new InputGate(inputs, () => this.wake.notify());
      this.handler = createBarrierHandler(services.checkpointing.mode, inputs.length, services.clock);
      this.gate.setBarrierHandler(this.handler);
    } else {
      this.gate = null;
      this.handler = null;
    }
  }

  get taskId(): string {
    return this.spec.taskId;
  }

  /** Where the task is in its lifecycle. */
  get state(): TaskState {
    return this.state_;
  }

  /** Runs the task to its end (finished, failed or cancelled). Never rejects: failures go to `services.failed`. */
  async run(): Promise<void> {
    try {
      this.chain = await OperatorChain.create(this.spec, this.writers, this.services, this.results, this.element, this.processingTime, this.mailbox, this.metrics);
      if (this.cancelled) return;
      this.state_ = "running";
      this.services.running(this.spec.taskId);
      const head = this.chain.head;
      if (isSourceOperator(head)) await this.runSource(head);
      else await this.runOperators();
      if (this.cancelled) return;
      for (const w of this.writers) await w.broadcastEvent(END_OF_INPUT);
      await Promise.all(this.inFlight);
      await this.chain.close();
      this.chain = null;
      this.state_ = "finished";
      if (!this.cancelled) this.services.finished(this.spec.taskId, this.results);
    } catch (e) {
      if (this.cancelled) return;
      this.state_ = "failed";
      this.services.failed(this.spec.taskId, e instanceof Error ? e : new Error(String(e)));
    } finally {
      for (const t of this.timers) t.cancel();
      this.timers.clear();
      if (this.chain) await this.chain.close().catch(() => {});
    }
  }

  /** Source tasks: starts checkpoint `barrier` (called on the coordinator's trigger), unless it was aborted meanwhile. */
  triggerCheckpoint(barrier: CheckpointBarrier): void {
    const trigger = async (): Promise<void> => {
      if (this.finishing) {
        this.afterFinish.push(trigger);
        return;
      }
      if (this.abortedAhead.reach(barrier.id)) return;
      if (this.state_ !== "running") {
        this.services.decline(barrier.id, this.spec.taskId, `task ${this.spec.taskId} is ${this.state_}`);
        return;
      }
      if (barrier.drain) await this.drainSource();
      else if (barrier.stop) this.stoppedAtBarrier = true;
      if (barrier.stop) this.sourceSuspended = true;
      await this.performCheckpoint(barrier, 0);
    };
    this.mailbox.put(trigger);
  }

  notifyCheckpointComplete(checkpointId: number): void {
    this.mailbox.put(() => this.chain?.notifyCheckpointComplete(checkpointId));
  }

  /**
   * The coordinator aborted checkpoint `checkpointId` (expired, declined elsewhere, …).
   * At once, not as a mail: an alignment for it is released (records flow again
   * before its barriers arrive), and its barriers or trigger that come later take
   * no snapshot. Then the operators are told, as a mail.
   */
  notifyCheckpointAborted(checkpointId: number): void {
    if (this.handler) this.handler.checkpointAborted(checkpointId);
    else this.abortedAhead.add(checkpointId);
    this.mailbox.put(() => this.chain?.notifyCheckpointAborted(checkpointId));
  }

  /** Messages waiting in the input channels (backpressure metric). */
  queued(): number {
    return this.gate?.queued() ?? 0;
  }

  /** For source tasks: `uid#subtask` and the current split positions (read at cancellation). */
  sourcePositions(): [string, unknown[]] | undefined {
    return this.chain?.sourcePositions();
  }

  /**
   * Stop with savepoint `--drain`, before the savepoint's barrier: the source reads no more and ends event
   * time (the maximum watermark down the chain and to every consumer), as at its end of input.
   */
  private async drainSource(): Promise<void> {
    this.sourceSuspended = true;
    const head = this.chain?.head;
    if (head && isSourceOperator(head)) await head.finish?.();
  }

  /** The job master announced the lowest watermarks of watermark alignment group `group` (source tasks of that group pause ahead of them). */
  alignWatermarks(group: string, lowest: GroupLowest): void {
    this.mailbox.put(() => this.alignment?.announce(group, lowest));
  }

  /** A source task stops reading (stop-with-savepoint); mails still run. */
  suspendSource(): void {
    this.mailbox.put(() => void (this.sourceSuspended = true));
  }

  /** The stop with savepoint that suspended this source task failed: it reads again (a drained source does not). */
  resumeSource(): void {
    this.mailbox.put(() => {
      if (!this.stoppedAtBarrier) return;
      this.stoppedAtBarrier = false;
      this.sourceSuspended = false;
    });
  }

  /** Resolves once the mails queued before this call have run (immediately if the task ended). */
  whenMailsRun(): Promise<void> {
    if (this.state_ !== "running" && this.state_ !== "initializing") return Promise.resolve();
    return new Promise((resolve) => this.mailbox.put(resolve));
  }

  /** Ends the task after end of data (the final checkpoint completed): it forwards end of input and finishes. */
  terminate(): void {
    this.mailbox.put(() => void (this.terminating = true));
  }

  /** Stops the loop at the next batch boundary and releases the channels; run() then resolves. */
  cancel(): void {
    this.cancelled = true;
    this.onCancel();
    this.state_ = "cancelled";
    for (const w of this.writers) w.close();
    this.wake.notify();
  }

  private async runSource(source: SourceOperatorLike): Promise<void> {
    const batch = this.services.batchSize;
    const interval = this.services.autoWatermarkIntervalMs;
    const clock = this.services.clock;
    const chain = this.chain!;
    this.nextPeriodicWatermark = clock.now() + interval;
    const params = source.alignment;
    const alignment = params === null ? null : new SourceAlignment(params, this.spec.taskId, (group, wm) => this.services.reportWatermark(this.spec.taskId, group, wm), clock);
    this.alignment = alignment;
    for (;;) {
      markTaskActive(this.spec.ordinal);
      if (await this.runMails()) continue;
      markTaskActive(this.spec.ordinal);
      if (this.cancelled) return;
      if (this.dataEnded || this.sourceSuspended) {
        if (this.terminating) return;
        await this.flush();
        if (this.mailbox.size === 0) await this.idleUntil(this.wake.wait());
        continue;
      }
      if (!chain.acceptsInput()) {
        await this.idle();
        continue;
      }
      if (alignment !== null) {
        const watermark = source.alignmentWatermark();
        alignment.update(watermark);
        if (alignment.paused(watermark)) {
          // ahead of its alignment group: no records (nor periodic watermarks, which could make it idle) until the group catches up
          await this.flush();
          if (this.mailbox.size === 0) await this.idleUntil(Promise.race([this.wake.wait(), this.sleep(alignment.reportDueInMs(watermark))]));
          continue;
        }
      }
      if (interval > 0 && clock.now() >= this.nextPeriodicWatermark) {
        source.emitPeriodicWatermark();
        this.nextPeriodicWatermark = clock.now() + interval;
      }
      let status: Awaited<ReturnType<typeof source.emitNext>>;
      try {
        status = await source.emitNext(batch);
      } finally {
        // also when a chained operator threw mid-batch: the records its sinks wrote were read
        this.metrics.numRecordsIn.count = source.emitted;
      }
      if (status === "end-of-input") {
        await this.endOfData();
        continue;
      }
      if (status === "nothing-available") {
        await this.flush();
        if (this.mailbox.size === 0) await this.idleUntil(Promise.race([source.whenAvailable(), this.wake.wait(), this.untilPeriodicWatermark(interval)]));
      } else await this.flushFull();
      await yieldIfBusy();
    }
  }

  private async runOperators(): Promise<void> {
    const gate = this.gate!;
    const handler = this.handler!;
    const chain = this.chain!;
    const head = chain.head;
    for (;;) {
      markTaskActive(this.spec.ordinal);
      if (await this.runMails()) continue;
      markTaskActive(this.spec.ordinal);
      if (this.cancelled) return;
      if (this.terminating && gate.allEnded()) return;
      if (!chain.acceptsInput()) {
        await this.idle();
        continue;
      }
      const next = gate.next();
      if (!next) {
        if (gate.allEnded() && !this.dataEnded) throw new Error(`task ${this.spec.taskId}: inputs ended without end of data`);
        await this.flush();
        if (!gate.hasMessage() && this.mailbox.size === 0) await this.idleUntil(this.wake.wait());
        continue;
      }
      const m = next.message;
      switch (m.kind) {
        case "data": {
          const values = m.values;
          const ts = m.timestamps;
          const element = this.element;
          // records taken before one that threw count too (a sink's written records)
          let i = 0;
          try {
            if (this.inputSides[next.channel] === 1) {
              for (; i < values.length; i++) {
                element.timestamp = ts ? ts[i]! : NO_TIMESTAMP;
                head.processElement2!(values[i]);
              }
            } else if (ts) {
              for (; i < values.length; i++) {
                element.timestamp = ts[i]!;
                head.processElement(values[i]);
              }
            } else {
              element.timestamp = NO_TIMESTAMP;
              for (; i < values.length; i++) head.processElement(values[i]);
            }
          } finally {
            this.metrics.numRecordsIn.count += i;
          }
          await this.flushFull();
          break;
        }
        case "barrier":
          await this.carryOut(handler.processBarrier(next.channel, m));
          break;
        case "cancel":
          await this.carryOut(handler.processCancel(next.channel, m));
          break;
        case "end-of-data":
          gate.markEndOfData(next.channel);
          if (gate.allEndOfData()) await this.endOfData();
          break;
        case "end":
          gate.markEnded(next.channel);
          await this.carryOut(handler.processEndOfInput(next.channel));
          break;
        case "watermark": {
          const wm = this.valve!.onWatermark(next.channel, m.timestamp);
          if (wm !== undefined) this.advanceWatermark(wm);
          break;
        }
        case "watermark-status": {
          const { watermark, allIdleChanged } = this.valve!.onStatus(next.channel, m.idle);
          if (watermark !== undefined) this.advanceWatermark(watermark);
          if (allIdleChanged) this.chain!.emitWatermarkStatus(this.valve!.isIdle());
          break;
        }
      }
      await yieldIfBusy();
    }
  }

  /** The task's watermark advanced: operators fire what is due; their output keeps their own timestamps. */
  private advanceWatermark(watermark: number): void {
    this.metrics.watermark = watermark;
    this.chain!.processWatermark(watermark);
  }

  /** Resolves when the next periodic watermark of a source is due (never if disabled). */
  private untilPeriodicWatermark(interval: number): Promise<void> {
    return this.sleep(interval <= 0 ? undefined : this.nextPeriodicWatermark - this.services.clock.now());
  }

  /** Resolves after `ms` on the task's clock (never for undefined). */
  private sleep(ms: number | undefined): Promise<void> {
    if (ms === undefined) return new Promise(() => {});
    return new Promise((r) => {
      const handle = this.services.clock.setTimeout(() => {
        this.timers.delete(handle);
        r();
      }, ms);
      this.timers.add(handle);
    });
  }

  /** All input processed: finish the operators, tell downstream and the job master, then wait for the final checkpoint. */
  private async endOfData(): Promise<void> {
    this.dataEnded = true;
    this.finishing = true;
    try {
      // a sink waiting for its destination must not hold a cancelled task
      await Promise.race([this.chain!.finish((done) => this.runMailsUntil(done)), this.cancellation]);
    } finally {
      this.finishing = false;
      for (const trigger of this.afterFinish.splice(0)) this.mailbox.put(trigger);
    }
    if (this.cancelled) return;
    for (const w of this.writers) await w.broadcastEvent(END_OF_DATA);
    this.services.endOfData(this.spec.taskId);
  }

  /** Does what the barrier handler decided: forward a cancel marker and decline, or snapshot. */
  private async carryOut(decision: BarrierDecision): Promise<void> {
    for (const action of decision) {
      if (action.kind === "abort") {
        for (const w of this.writers) await w.broadcastEvent({ kind: "cancel", id: action.id });
        this.services.decline(action.id, this.spec.taskId, action.reason);
      } else await this.performCheckpoint(action.barrier, action.alignmentMs);
    }
  }

  private async performCheckpoint(barrier: CheckpointBarrier, alignmentMs: number): Promise<void> {
    const chain = this.chain!;
    const clock = this.services.clock;
    const t0 = clock.now();
    this.metrics.alignmentMs = alignmentMs;
    const preBarrier = chain.prepareSnapshotPreBarrier(barrier.id);
    if (preBarrier) {
      await Promise.race([preBarrier, this.cancellation]);
      if (this.cancelled) return;
    }
    for (const w of this.writers) await w.broadcastEvent(barrier);
    let captures;
    try {
      captures = chain.capture(barrier, this.services);
    } catch (e) {
      this.services.decline(barrier.id, this.spec.taskId, `snapshot of ${this.spec.taskId} failed: ${(e as Error).message}`);
      return;
    }
    const syncMs = clock.now() - t0;
    const t1 = clock.now();
    const work = chain
      .write(barrier.id, captures, this.services)
      .then((states) =>
        this.services.acknowledge({
          checkpointId: barrier.id,
          taskId: this.spec.taskId,
          states,
          alignmentMs,
          syncMs,
          asyncMs: clock.now() - t1,
        }),
      )
      .catch((e: Error) => this.services.decline(barrier.id, this.spec.taskId, e.message))
      .finally(() => this.inFlight.delete(work));
    this.inFlight.add(work);
  }

  /** Nothing to do until a mail comes (an operator refuses input): send what is buffered, then sleep. */
  private async idle(): Promise<void> {
    await this.flush();
    if (this.mailbox.size === 0) await this.idleUntil(this.wake.wait());
  }

  /** Waits for `wake` as idle time (the `idleTimeMsPerSecond` metric). */
  private async idleUntil(wake: Promise<unknown>): Promise<void> {
    const idle = this.metrics.idle;
    idle.start(performance.now());
    try {
      await wake;
    } finally {
      idle.stop(performance.now());
    }
  }

  /** Runs mails (sending what they emit) until `done()`: an operator finishes with requests in flight. */
  private async runMailsUntil(done: () => boolean): Promise<void> {
    while (!done()) {
      if (this.cancelled) throw new Error(`task ${this.spec.taskId} cancelled while finishing`);
      if (!(await this.runMails())) await this.idle();
    }
  }

  /** Runs queued mails; true if any ran. */
  private async runMails(): Promise<boolean> {
    let ran = false;
    for (let mail = this.mailbox.take(); mail; mail = this.mailbox.take()) {
      ran = true;
      await mail();
    }
    return ran;
  }

  /** Sends every buffered record. */
  private async flush(): Promise<void> {
    for (const w of this.writers) await w.flush();
    this.lastFlush = performance.now();
  }

  /** Sends full batches; everything once `FLUSH_INTERVAL_MS` passed since the last full flush (bounded latency under load). */
  private async flushFull(): Promise<void> {
    if (performance.now() - this.lastFlush >= FLUSH_INTERVAL_MS) return this.flush();
    for (const w of this.writers) await w.flush(true);
  }
}
