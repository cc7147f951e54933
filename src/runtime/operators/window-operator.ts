/**
 * The window operator (Flink's WindowOperator / EvictingWindowOperator): assigns
 * each record of a key to windows, keeps their contents in keyed state, asks the
 * trigger when to fire and purge, and removes a window's state and timers once
 * it can no longer change (at its end plus the allowed lateness). Records whose
 * windows are all past that point are late: sent to the late-data side output,
 * or dropped and counted. Session windows (merging assigners) merge their
 * contents, trigger state and timers.
 *
 * Hot path. Tumbling and sliding windows (one size) are named by their start
 * in state and timers, and a record is placed by computing those numbers: no
 * window object or id string per record. A window's cleanup timer is
 * registered once, when its contents are created. With event time and the
 * default EventTimeTrigger, the operator does what the trigger would do
 * without calling it per record: one timer per window at its end (the same
 * timer as the cleanup without allowed lateness), an immediate firing for a
 * record in a window the watermark already passed.
 */
import type { Counter } from "../../metrics/counter.ts";
import type { KeySelector } from "../../graph/stream-graph.ts";
import type { TimeDomain } from "../../core/process-function.ts";
import type { KeyedStateBackend, ReducingStateDescriptor, ValueState } from "../../state/index.ts";
import { ValueStateDescriptor } from "../../state/index.ts";
import { KeyedTimerService } from "../../time/timer-service.ts";
import { getLogger } from "../../util/logger.ts";
import { EventTimeTrigger } from "../../time/windows/event-time-trigger.ts";
import type { Evictor, EvictorContext } from "../../time/windows/evictor.ts";
import { MergingWindowSet, type MergeFunction } from "../../time/windows/merging-window-set.ts";
import { TimeWindowAssigner } from "../../time/windows/time-window-assigner.ts";
import { isFire, isPurge, TriggerResult, type OnMergeContext, type Trigger } from "../../time/windows/trigger.ts";
import type { Window } from "../../time/windows/window.ts";
import { isMergingAssigner, type MergingWindowAssigner, type WindowAssigner, type WindowAssignerContext } from "../../time/windows/window-assigner.ts";
import { WindowEndQueue } from "../../time/windows/window-end-queue.ts";
import { ListWindowContents, type WindowContents, type WindowContentsFactory } from "../../time/windows/window-contents.ts";
import { MissingWindowTimestampError, WindowMergeError } from "../../time/windows/window-errors.ts";
import type { InternalWindowFunction, ProcessWindowContext } from "../../time/windows/window-functions.ts";
import { FixedSizeWindows, windowIds, type WindowNamespace, type WindowNamespaces } from "../../time/windows/window-namespaces.ts";
import { WindowScopedState } from "../../time/windows/window-scoped-state.ts";
import { NO_TIMESTAMP } from "../elements.ts";
import type { OperatorContext, Output } from "./stream-operator.ts";
import { runtimeContextOf, UdfOperator } from "./udf-operator.ts";

/** Everything a window operator is built from (by WindowedStream). */
export interface WindowOperatorSpec<IN, OUT, W extends Window> {
  readonly assigner: WindowAssigner<IN, W>;
  readonly trigger: Trigger<IN, W>;
  readonly evictor?: Evictor<IN, W>;
  /** Ms after a window's end during which late records still update (and re-fire) it. */
  readonly allowedLateness: number;
  /** Side output id for records later than that; undefined: drop and count them. */
  readonly lateDataTag?: string;
  /** Creates the contents store on the operator's keyed state (must be a list store with an evictor). */
  readonly contents: WindowContentsFactory<IN>;
  readonly fn: InternalWindowFunction<unknown, OUT, unknown, W>;
}

/** Names of the operator's metrics (operator scope, e.g. in `JobClient.getMetrics()`). */
export const WINDOW_METRICS = { lateDropped: "numLateRecordsDropped", inWindows: "numRecordsInWindows" } as const;
const LATE_DROPPED = WINDOW_METRICS.lateDropped;
/** Whole milliseconds up to this size are placed in windows by a floor division (as `floorRemainder`). */
const EXACT_MS = 2 ** 52;
const IN_WINDOWS = WINDOW_METRICS.inWindows;

