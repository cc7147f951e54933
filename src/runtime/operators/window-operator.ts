/**
 * The window operator (Flink's WindowOperator / EvictingWindowOperator): assigns
 * each record of a key to windows, keeps their contents in keyed state, asks the
 * trigger when to fire and purge, and removes a window's state and timers once
 * it can no longer change (at its end plus the allowed lateness). Records whose
 * windows are all past that point are late: sent to the late-data side output,
 * or dropped and counted. Session windows (merging assigners) merge their
 * contents, trigger state and timers.
 */
import type { KeySelector } from "../../graph/stream-graph.ts";
import { NO_TIMESTAMP } from "../../runtime/elements.ts";
import type { OperatorContext, Output } from "../../runtime/operators/stream-operator.ts";
import { runtimeContextOf, UdfOperator } from "../../runtime/operators/udf-operator.ts";
import { ValueStateDescriptor, type ReducingStateDescriptor, type ValueState } from "../../state/index.ts";
import type { TimeDomain } from "../../core/process-function.ts";
import { KeyedTimerService } from "../timer-service.ts";
import type { Evictor, EvictorContext } from "./evictor.ts";
import { MergingWindowSet } from "./merging-window-set.ts";
import { isFire, isPurge, type OnMergeContext, type Trigger, type TriggerResult } from "./trigger.ts";
import { windowFromId, type Window } from "./window.ts";
import { isMergingAssigner, type MergingWindowAssigner, type WindowAssigner } from "./window-assigner.ts";
import { ListWindowContents, type WindowContents } from "./window-contents.ts";
import { MissingWindowTimestampError, WindowMergeError } from "./window-errors.ts";
import type { InternalWindowFunction, ProcessWindowContext } from "./window-functions.ts";
import { WindowScopedState } from "./window-scoped-state.ts";

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
  readonly contents: (backend: NonNullable<OperatorContext["keyedState"]>) => WindowContents<IN>;
  readonly fn: InternalWindowFunction<unknown, OUT, unknown, W>;
}

/** Names of the operator's metrics in `TaskMetrics.operators[uid]`. */
export const WINDOW_METRICS = { lateDropped: "numLateRecordsDropped", inWindows: "numRecordsInWindows" } as const;

export class WindowOperator<IN, OUT, W extends Window> extends UdfOperator<IN, OUT, unknown> {
  private key!: KeySelector;
  private currentKey: unknown;
  private timers!: KeyedTimerService;
  private contents!: WindowContents<IN>;
  private triggerState!: WindowScopedState;
  private windowState!: WindowScopedState;
  private mergingState?: ValueState<[string, string][]>;
  private readonly merging: MergingWindowAssigner<IN, W> | undefined;
  private readonly eventTime: boolean;
  /** The window the trigger context refers to, and (during onMerge) the windows merged into it. */
  private window!: W;
  private mergedWindowIds: string[] = [];
  private triggerCtx!: OnMergeContext;
  private processCtx!: ProcessWindowContext<W>;
  private evictorCtx!: EvictorContext;

  constructor(private readonly spec: WindowOperatorSpec<IN, OUT, W>) {
    super(spec.fn.udf ?? {}); // reduce/aggregate without a window function have no user function with a lifecycle
    this.merging = isMergingAssigner(spec.assigner) ? spec.assigner : undefined;
    this.eventTime = spec.assigner.isEventTime();
  }

  override async open(ctx: OperatorContext, output: Output<OUT>): Promise<void> {
    if (!ctx.keyedState || !ctx.keySelector) throw new Error(`window operator '${ctx.operatorUid}' needs a keyed input`);
    if (this.merging && !this.spec.trigger.canMerge())
      throw new Error(`window operator '${ctx.operatorUid}': trigger ${this.spec.trigger.toString()} cannot be used with merging windows (${this.spec.assigner.toString()})`);
    const backend = ctx.keyedState;
    this.key = ctx.keySelector;
    this.contents = this.spec.contents(backend);
    if (this.spec.evictor && !(this.contents instanceof ListWindowContents)) throw new Error(`window operator '${ctx.operatorUid}': an evictor needs all records kept`);
    this.triggerState = new WindowScopedState(backend, "_trigger-state");
    this.windowState = new WindowScopedState(backend, "_window-state");
    if (this.merging) this.mergingState = backend.getState(new ValueStateDescriptor<[string, string][]>("_merging-windows"));
    this.timers = new KeyedTimerService(backend, ctx.processingTime, (ts, key, ns, domain) => this.onTimer(ts, key, ns, domain), "window-timers");
    this.timers.restore();
    ctx.metrics[WINDOW_METRICS.lateDropped] = 0;
    ctx.metrics[WINDOW_METRICS.inWindows] = this.contents.totalSize(backend);
    this.createContexts(ctx, output);
    await super.open(ctx, output);
  }

