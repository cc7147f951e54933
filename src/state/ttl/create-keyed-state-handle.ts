/**
 * The one place where a keyed state backend turns a descriptor into the
 * handle user code gets: the backend's plain handle, or, for a descriptor
 * with TTL, a TTL decorator over a plain handle of the stored form. Works on
 * any backend that offers {@link TtlKeyedBackend}.
 */

import type { Clock } from "../../util/clock.ts";
import { type AnyStateDescriptor, ListStateDescriptor, MapStateDescriptor, ValueStateDescriptor } from "../descriptors.ts";
import { StateTtlMismatchError } from "../errors.ts";
import type { ListState, MapState, ValueState } from "../state-handles.ts";
import type { TtlCleanable } from "./ttl-cleanable.ts";
import { TtlAggregatingState } from "./ttl-aggregating-state.ts";
import { TtlCleanup, type TtlKeyedBackend } from "./ttl-incremental-cleanup.ts";
import { TtlListState } from "./ttl-list-state.ts";
import { TtlMapState } from "./ttl-map-state.ts";
import { TtlReducingState } from "./ttl-reducing-state.ts";
import { TtlValueState, ttlValueCleanable } from "./ttl-value-state.ts";
import { TtlTime, type TtlValue } from "./ttl-value.ts";

/** What {@link createKeyedStateHandle} needs from the backend creating a handle. */
export interface KeyedStateHandleContext {
  /** Named in errors. */
  readonly operatorUid: string;
  /** The processing-time clock TTL timestamps are taken from. */
  readonly clock: Clock;
  readonly backend: TtlKeyedBackend & {
    /** Calls `listener` at each `setCurrentKey` (for `cleanupIncrementally(n, true)`). */
    addKeySelectionListener(listener: () => void): void;
  };
  /**
   * Whether the state's stored values are TTL pairs: as recorded in the
   * snapshot the state was restored from, else whether `d` has TTL.
   */
  readonly storedWithTtl: boolean;
}

/**
 * The handle for `d`: `makePlain(d)` when `d` has no TTL, else a TTL
 * decorator over `makePlain(stored)`, where `stored` describes the stored
 * form (`[value, lastAccess]` pairs; reducing and aggregating state are
 * stored as value state of such pairs, in the table of `d`'s kind).
 *
 * @throws StateTtlMismatchError when the stored form (restored) and `d` disagree on TTL
 * @example
 * ```ts
 * // in a keyed state backend, once per state name:
 * table.handle ??= createKeyedStateHandle(d, { operatorUid, clock, backend: this, storedWithTtl: table.ttl },
 *   (stored) => this.plainHandle(table, stored));
 * ```
 */
export function createKeyedStateHandle(
  d: AnyStateDescriptor,
  ctx: KeyedStateHandleContext,
  makePlain: (stored: AnyStateDescriptor) => unknown,
): unknown {
  const ttl = d.ttlConfig;
  if (ctx.storedWithTtl !== (ttl !== undefined)) throw new StateTtlMismatchError(ctx.operatorUid, d.name, ctx.storedWithTtl);
  if (ttl === undefined) return makePlain(d);
  const time = new TtlTime(ttl, ctx.clock);
  const incremental = ttl.incrementalCleanup;
  let sweepPending = ttl.cleanupInFullSnapshot;
  let cleanup: TtlCleanup | undefined = undefined;
  const accessed = (): void => {
    if (sweepPending) sweepPending = !cleanup!.sweep();
    else if (incremental) cleanup!.step(incremental.cleanupSize);
  };
  const valueOf = <S>(): ValueState<TtlValue<S>> => makePlain(new ValueStateDescriptor(d.name)) as ValueState<TtlValue<S>>;
  let handle: unknown;
  let cleanable: TtlCleanable;
  switch (d.kind) {
    case "value": {
      const raw = valueOf();
      handle = new TtlValueState(raw, time, accessed, d.defaultValue);
      cleanable = ttlValueCleanable(raw, time);
      break;
    }
    case "list": {
      const list = new TtlListState(makePlain(new ListStateDescriptor(d.name)) as ListState<TtlValue<unknown>>, time, accessed);
      handle = cleanable = list;
      break;
    }
    case "map": {
      const raw = makePlain(new MapStateDescriptor(d.name)) as MapState<unknown, TtlValue<unknown>>;
      const map = new TtlMapState(raw, time, accessed);
      handle = cleanable = map;
      break;
    }
    case "reducing": {
      const raw = valueOf();
      handle = new TtlReducingState(raw, time, accessed, d.reduce);
      cleanable = ttlValueCleanable(raw, time);
      break;
    }
    case "aggregating": {
      const raw = valueOf();
      handle = new TtlAggregatingState(raw, time, accessed, d.agg);
      cleanable = ttlValueCleanable(raw, time);
      break;
    }
  }
  cleanup = new TtlCleanup(ctx.backend, d.name, time, cleanable);
  if (incremental?.runCleanupForEveryRecord) ctx.backend.addKeySelectionListener(() => cleanup.step(incremental.cleanupSize));
  return handle;
}