export class WindowOperator<IN, OUT, W extends Window> extends UdfOperator<IN, OUT, unknown> {
  private key!: KeySelector;
  private backend!: KeyedStateBackend;
  private lateDropped!: Counter;
  private inWindows!: Counter;
  private currentKey: unknown;
  private timers!: KeyedTimerService;
  private contents!: WindowContents<IN>;
  private triggerState!: WindowScopedState;
  private windowState!: WindowScopedState;
  private mergingState?: ValueState<[string, string][]>;
  private readonly merging: MergingWindowAssigner<IN, W> | undefined;
  private readonly eventTime: boolean;
  /** Tumbling and sliding windows: a window is its start, and records are placed by number. */
  private readonly fixed: TimeWindowAssigner | undefined;
  private readonly namespaces: WindowNamespaces<W>;
  /** Event-time tumbling/sliding windows with the EventTimeTrigger: the operator does what the trigger would. */
  private readonly builtInTrigger: boolean;
  /**
   * With the built-in trigger, no allowed lateness and no evictor, a window has one timer, at its end, from
   * its first record to its removal: implied by its contents, queued here and not kept as timer state
   * (rebuilt from the contents on restore).
   */
  private readonly windowEnds: WindowEndQueue | undefined;
  private readonly lateness: number;
  /** The window the trigger and process contexts refer to, its namespace, and (during onMerge) the namespaces merged into it. */
  private window!: W;
  private ns: WindowNamespace = "";
  private mergedNamespaces: WindowNamespace[] = [];
  private triggerCtx!: OnMergeContext;
  private processCtx!: ProcessWindowContext<W>;
  private evictorCtx!: EvictorContext;
  private assignerCtx!: WindowAssignerContext;
  /** The session set of the current key, loaded for one record or timer (undefined for non-merging assigners). */
  private activeSet: MergingWindowSet<W> | undefined;
  private readonly mergeFn: MergeFunction<W> = (result, merged, stateResult, mergedState) => this.mergeWindows(result, merged, stateResult, mergedState);

  constructor(private readonly spec: WindowOperatorSpec<IN, OUT, W>) {
    super(spec.fn.udf ?? {}); // reduce/aggregate without a window function have no user function with a lifecycle
    this.merging = isMergingAssigner(spec.assigner) ? spec.assigner : undefined;
    this.eventTime = spec.assigner.isEventTime();
    const assigner: unknown = spec.assigner;
    this.fixed = assigner instanceof TimeWindowAssigner ? assigner : undefined;
    this.namespaces = (this.fixed ? new FixedSizeWindows(this.fixed.size) : windowIds) as unknown as WindowNamespaces<W>;
    this.builtInTrigger = this.eventTime && this.fixed !== undefined && spec.trigger instanceof EventTimeTrigger;
    this.lateness = spec.allowedLateness;
    this.windowEnds = this.builtInTrigger && this.lateness === 0 && !spec.evictor ? new WindowEndQueue() : undefined;
  }