  processElement(value: IN): void {
    const key = this.key(value);
    this.ctx.keyedState!.setCurrentKey(key);
    this.currentKey = key;
    const timestamp = this.ctx.element.timestamp;
    if (this.eventTime && timestamp === NO_TIMESTAMP) throw new MissingWindowTimestampError(this.ctx.operatorUid, this.spec.assigner.toString());
    const windows = this.spec.assigner.assignWindows(value, timestamp, { currentProcessingTime: () => this.ctx.processingTime.now() });
    let skipped = true;
    const set = this.loadMergingSet();
    for (const assigned of windows) {
      const window = set ? set.addWindow(assigned, (r, m, sr, sm) => this.mergeWindows(r, m, sr, sm)) : assigned;
      if (this.isWindowLate(window)) {
        set?.retireWindow(window);
        continue;
      }
      skipped = false;
      const stateWindow = set ? set.getStateWindow(window) : window;
      if (!stateWindow) throw new Error(`window operator '${this.ctx.operatorUid}': window ${String(window)} is not in the in-flight window set`);
      this.contents.add(stateWindow.id(), value, timestamp);
      this.ctx.metrics[WINDOW_METRICS.inWindows]!++;
      this.setTriggerWindow(window);
      this.react(this.spec.trigger.onElement(value, timestamp, window, this.triggerCtx), window, stateWindow);
      this.registerCleanupTimer(window);
    }
    set?.persist();
    if (skipped && this.isElementLate(timestamp)) {
      this.ctx.element.timestamp = timestamp;
      if (this.spec.lateDataTag !== undefined) this.out.collectSide(this.spec.lateDataTag, value);
      else this.ctx.metrics[WINDOW_METRICS.lateDropped]!++;
    }
  }

  processWatermark(timestamp: number): void {
    this.timers.advanceWatermark(timestamp);
    this.out.emitWatermark(timestamp);
  }

  private onTimer(time: number, key: unknown, namespace: string, domain: TimeDomain): void {
    this.currentKey = key;
    const window = windowFromId(namespace) as W;
    const set = this.loadMergingSet();
    const stateWindow = set ? set.getStateWindow(window) : window;
    if (!stateWindow) return; // a timer of a window merged away whose trigger did not delete it
    this.setTriggerWindow(window);
    const result =
      domain === "event-time"
        ? this.spec.trigger.onEventTime(time, window, this.triggerCtx)
        : this.spec.trigger.onProcessingTime(time, window, this.triggerCtx);
    this.react(result, window, stateWindow);
    if ((domain === "event-time") === this.eventTime && time === this.cleanupTime(window)) this.clearAllState(window, stateWindow);
    set?.persist();
  }

  /** Fires and/or purges as the trigger said. */
  private react(result: TriggerResult, window: W, stateWindow: W): void {
    const sid = stateWindow.id();
    if (isFire(result)) {
      if (this.spec.evictor) this.fireEvicting(window, sid, this.spec.evictor);
      else {
        const contents = this.contents.get(sid);
        if (contents !== undefined) this.emit(window, contents);
      }
    }
    if (isPurge(result)) this.clearContents(sid);
  }

  private fireEvicting(window: W, sid: string, evictor: Evictor<IN, W>): void {
    const list = this.contents as ListWindowContents<IN>;
    const all = list.elements(sid);
    if (all.length === 0) return;
    const kept = evictor.evictBefore(all, window, this.evictorCtx);
    this.emit(window, kept.map((e) => e.value));
    const after = evictor.evictAfter(kept, window, this.evictorCtx);
    list.replace(sid, after);
    this.ctx.metrics[WINDOW_METRICS.inWindows]! += after.length - all.length;
  }

  private emit(window: W, contents: unknown[]): void {
    this.ctx.element.timestamp = window.maxTimestamp();
    this.window = window;
    this.windowState.setWindow(window.id());
    this.spec.fn.process(this.currentKey, this.processCtx, contents, this.out);
  }

  private clearContents(sid: string): void {
    this.ctx.metrics[WINDOW_METRICS.inWindows]! -= this.contents.size(sid);
    this.contents.clear(sid);
  }

  /** The window can no longer change: remove its contents, trigger and window state, and its place in the session set. */
  private clearAllState(window: W, stateWindow: W): void {
    this.clearContents(stateWindow.id());
    this.setTriggerWindow(window);
    this.spec.trigger.clear(window, this.triggerCtx);
    this.triggerState.clearWindow(window.id());
    this.window = window;
    this.windowState.setWindow(window.id());
    this.spec.fn.clear(this.processCtx);
    this.windowState.clearWindow(window.id());
    this.activeSet?.retireWindow(window);
  }

