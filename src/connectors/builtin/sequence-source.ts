/**
 * `env.fromSequence(from, to)`: the numbers from `from` to `to` inclusive,
 * split into contiguous ranges, one per parallel reader. Replayable: a split's
 * position is the next number to emit.
 */
import type { PollStatus, ReaderOutput, Source, SourceReader } from "../../core/source.ts";

/** A range still to read: `next` up to `end` inclusive. */
export interface SequenceSplit {
  next: number;
  end: number;
}

/** Creates the source of the numbers `from`..`to` (inclusive). */
export function sequenceSource(from: number, to: number): Source<number, SequenceSplit> {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) throw new RangeError(`fromSequence(${from}, ${to}): bounds must be safe integers`);
  return {
    boundedness: "bounded",
    createSplits(parallelism) {
      const count = Math.max(0, to - from + 1);
      const splits: SequenceSplit[] = [];
      for (let i = 0; i < parallelism; i++) {
        const lo = from + Math.floor((count * i) / parallelism);
        const hi = from + Math.floor((count * (i + 1)) / parallelism) - 1;
        if (hi >= lo) splits.push({ next: lo, end: hi });
      }
      return splits;
    },
    createReader: () => new SequenceReader(),
  };
}

class SequenceReader implements SourceReader<number, SequenceSplit> {
  private splits: SequenceSplit[] = [];

  addSplits(splits: SequenceSplit[]): void {
    for (const s of splits) this.splits.push({ ...s });
  }

  pollNext(output: ReaderOutput<number>, maxRecords: number): PollStatus {
    const s = this.splits[0];
    if (!s) return "end-of-input";
    const id = `..${s.end}`;
    const out = output.createOutputForSplit(id);
    const stop = Math.min(s.end, s.next + maxRecords - 1);
    for (let n = s.next; n <= stop; n++) out.collect(n);
    s.next = stop + 1;
    if (s.next > s.end) {
      this.splits.shift();
      output.releaseOutputForSplit(id);
    }
    return this.splits.length > 0 ? "more-available" : "end-of-input";
  }

  snapshotState(): SequenceSplit[] {
    return this.splits.map((s) => ({ ...s }));
  }
}