  override async open(ctx: OperatorContext, output: Output<OUT>): Promise<void> {
    if (!ctx.keyedState || !ctx.keySelector) throw new Error(`window operator '${ctx.operatorUid}' needs a keyed input`);
    if (this.merging && !this.spec.trigger.canMerge())
      throw new Error(`window operator '${ctx.operatorUid}': trigger ${this.spec.trigger.toString()} cannot be used with merging windows (${this.spec.assigner.toString()})`);
    const backend = ctx.keyedState;
    this.backend = backend;
    this.key = ctx.keySelector;
    this.contents = this.spec.contents(backend, ctx.operatorUid);
    if (this.spec.evictor && !(this.contents instanceof ListWindowContents)) throw new Error(`window operator '${ctx.operatorUid}': an evictor needs all records kept`);
    this.triggerState = new WindowScopedState(backend, "_trigger-state");
    this.windowState = new WindowScopedState(backend, "_window-state");
    if (this.merging) this.mergingState = backend.getState(new ValueStateDescriptor<[string, string][]>("_merging-windows"));
    this.timers = new KeyedTimerService(backend, ctx.processingTime, (ts, key, ns, domain) => this.onTimer(ts, key, ns, domain), "window-timers");
    this.timers.restore();
    const fixed = this.fixed;
    if (this.windowEnds && fixed) this.contents.forEachWindow((key, start) => this.windowEnds!.push((start as number) + fixed.size - 1, key));
    this.lateDropped = ctx.metricGroup.counter(LATE_DROPPED);
    this.inWindows = ctx.metricGroup.counter(IN_WINDOWS);
    this.inWindows.count = this.contents.totalSize();
    this.createContexts(ctx, output);
    await super.open(ctx, output);
  }

  processElement(value: IN): void {
    const key = this.key(value);
    this.backend.setCurrentKey(key);
    this.currentKey = key;
    const timestamp = this.ctx.element.timestamp;
    if (this.eventTime && timestamp === NO_TIMESTAMP) throw new MissingWindowTimestampError(this.ctx.operatorUid, this.spec.assigner.toString());
    const accepted = this.fixed ? this.addToFixedWindows(value, this.fixed) : this.addToWindows(value, timestamp);
    if (!accepted && this.isElementLate(timestamp)) {
      this.ctx.element.timestamp = timestamp;
      if (this.spec.lateDataTag !== undefined) this.out.collectSide(this.spec.lateDataTag, value);
      else this.dropLate(timestamp);
    }
  }

  /** A late record without a late-data side output: counted, and the first one said once (a silent drop hides lost data). */
  private dropLate(timestamp: number): void {
    if (this.lateDropped.count++ > 0) return;
    const { operatorUid, subtaskIndex, parallelism } = this.ctx;
    getLogger().warn(
      `window operator '${operatorUid}' (subtask ${subtaskIndex + 1}/${parallelism}) dropped a late record: its timestamp ${timestamp} ` +
        `(allowed lateness ${this.lateness} ms) is not after the watermark ${this.timers.currentWatermark()}; further late records are dropped ` +
        `without a message and counted in ${LATE_DROPPED} (sideOutputLateData keeps them)`,
    );
  }

  processWatermark(timestamp: number): void {
    this.timers.advanceWatermark(timestamp);
    if (this.windowEnds) this.fireWindowEnds(this.windowEnds, timestamp);
    this.out.emitWatermark(timestamp);
  }

  override snapshotState(checkpointId: number): void {
    this.contents.beforeSnapshot();
    super.snapshotState(checkpointId);
  }

  /**
   * Tumbling and sliding windows: the record's windows by their starts, stepped through (latest first), passed
   * to the contents in `contents.at` (not boxed per window; the record's timestamp is read here, not passed, for
   * the same reason). Returns false if every one was late.
   */
  private addToFixedWindows(value: IN, fixed: TimeWindowAssigner): boolean {
    const timestamp = this.ctx.element.timestamp;
    const time = this.eventTime ? timestamp : this.ctx.processingTime.now();
    const { size, slide, offset } = fixed;
    const last = size - 1;
    const watermark = this.timers.currentWatermark();
    const at = this.contents.at;
    at[1] = timestamp;
    let added = 0;
    // windowStartWithOffset(time, offset, slide) with floorRemainder's arithmetic (time/windows/window.ts), written
    // out here: a number returned by a call that is not inlined is boxed, and so would then be every start stepped
    // from it (calling it here cost q7 about a quarter more CPU per event in alternating runs)
    const x = time - offset;
    let remainder: number;
    if (x === Math.floor(x) && Math.abs(x) <= EXACT_MS) {
      remainder = x - Math.floor(x / slide) * slide;
      if (remainder < 0) remainder += slide;
      else if (remainder >= slide) remainder -= slide;
    } else {
      remainder = x % slide;
      if (remainder < 0) remainder += slide;
    }
    for (let start = time - remainder; start > time - size; start -= slide) {
      const maxTimestamp = start + last;
      const cleanup = this.cleanupTimeOf(maxTimestamp);
      if (this.eventTime && cleanup <= watermark) continue;
      at[0] = start;
      const created = this.contents.addAt(value, start - slide > time - size);
      added++;
      if (created) {
        if (this.windowEnds) this.windowEnds.push(maxTimestamp, this.currentKey);
        else this.registerCleanupTimer(cleanup, start);
      }
      if (this.builtInTrigger) {
        // EventTimeTrigger.onElement: fire now if the watermark passed the window's end, else a timer at the
        // end, registered with the contents (without allowed lateness it is the cleanup timer)
        if (maxTimestamp <= watermark) this.fire(this.namespaces.windowOf(start), start, start);
        else if (created && cleanup !== maxTimestamp) this.timers.registerEventTimeTimer(maxTimestamp, start);
      } else {
        const window = this.namespaces.windowOf(start);
        this.setTriggerWindow(window, start);
        this.react(this.spec.trigger.onElement(value, timestamp, window, this.triggerCtx), window, start, start);
      }
    }
    this.inWindows.count += added;
    return added > 0;
  }

