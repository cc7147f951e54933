/**
 * A share of a Nexmark stream: the event numbers `next`, `next + stride`,
 * `next + 2·stride`, … below the stream's length. A source of parallelism p
 * starts with the p splits `{ next: i, stride: p }`, so every reader moves
 * through event time at the pace of the whole stream (events are
 * interleaved, not cut into ranges) and together they make each event once.
 * `next` is the position a checkpoint stores.
 */
export interface NexmarkSplit {
  /** The next event number to emit. */
  readonly next: number;
  /** Distance between the split's event numbers (the source's first parallelism). */
  readonly stride: number;
}

/**
 * The splits of a stream of `events` events for `parallelism` readers (fewer when
 * there are fewer events).
 *
 * @example
 * ```ts
 * nexmarkSplits(2, 10); // [{ next: 0, stride: 2 }, { next: 1, stride: 2 }]
 * ```
 */
export function nexmarkSplits(parallelism: number, events: number): NexmarkSplit[] {
  const splits: NexmarkSplit[] = [];
  for (let i = 0; i < parallelism && i < events; i++) splits.push({ next: i, stride: parallelism });
  return splits;
}

/** A stable name of the split for per-split watermarks (its first event number and stride). */
export function nexmarkSplitId(s: NexmarkSplit): string {
  return `nexmark-${s.next % s.stride}/${s.stride}`;
}
