/**
 * Keyed timers (Flink's InternalTimerService): a user function registers an
 * event-time or processing-time timer for the current key (and an optional
 * namespace, e.g. a window); event-time timers fire when the watermark passes
 * them, processing-time timers when the clock does, in timestamp order, with
 * the timer's key set as the current key. Timers are keyed state: they are
 * checkpointed, restored and redistributed by key group with the rest of the
 * state; the in-memory queues are rebuilt from that state on restore.
 */
import type { HeapKeyedStateBackend, MapState } from "../state/index.ts";
import { MapStateDescriptor } from "../state/index.ts";
import type { ProcessingTimeService } from "./processing-time-service.ts";
import { TimerHeap } from "./timer-heap.ts";

import type { TimeDomain } from "../core/process-function.ts";

/** Called for a due timer, with its key already set as the current key. */
export type TimerCallback = (timestamp: number, key: unknown, namespace: string, domain: TimeDomain) => void;

/**
 * The timers of one key, as stored in keyed map state: namespace → its timestamps.
 * Keyed by the namespace string itself (a window id the operator already holds), so a
 * lookup does not build and hash a new string.
 */
type StoredTimers = MapState<string, number[]>;

export class KeyedTimerService {
  private readonly eventState: StoredTimers;
  private readonly procState: StoredTimers;
  private readonly eventQueue = new TimerHeap();
  private readonly procQueue = new TimerHeap();
  private watermark = Number.NEGATIVE_INFINITY;
  private scheduledFor = Number.POSITIVE_INFINITY;
  private firing = false;

  /** @param name distinguishes the timer states of several services in one operator */
  constructor(
    private readonly backend: HeapKeyedStateBackend,
    private readonly time: ProcessingTimeService,
    private readonly onTimer: TimerCallback,
    private readonly name = "timers",
  ) {
    this.eventState = backend.getMapState(new MapStateDescriptor<string, number[]>(`_${name}:event`));
    this.procState = backend.getMapState(new MapStateDescriptor<string, number[]>(`_${name}:processing`));
  }

  /** The last watermark the operator received. */
  currentWatermark(): number {
    return this.watermark;
  }

  currentProcessingTime(): number {
    return this.time.now();
  }

  /** Fires `onTimer` for the current key when the watermark reaches `timestamp`. Registering twice is a no-op. */
  registerEventTimeTimer(timestamp: number, namespace = ""): void {
    if (this.add(this.eventState, timestamp, namespace)) this.eventQueue.push({ timestamp, key: this.backend.getCurrentKey(), namespace });
  }

  deleteEventTimeTimer(timestamp: number, namespace = ""): void {
    this.remove(this.eventState, timestamp, namespace);
  }

  /** Fires `onTimer` for the current key when processing time reaches `timestamp`. */
  registerProcessingTimeTimer(timestamp: number, namespace = ""): void {
    if (!this.add(this.procState, timestamp, namespace)) return;
    this.procQueue.push({ timestamp, key: this.backend.getCurrentKey(), namespace });
    this.schedule();
  }

  deleteProcessingTimeTimer(timestamp: number, namespace = ""): void {
    this.remove(this.procState, timestamp, namespace);
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
        for (const [namespace, timestamps] of timers as Map<string, number[]>)
          for (const timestamp of timestamps) queue.push({ timestamp, key, namespace });
    }
    this.schedule();
  }

  /** Timers registered and not yet fired or deleted (metrics, tests). */
  numTimers(): number {
    let n = 0;
    for (const state of [`_${this.name}:event`, `_${this.name}:processing`])
      for (const [, timers] of this.backend.entriesOf(state)) for (const ts of (timers as Map<string, number[]>).values()) n += ts.length;
    return n;
  }

  private fire(queue: TimerHeap, state: StoredTimers, upTo: number, domain: TimeDomain): void {
    if (this.firing) return; // a timer registered by onTimer at or below `upTo` fires in this same loop
    this.firing = true;
    try {
      for (let t = queue.peek(); t !== undefined && t.timestamp <= upTo; t = queue.peek()) {
        queue.pop();
        this.backend.setCurrentKey(t.key);
        if (this.remove(state, t.timestamp, t.namespace)) this.onTimer(t.timestamp, t.key, t.namespace, domain);
      }
    } finally {
      this.firing = false;
    }
  }

  private schedule(): void {
    const next = this.procQueue.peek()?.timestamp;
    if (next === undefined || next >= this.scheduledFor) return;
    this.scheduledFor = next;
    this.time.scheduleAt(next, () => {
      this.scheduledFor = Number.POSITIVE_INFINITY;
      this.fire(this.procQueue, this.procState, this.time.now(), "processing-time");
      this.schedule();
    });
  }

  /** Adds the timer to the current key's state; false if it was there. */
  private add(state: StoredTimers, timestamp: number, namespace: string): boolean {
    const timestamps = state.get(namespace);
    if (timestamps?.includes(timestamp)) return false;
    state.put(namespace, timestamps ? [...timestamps, timestamp] : [timestamp]);
    return true;
  }

  /** Removes the timer from the current key's state; false if it was not there. */
  private remove(state: StoredTimers, timestamp: number, namespace: string): boolean {
    const timestamps = state.get(namespace);
    if (!timestamps?.includes(timestamp)) return false;
    if (timestamps.length === 1) state.remove(namespace);
    else state.put(namespace, timestamps.filter((t) => t !== timestamp));
    return true;
  }
}
