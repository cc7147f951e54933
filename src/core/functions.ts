/**
 * The element-wise user functions: a plain function, or an object with the
 * method (an object literal, or a class instance — extending RichFunction for
 * state or lifecycle hooks). An object may have `open(context)`/`close()` and
 * fields of its own on `this` (see FunctionObject).
 */
import type { Collector } from "./collector.ts";
import type { FunctionLifecycle, FunctionObject } from "./function-object.ts";

/** The object form of a map function. */
export interface MapFunctionObject<T, R> extends FunctionLifecycle {
  map(value: T): R;
}
/** The object form of a filter function. */
export interface FilterFunctionObject<T> extends FunctionLifecycle {
  filter(value: T): boolean;
}
/** The object form of a flatMap function. */
export interface FlatMapFunctionObject<T, R> extends FunctionLifecycle {
  flatMap(value: T, out: Collector<R>): Iterable<R> | void;
}

/** One record in, one record out. */
export type MapFunction<T, R, S = unknown> = ((value: T) => R) | FunctionObject<MapFunctionObject<T, R>, S>;
/** Keeps records for which it returns true. */
export type FilterFunction<T, S = unknown> = ((value: T) => boolean) | FunctionObject<FilterFunctionObject<T>, S>;
/** One record in, any number out: return an iterable, or emit through the collector. */
export type FlatMapFunction<T, R, S = unknown> =
  | ((value: T, out: Collector<R>) => Iterable<R> | void)
  | FunctionObject<FlatMapFunctionObject<T, R>, S>;
/** Combines two values of the same key into one. */
export type ReduceFunction<T> = ((a: T, b: T) => T) | { reduce(a: T, b: T): T };

/** Normalizes a map function to a plain call. */
export function mapCall<T, R>(f: ((value: T) => R) | MapFunctionObject<T, R>): (value: T) => R {
  return typeof f === "function" ? f : (v) => f.map(v);
}
/** Normalizes a filter function to a plain call. */
export function filterCall<T>(f: ((value: T) => boolean) | FilterFunctionObject<T>): (value: T) => boolean {
  return typeof f === "function" ? f : (v) => f.filter(v);
}
/** Normalizes a flatMap function to a plain call. */
export function flatMapCall<T, R>(
  f: ((value: T, out: Collector<R>) => Iterable<R> | void) | FlatMapFunctionObject<T, R>,
): (value: T, out: Collector<R>) => Iterable<R> | void {
  return typeof f === "function" ? f : (v, out) => f.flatMap(v, out);
}
/** Normalizes a reduce function to a plain call. */
export function reduceCall<T>(f: ReduceFunction<T>): (a: T, b: T) => T {
  return typeof f === "function" ? f : (a, b) => f.reduce(a, b);
}