  /** Any other assigner (sessions, global, user assigners): window objects named by their ids. */
  private addToWindows(value: IN, timestamp: number): boolean {
    const windows = this.spec.assigner.assignWindows(value, timestamp, this.assignerCtx);
    const set = this.loadMergingSet();
    let accepted = false;
    for (let i = 0; i < windows.length; i++) {
      const assigned = windows[i]!;
      const window = set ? set.addWindow(assigned, this.mergeFn) : assigned;
      if (this.isWindowLate(window)) {
        set?.retireWindow(window);
        continue;
      }
      accepted = true;
      const stateWindow = set ? set.getStateWindow(window) : window;
      if (!stateWindow) throw new Error(`window operator '${this.ctx.operatorUid}': window ${String(window)} is not in the in-flight window set`);
      const ns = this.namespaces.namespaceOf(window);
      const sns = set ? this.namespaces.namespaceOf(stateWindow) : ns;
      const created = this.contents.add(sns, value, timestamp, i < windows.length - 1);
      this.inWindows.count++;
      this.setTriggerWindow(window, ns);
      this.react(this.spec.trigger.onElement(value, timestamp, window, this.triggerCtx), window, ns, sns);
      if (created || set) this.registerCleanupTimer(this.cleanupTimeOf(window.maxTimestamp()), ns); // merging may move a window's end
    }
    set?.persist();
    return accepted;
  }

  private onTimer(time: number, key: unknown, ns: WindowNamespace, domain: TimeDomain): void {
    this.currentKey = key;
    if (this.builtInTrigger) return this.onBuiltInTimer(time, ns as number);
    const window = this.namespaces.windowOf(ns);
    const set = this.loadMergingSet();
    const stateWindow = set ? set.getStateWindow(window) : window;
    if (!stateWindow) return; // a timer of a window merged away whose trigger did not delete it
    const sns = set ? this.namespaces.namespaceOf(stateWindow) : ns;
    this.setTriggerWindow(window, ns);
    const result =
      domain === "event-time"
        ? this.spec.trigger.onEventTime(time, window, this.triggerCtx)
        : this.spec.trigger.onProcessingTime(time, window, this.triggerCtx);
    this.react(result, window, ns, sns);
    if ((domain === "event-time") === this.eventTime && time === this.cleanupTimeOf(window.maxTimestamp())) this.clearAllState(window, ns, sns);
    set?.persist();
  }

