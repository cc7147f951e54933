/**
 * The user-facing state handles (Flink's names). A keyed handle always refers
 * to the current key of its backend.
 */

/**
 * One value per key.
 *
 * State holds its own copy: `value()` returns a copy and `update(v)` stores a
 * copy of `v`. Mutating either object afterwards changes nothing in state;
 * call `update` to change it. This holds for every handle below.
 */
export interface ValueState<T> {
  /** The value for the current key, or the descriptor's default value, or undefined. */
  value(): T | undefined;
  /** Sets the value for the current key; `update(undefined)` is `clear()`. */
  update(v: T): void;
  clear(): void;
}

/** A list per key (keyed state) or per subtask (operator state). */
export interface ListState<T> {
  /** A copy of the list (empty when there is none). */
  get(): T[];
  add(v: T): void;
  addAll(vs: T[]): void;
  /** Replaces the list. */
  update(vs: T[]): void;
  clear(): void;
}

/** A map per key. */
export interface MapState<K, V> {
  get(k: K): V | undefined;
  put(k: K, v: V): void;
  putAll(entries: Iterable<[K, V]> | Map<K, V>): void;
  remove(k: K): void;
  contains(k: K): boolean;
  entries(): IterableIterator<[K, V]>;
  keys(): IterableIterator<K>;
  values(): IterableIterator<V>;
  isEmpty(): boolean;
  clear(): void;
}

/** Values added are folded into one with the descriptor's reduce function. */
export interface ReducingState<T> {
  get(): T | undefined;
  add(v: T): void;
  clear(): void;
}

/** Values added go into an accumulator; `get` returns the aggregate's result. */
export interface AggregatingState<IN, OUT> {
  get(): OUT | undefined;
  add(v: IN): void;
  clear(): void;
}