  private mergeWindows(mergeResult: W, mergedWindows: W[], stateWindowResult: W, mergedStateWindows: W[]): void {
    if (this.eventTime ? this.cleanupTime(mergeResult) <= this.timers.currentWatermark() : mergeResult.maxTimestamp() <= this.ctx.processingTime.now())
      throw new WindowMergeError(this.ctx.operatorUid, `the end of a window cannot become earlier than the current time by merging (window ${String(mergeResult)})`);
    this.setTriggerWindow(mergeResult);
    this.mergedWindowIds = mergedWindows.map((w) => w.id());
    this.spec.trigger.onMerge(mergeResult, this.triggerCtx);
    this.mergedWindowIds = [];
    for (const m of mergedWindows) {
      this.setTriggerWindow(m);
      this.spec.trigger.clear(m, this.triggerCtx);
      this.triggerState.clearWindow(m.id());
      this.deleteCleanupTimer(m);
    }
    this.contents.merge(stateWindowResult.id(), mergedStateWindows.map((w) => w.id()));
  }

  /** The session set of the current key, loaded for one record or timer (undefined for non-merging assigners). */
  private activeSet: MergingWindowSet<W> | undefined;

  private loadMergingSet(): MergingWindowSet<W> | undefined {
    this.activeSet = this.merging ? new MergingWindowSet(this.merging as MergingWindowAssigner<unknown, W>, this.mergingState!) : undefined;
    return this.activeSet;
  }

  private setTriggerWindow(window: W): void {
    this.window = window;
    this.triggerState.setWindow(window.id());
  }

  private cleanupTime(window: W): number {
    const end = window.maxTimestamp();
    return this.eventTime ? Math.min(end + this.spec.allowedLateness, Number.MAX_SAFE_INTEGER) : end;
  }

  private registerCleanupTimer(window: W): void {
    const t = this.cleanupTime(window);
    if (t >= Number.MAX_SAFE_INTEGER) return; // the global window is never cleaned up
    if (this.eventTime) this.timers.registerEventTimeTimer(t, window.id());
    else this.timers.registerProcessingTimeTimer(t, window.id());
  }

  private deleteCleanupTimer(window: W): void {
    const t = this.cleanupTime(window);
    if (this.eventTime) this.timers.deleteEventTimeTimer(t, window.id());
    else this.timers.deleteProcessingTimeTimer(t, window.id());
  }

  private isWindowLate(window: W): boolean {
    return this.eventTime && this.cleanupTime(window) <= this.timers.currentWatermark();
  }

  private isElementLate(timestamp: number): boolean {
    return this.eventTime && timestamp + this.spec.allowedLateness <= this.timers.currentWatermark();
  }

  private createContexts(ctx: OperatorContext, output: Output<OUT>): void {
    const timers = this.timers;
    const wid = () => this.window.id();
    const triggerState = this.triggerState;
    this.triggerCtx = {
      getCurrentProcessingTime: () => ctx.processingTime.now(),
      getCurrentWatermark: () => timers.currentWatermark(),
      registerEventTimeTimer: (t) => timers.registerEventTimeTimer(t, wid()),
      registerProcessingTimeTimer: (t) => timers.registerProcessingTimeTimer(t, wid()),
      deleteEventTimeTimer: (t) => timers.deleteEventTimeTimer(t, wid()),
      deleteProcessingTimeTimer: (t) => timers.deleteProcessingTimeTimer(t, wid()),
      getPartitionedState: (d) => triggerState.getPartitionedState(d),
      getReducingState: (d) => triggerState.getReducingState(d),
      mergePartitionedState: <T>(d: ReducingStateDescriptor<T>) => triggerState.mergeReducing(d, this.mergedWindowIds),
    };
    this.evictorCtx = { getCurrentProcessingTime: () => ctx.processingTime.now(), getCurrentWatermark: () => timers.currentWatermark() };
    const global = runtimeContextOf(ctx);
    this.processCtx = {
      window: () => this.window,
      currentProcessingTime: () => ctx.processingTime.now(),
      currentWatermark: () => timers.currentWatermark(),
      windowState: () => {
        if (this.merging) throw new Error(`window operator '${ctx.operatorUid}': per-window state is not supported with merging windows`);
        return this.windowState;
      },
      globalState: () => global,
      output: (tag, value) => output.collectSide(tag.id, value),
    };
  }
}