  /** Fires and removes the windows (with their timers implied) whose end the watermark reached. */
  private fireWindowEnds(queue: WindowEndQueue, watermark: number): void {
    const size = this.fixed!.size;
    for (let end = queue.nextEnd(); end !== undefined && end <= watermark; end = queue.nextEnd()) {
      const { keys } = queue.pop();
      const start = end - size + 1;
      const window = this.namespaces.windowOf(start);
      const at = this.contents.at;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        this.backend.setCurrentKey(key);
        this.currentKey = key;
        // fire and remove at once: the contents are taken out of the window, not copied
        at[0] = start;
        this.inWindows.count -= this.contents.sizeAt();
        const contents = this.contents.takeAt();
        if (contents !== undefined) this.emit(window, start, contents);
        this.clearWindowState(window, start);
      }
    }
  }

  /** With the built-in trigger: a window fires at its end and is removed at its cleanup time (both at once without allowed lateness). */
  private onBuiltInTimer(time: number, start: number): void {
    const window = this.namespaces.windowOf(start);
    const maxTimestamp = window.maxTimestamp();
    if (time === maxTimestamp) this.fire(window, start, start);
    if (time === this.cleanupTimeOf(maxTimestamp)) this.clearAllState(window, start, start);
  }

  /** Fires and/or purges as the trigger said. */
  private react(result: TriggerResult, window: W, ns: WindowNamespace, sns: WindowNamespace): void {
    if (isFire(result)) this.fire(window, ns, sns);
    if (isPurge(result)) this.clearContents(sns);
  }

  /** Emits the window's result (window `ns`, contents in `sns`). */
  private fire(window: W, ns: WindowNamespace, sns: WindowNamespace): void {
    if (this.spec.evictor) return this.fireEvicting(window, ns, sns, this.spec.evictor);
    const contents = this.contents.get(sns);
    if (contents !== undefined) this.emit(window, ns, contents);
  }

  private fireEvicting(window: W, ns: WindowNamespace, sns: WindowNamespace, evictor: Evictor<IN, W>): void {
    const list = this.contents as ListWindowContents<IN>;
    const all = list.elements(sns);
    if (all.length === 0) return;
    const kept = evictor.evictBefore(all, window, this.evictorCtx);
    this.emit(window, ns, kept.map((e) => e.value));
    const after = evictor.evictAfter(kept, window, this.evictorCtx);
    list.replace(sns, after);
    this.inWindows.count += after.length - all.length;
  }

  private emit(window: W, ns: WindowNamespace, contents: unknown[]): void {
    this.ctx.element.timestamp = window.maxTimestamp();
    this.window = window;
    this.ns = ns;
    this.windowState.setWindow(ns);
    this.spec.fn.process(this.currentKey, this.processCtx, contents, this.out);
  }

  private clearContents(sns: WindowNamespace): void {
    this.inWindows.count -= this.contents.size(sns);
    this.contents.clear(sns);
  }

  /** The window can no longer change: remove its contents, trigger and window state, and its place in the session set. */
  private clearAllState(window: W, ns: WindowNamespace, sns: WindowNamespace): void {
    this.clearContents(sns);
    this.setTriggerWindow(window, ns);
    // the built-in trigger's one timer fired before (at the window's end, never after its cleanup time)
    if (!this.builtInTrigger) this.spec.trigger.clear(window, this.triggerCtx);
    this.clearWindowState(window, ns);
    this.activeSet?.retireWindow(window);
  }

  /** Removes the trigger and window state of window `ns` (the function's `clear` first). */
  private clearWindowState(window: W, ns: WindowNamespace): void {
    this.triggerState.clearWindow(ns);
    this.window = window;
    this.ns = ns;
    this.windowState.setWindow(ns);
    this.spec.fn.clear(this.processCtx);
    this.windowState.clearWindow(ns);
  }

  private mergeWindows(mergeResult: W, mergedWindows: W[], stateWindowResult: W, mergedStateWindows: W[]): void {
    if (this.eventTime ? this.cleanupTimeOf(mergeResult.maxTimestamp()) <= this.timers.currentWatermark() : mergeResult.maxTimestamp() <= this.ctx.processingTime.now())
      throw new WindowMergeError(this.ctx.operatorUid, `the end of a window cannot become earlier than the current time by merging (window ${String(mergeResult)})`);
    const names = this.namespaces;
    this.setTriggerWindow(mergeResult, names.namespaceOf(mergeResult));
    this.mergedNamespaces = mergedWindows.map((w) => names.namespaceOf(w));
    this.spec.trigger.onMerge(mergeResult, this.triggerCtx);
    this.mergedNamespaces = [];
    for (const m of mergedWindows) {
      const ns = names.namespaceOf(m);
      this.setTriggerWindow(m, ns);
      this.spec.trigger.clear(m, this.triggerCtx);
      this.triggerState.clearWindow(ns);
      this.deleteCleanupTimer(this.cleanupTimeOf(m.maxTimestamp()), ns);
    }
    this.contents.merge(
      names.namespaceOf(stateWindowResult),
      mergedStateWindows.map((w) => names.namespaceOf(w)),
    );
  }

  private loadMergingSet(): MergingWindowSet<W> | undefined {
    this.activeSet = this.merging ? new MergingWindowSet(this.merging as MergingWindowAssigner<unknown, W>, this.mergingState!) : undefined;
    return this.activeSet;
  }

  private setTriggerWindow(window: W, ns: WindowNamespace): void {
    this.window = window;
    this.ns = ns;
    this.triggerState.setWindow(ns);
  }

  /** When a window ending at `maxTimestamp` is removed: its end plus the allowed lateness (event time), its end (processing time). */
  private cleanupTimeOf(maxTimestamp: number): number {
    return this.eventTime ? Math.min(maxTimestamp + this.lateness, Number.MAX_SAFE_INTEGER) : maxTimestamp;
  }

  private registerCleanupTimer(time: number, ns: WindowNamespace): void {
    if (time >= Number.MAX_SAFE_INTEGER) return; // the global window is never cleaned up
    if (this.eventTime) this.timers.registerEventTimeTimer(time, ns);
    else this.timers.registerProcessingTimeTimer(time, ns);
  }

  private deleteCleanupTimer(time: number, ns: WindowNamespace): void {
    if (this.eventTime) this.timers.deleteEventTimeTimer(time, ns);
    else this.timers.deleteProcessingTimeTimer(time, ns);
  }

  private isWindowLate(window: W): boolean {
    return this.eventTime && this.cleanupTimeOf(window.maxTimestamp()) <= this.timers.currentWatermark();
  }

  private isElementLate(timestamp: number): boolean {
    return this.eventTime && timestamp + this.lateness <= this.timers.currentWatermark();
  }

  private createContexts(ctx: OperatorContext, output: Output<OUT>): void {
    const timers = this.timers;
    const triggerState = this.triggerState;
    const now = () => ctx.processingTime.now();
    const watermark = () => timers.currentWatermark();
    this.triggerCtx = {
      getCurrentProcessingTime: now,
      getCurrentWatermark: watermark,
      registerEventTimeTimer: (t) => timers.registerEventTimeTimer(t, this.ns),
      registerProcessingTimeTimer: (t) => timers.registerProcessingTimeTimer(t, this.ns),
      deleteEventTimeTimer: (t) => timers.deleteEventTimeTimer(t, this.ns),
      deleteProcessingTimeTimer: (t) => timers.deleteProcessingTimeTimer(t, this.ns),
      getPartitionedState: (d) => triggerState.getPartitionedState(d),
      getReducingState: (d) => triggerState.getReducingState(d),
      mergePartitionedState: <T>(d: ReducingStateDescriptor<T>) => triggerState.mergeReducing(d, this.mergedNamespaces),
    };
    this.evictorCtx = { getCurrentProcessingTime: now, getCurrentWatermark: watermark };
    this.assignerCtx = { currentProcessingTime: now };
    const global = runtimeContextOf(ctx);
    this.processCtx = {
      window: () => this.window,
      currentProcessingTime: now,
      currentWatermark: watermark,
      windowState: () => {
        if (this.merging) throw new Error(`window operator '${ctx.operatorUid}': per-window state is not supported with merging windows`);
        return this.windowState;
      },
      globalState: () => global,
      output: (tag, value) => output.collectSide(tag.id, value),
    };
  }
}
