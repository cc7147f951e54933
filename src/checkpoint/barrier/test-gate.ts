/**
 * Test support (not part of the engine): a tiny input gate with one queue per
 * channel that reads round-robin (or with a given picker) from the channels its
 * barrier handler does not block, hands barriers, cancel markers and
 * end-of-input to the handler, carries out its decisions, and logs what the
 * "task" sees.
 *
 * @internal
 */

import type { Clock } from "../../util/clock.ts";
import type { CancelCheckpointMarker, CheckpointBarrier, CheckpointingMode } from "../types.ts";
import type { BarrierDecision, CheckpointBarrierHandler } from "./barrier-handler.ts";
import { createBarrierHandler } from "./create-barrier-handler.ts";

/** A data record on a test channel. */
export interface TestRecord {
  readonly kind: "record";
  readonly value: string;
}

/** End-of-input on a test channel. */
export interface TestEnd {
  readonly kind: "end";
}

/** What a test channel carries. */
export type TestElement = TestRecord | CheckpointBarrier | CancelCheckpointMarker | TestEnd;

/** A record with value `value`. */
export const rec = (value: string): TestRecord => ({ kind: "record", value });
/** Barrier of checkpoint `id`. */
export const barrier = (id: number): CheckpointBarrier => ({ kind: "barrier", id, timestamp: id * 1000 });
/** Cancel marker of checkpoint `id`. */
export const cancel = (id: number): CancelCheckpointMarker => ({ kind: "cancel", id });
/** End-of-input. */
export const END: TestEnd = { kind: "end" };

/** Hooks run when the gate carries out a decision of the handler, after logging. */
export interface TestGateHooks {
  triggerCheckpoint?(barrier: CheckpointBarrier, alignmentMs: number): void;
  abortCheckpoint?(id: number, reason: string): void;
}

/** Options of a `TestGate`. */
export interface TestGateOptions {
  /** Chooses the next channel among the readable ones (ascending); default round-robin. */
  pick?: (readable: readonly number[]) => number;
  hooks?: TestGateHooks;
}

/**
 * The gate. `log` holds, in order, record values, `T<id>` for each trigger,
 * `A<id>` for each abort the handler decided and `X<id>` for each abort by the
 * coordinator (`abortByCoordinator`).
 */
export class TestGate {
  readonly handler: CheckpointBarrierHandler;
  readonly log: string[] = [];
  readonly triggers: { id: number; alignmentMs: number }[] = [];
  readonly aborts: { id: number; reason: string }[] = [];
  /** Records consumed so far, per channel. */
  readonly consumed: number[];
  private readonly queues: TestElement[][];
  private readonly pick: (readable: readonly number[]) => number;
  private readonly hooks: TestGateHooks;
  private nextChannel = 0;

  constructor(mode: CheckpointingMode, numChannels: number, clock: Clock, options: TestGateOptions = {}) {
    this.queues = Array.from({ length: numChannels }, () => []);
    this.consumed = new Array<number>(numChannels).fill(0);
    this.pick = options.pick ?? ((readable) => this.roundRobin(readable));
    this.hooks = options.hooks ?? {};
    this.handler = createBarrierHandler(mode, numChannels, clock);
  }

  /** The coordinator aborted checkpoint `id`: tells the handler, logs `X<id>`. */
  abortByCoordinator(id: number): this {
    this.log.push(`X${id}`);
    this.handler.checkpointAborted(id);
    return this;
  }

  /** Appends elements to `channel`'s queue. */
  push(channel: number, ...elements: TestElement[]): this {
    this.queues[channel]!.push(...elements);
    return this;
  }

  /** Channels with something queued that the handler does not block, ascending. */
  readable(): number[] {
    const result: number[] = [];
    for (let c = 0; c < this.queues.length; c++) {
      if (this.queues[c]!.length > 0 && !this.handler.isBlocked(c)) result.push(c);
    }
    return result;
  }

  /** Channels the handler blocks now, ascending. */
  blocked(): number[] {
    return this.queues.map((_, c) => c).filter((c) => this.handler.isBlocked(c));
  }

  /** Elements still queued on `channel`. */
  queued(channel: number): number {
    return this.queues[channel]!.length;
  }

  /** Reads one element; false if no channel is readable. */
  step(): boolean {
    const readable = this.readable();
    if (readable.length === 0) return false;
    const channel = this.pick(readable);
    const element = this.queues[channel]!.shift()!;
    switch (element.kind) {
      case "record":
        this.consumed[channel]!++;
        this.log.push(element.value);
        break;
      case "barrier":
        this.carryOut(this.handler.processBarrier(channel, element));
        break;
      case "cancel":
        this.carryOut(this.handler.processCancel(channel, element));
        break;
      case "end":
        this.carryOut(this.handler.processEndOfInput(channel));
        break;
    }
    return true;
  }

  /** Logs a decision of the handler and runs the hooks. */
  private carryOut(decision: BarrierDecision): void {
    for (const action of decision) {
      if (action.kind === "trigger") {
        this.log.push(`T${action.barrier.id}`);
        this.triggers.push({ id: action.barrier.id, alignmentMs: action.alignmentMs });
        this.hooks.triggerCheckpoint?.(action.barrier, action.alignmentMs);
      } else {
        this.log.push(`A${action.id}`);
        this.aborts.push({ id: action.id, reason: action.reason });
        this.hooks.abortCheckpoint?.(action.id, action.reason);
      }
    }
  }

  /** Reads until no channel is readable. */
  drain(): this {
    while (this.step());
    return this;
  }

  private roundRobin(readable: readonly number[]): number {
    const channel = readable.find((c) => c >= this.nextChannel) ?? readable[0]!;
    this.nextChannel = (channel + 1) % this.queues.length;
    return channel;
  }
}
