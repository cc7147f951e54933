/**
 * The element-wise user functions: a plain function or an object with the
 * method (a class extending RichFunction for state or lifecycle hooks).
 */
import type { Collector } from "./collector.ts";

/** One record in, one record out. */
export type MapFunction<T, R> = ((value: T) => R) | { map(value: T): R };
/** Keeps records for which it returns true. */
export type FilterFunction<T> = ((value: T) => boolean) | { filter(value: T): boolean };
/** One record in, any number out: return an iterable, or emit through the collector. */
export type FlatMapFunction<T, R> =
  | ((value: T, out: Collector<R>) => Iterable<R> | void)
  | { flatMap(value: T, out: Collector<R>): Iterable<R> | void };
/** Combines two values of the same key into one. */
export type ReduceFunction<T> = ((a: T, b: T) => T) | { reduce(a: T, b: T): T };

/** Normalizes a map function to a plain call. */
export function mapCall<T, R>(f: MapFunction<T, R>): (value: T) => R {
  return typeof f === "function" ? f : (v) => f.map(v);
}
/** Normalizes a filter function to a plain call. */
export function filterCall<T>(f: FilterFunction<T>): (value: T) => boolean {
  return typeof f === "function" ? f : (v) => f.filter(v);
}
/** Normalizes a flatMap function to a plain call. */
export function flatMapCall<T, R>(f: FlatMapFunction<T, R>): (value: T, out: Collector<R>) => Iterable<R> | void {
  return typeof f === "function" ? f : (v, out) => f.flatMap(v, out);
}
/** Normalizes a reduce function to a plain call. */
export function reduceCall<T>(f: ReduceFunction<T>): (a: T, b: T) => T {
  return typeof f === "function" ? f : (a, b) => f.reduce(a, b);
}
