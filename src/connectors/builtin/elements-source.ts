/**
 * `env.fromElements(...values)`: the given values, in order, from a single
 * reader. Its position is the index of the next value. Each emission is a
 * copy of the value (when it is plain data), so code downstream that mutates
 * what it receives cannot change what a restart replays.
 */
import type { PollStatus, ReaderOutput, Source, SourceReader } from "../../core/source.ts";
import { copyPlainData, PlainDataError } from "../../state/plain-copy.ts";

/** A copy of plain data; anything else (a class instance the next chained operator converts) as it is. */
function emitted<T>(v: T): T {
  try {
    return copyPlainData(v);
  } catch (e) {
    if (e instanceof PlainDataError) return v;
    throw e;
  }
}

/** The index of the next element to emit. */
export interface ElementsSplit {
  index: number;
}

/** Creates the source of `values` (kept in the job module: every thread rebuilds it). */
export function elementsSource<T>(values: readonly T[]): Source<T, ElementsSplit> {
  return {
    boundedness: "bounded",
    createSplits: () => [{ index: 0 }],
    createReader: () => new ElementsReader(values),
  };
}

class ElementsReader<T> implements SourceReader<T, ElementsSplit> {
  private split: ElementsSplit | undefined;

  constructor(private readonly values: readonly T[]) {}

  addSplits(splits: ElementsSplit[]): void {
    if (splits[0]) this.split = { ...splits[0] };
  }

  pollNext(output: ReaderOutput<T>, maxRecords: number): PollStatus {
    const s = this.split;
    if (!s) return "end-of-input";
    const stop = Math.min(this.values.length, s.index + maxRecords);
    for (; s.index < stop; s.index++) output.collect(emitted(this.values[s.index]!));
    if (s.index >= this.values.length) {
      this.split = undefined;
      return "end-of-input";
    }
    return "more-available";
  }

  snapshotState(): ElementsSplit[] {
    return this.split ? [{ ...this.split }] : [];
  }
}
