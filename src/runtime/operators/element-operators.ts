/**
 * The element-wise operators: map, filter, flatMap and process on a
 * non-keyed stream.
 */
import { ASYNC_IO_HINT } from "../../core/async-function.ts";
import type { Collector } from "../../core/collector.ts";
import {
  filterCall,
  flatMapCall,
  mapCall,
  type FilterFunctionObject,
  type FlatMapFunctionObject,
  type MapFunctionObject,
} from "../../core/functions.ts";
import type { ProcessFunctionObject } from "../../core/process-function.ts";
import type { OperatorContext } from "./stream-operator.ts";
import { UdfOperator } from "./udf-operator.ts";
import { UnkeyedProcessOperator } from "./unkeyed-process-operator.ts";

export class MapOperator<T, R> extends UdfOperator<T, R, ((value: T) => R) | MapFunctionObject<T, R>> {
  private readonly call = mapCall(this.fn);
  processElement(value: T): void {
    const result = this.call(value);
    if (result instanceof Promise) throw promiseReturned(this.ctx);
    this.out.collect(result);
  }
}

/** A map function returned a Promise (kept out of `processElement`, which stays small enough to inline). */
function promiseReturned(ctx: OperatorContext): TypeError {
  return new TypeError(`the map function of operator '${ctx.operatorName}' (uid '${ctx.operatorUid}') returned a Promise, which would be emitted instead of its result; ${ASYNC_IO_HINT}`);
}

export class FilterOperator<T> extends UdfOperator<T, T, ((value: T) => boolean) | FilterFunctionObject<T>> {
  private readonly call = filterCall(this.fn);
  processElement(value: T): void {
    if (this.call(value)) this.out.collect(value);
  }
}

export class FlatMapOperator<T, R> extends UdfOperator<T, R, ((value: T, out: Collector<R>) => Iterable<R> | void) | FlatMapFunctionObject<T, R>> {
  private readonly call = flatMapCall(this.fn);
  processElement(value: T): void {
    const result = this.call(value, this.out);
    if (result) for (const r of result) this.out.collect(r);
  }
}

export class ProcessOperator<T, R> extends UnkeyedProcessOperator<T, R, ProcessFunctionObject<T, R>> {
  processElement(value: T): void {
    this.fn.processElement(value, this.context, this.out as Collector<R>);
  }
}
