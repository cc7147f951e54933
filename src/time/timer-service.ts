/**
 * Keyed timers (Flink's InternalTimerService): a user function registers an
 * event-time or processing-time timer for the current key (and an optional
 * namespace, e.g. a window); event-time timers fire when the watermark passes
 * them, processing-time timers when the clock does, in timestamp order, with
 * the timer's key set as the current key. Timers are keyed state: they are
 * checkpointed, restored and redistributed by key group with the rest of the
 * state; the in-memory queues are rebuilt from that state on restore.
 */
import type { EngineKeyedState, KeyedStateBackend } from "../state/index.ts";
import type { ProcessingTimeService } from "./processing-time-service.ts";
import { TimerQueue, type TimerNamespace } from "./timer-queue.ts";

import type { TimeDomain } from "../core/process-function.ts";

export type { TimerNamespace } from "./timer-queue.ts";

/** Called for a due timer, with its key already set as the current key. */
export type TimerCallback = (timestamp: number, key: unknown, namespace: TimerNamespace, domain: TimeDomain) => void;

/**
 * The timers of one key: namespace → its timestamps. Engine-owned keyed state
 * (no copies on access): the lists are changed in place.
 */
type KeyTimers = Map<TimerNamespace, number[]>;

export class KeyedTimerService {
  private readonly eventState: EngineKeyedState<KeyTimers>;
  private readonly procState: EngineKeyedState<KeyTimers>;
  private readonly eventQueue = new TimerQueue();
  private readonly procQueue = new TimerQueue();
  private watermark = Number.NEGATIVE_INFINITY;
  private scheduledFor = Number.POSITIVE_INFINITY;
  private firing = false;

  /** @param name distinguishes the timer states of several services in one operator */
  constructor(
    private readonly backend: KeyedStateBackend,
    private readonly time: ProcessingTimeService,
    private readonly onTimer: TimerCallback,
    private readonly name = "timers",
  ) {
    this.eventState = backend.getEngineState(`_${name}:event`);
    this.procState = backend.getEngineState(`_${name}:processing`);
  }

  /** The last watermark the operator received. */
  currentWatermark(): number {
    return this.watermark;
  }

  currentProcessingTime(): number {
    return this.time.now();
  }

  /** Fires `onTimer` for the current key when the watermark reaches `timestamp`. Registering twice is a no-op. */
  registerEventTimeTimer(timestamp: number, namespace: TimerNamespace = ""): void {
    if (add(this.eventState, timestamp, namespace)) this.eventQueue.push(timestamp, this.backend.getCurrentKey(), namespace);
  }

  deleteEventTimeTimer(timestamp: number, namespace: TimerNamespace = ""): void {
    remove(this.eventState, timestamp, namespace);
  }

  /** Fires `onTimer` for the current key when processing time reaches `timestamp`. */
  registerProcessingTimeTimer(timestamp: number, namespace: TimerNamespace = ""): void {
    if (!add(this.procState, timestamp, namespace)) return;
    this.procQueue.push(timestamp, this.backend.getCurrentKey(), namespace);
    this.schedule();
  }

  deleteProcessingTimeTimer(timestamp: number, namespace: TimerNamespace = ""): void {
    remove(this.procState, timestamp, namespace);
  }

  /** Fires every event-time timer at or below `watermark`, in order. */
  advanceWatermark(watermark: number): void {
    this.watermark = watermark;
    this.fire(this.eventQueue, this.eventState, watermark, "event-time");
  }

  /** Rebuilds the queues from the restored keyed state (call after the backend restored). */
  restore(): void {
    for (const [state, queue] of [
      [`_${this.name}:event`, this.eventQueue],
      [`_${this.name}:processing`, this.procQueue],
    ] as const) {
      for (const [key, timers] of this.backend.entriesOf(state))
        for (const [namespace, timestamps] of timers as KeyTimers) for (const timestamp of timestamps) queue.push(timestamp, key, namespace);
    }
    this.schedule();
  }

  /** Timers registered and not yet fired or deleted (metrics, tests). */
  numTimers(): number {
    let n = 0;
    for (const state of [`_${this.name}:event`, `_${this.name}:processing`])
      for (const [, timers] of this.backend.entriesOf(state)) for (const ts of (timers as KeyTimers).values()) n += ts.length;
    return n;
  }

  private fire(queue: TimerQueue, state: EngineKeyedState<KeyTimers>, upTo: number, domain: TimeDomain): void {
    if (this.firing) return; // a timer registered by onTimer at or below `upTo` fires in this same loop
    this.firing = true;
    try {
      for (let next = queue.nextTimestamp(); next !== undefined && next <= upTo; next = queue.nextTimestamp()) {
        const timestamp = queue.pop();
        const { key, namespace } = queue;
        this.backend.setCurrentKey(key);
        if (remove(state, timestamp, namespace)) this.onTimer(timestamp, key, namespace, domain);
      }
    } finally {
      this.firing = false;
    }
  }

  private schedule(): void {
    const next = this.procQueue.nextTimestamp();
    if (next === undefined || next >= this.scheduledFor) return;
    this.scheduledFor = next;
    this.time.scheduleAt(next, () => {
      this.scheduledFor = Number.POSITIVE_INFINITY;
      this.fire(this.procQueue, this.procState, this.time.now(), "processing-time");
      this.schedule();
    });
  }
}

/** Adds the timer to the current key's state; false if it was there. */
function add(state: EngineKeyedState<KeyTimers>, timestamp: number, namespace: TimerNamespace): boolean {
  const timers = state.getOwned();
  if (timers === undefined) {
    state.set(new Map([[namespace, [timestamp]]]));
    return true;
  }
  const timestamps = timers.get(namespace);
  if (timestamps === undefined) timers.set(namespace, [timestamp]);
  else if (timestamps.includes(timestamp)) return false;
  else timestamps.push(timestamp);
  return true;
}

/** Removes the timer from the current key's state; false if it was not there. */
function remove(state: EngineKeyedState<KeyTimers>, timestamp: number, namespace: TimerNamespace): boolean {
  const timers = state.getOwned();
  const timestamps = timers?.get(namespace);
  if (timestamps === undefined) return false;
  if (timestamps.length > 1) {
    const at = timestamps.indexOf(timestamp);
    if (at < 0) return false;
    timestamps.splice(at, 1);
  } else if (timestamps[0] !== timestamp) return false;
  else if (timers!.size > 1) timers!.delete(namespace);
  else state.set(undefined);
  return true;
}
