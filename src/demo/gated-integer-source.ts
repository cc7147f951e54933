/**
 * The demo's source: the integers `from`..`to`, one per poll, that pauses
 * after `pauseAfter` numbers until released, so the demo can take a
 * checkpoint at a known offset. Its position (offset = numbers emitted) is
 * checkpointed like any source's; on restore it says where it rewound to.
 */
import type { PollStatus, ReaderOutput, Source, SourceReader } from "../core/source.ts";

interface OffsetSplit {
  offset: number;
}

export class GatedIntegerSource implements Source<number, OffsetSplit> {
  readonly boundedness = "bounded" as const;
  /** Resolves when the source reached its pause offset. */
  readonly paused: Promise<void>;
  /** Offset recorded by the latest checkpoint. */
  lastSnapshotOffset = -1;
  private onPaused!: () => void;
  private released = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly from: number,
    private readonly to: number,
    private readonly pauseAfter: number,
    private readonly say: (line: string) => void,
  ) {
    this.paused = new Promise((r) => (this.onPaused = r));
  }

  /** Lets the source go on after the pause. */
  release(): void {
    this.released = true;
    this.wake?.();
  }

  createSplits(): OffsetSplit[] {
    return [{ offset: 0 }];
  }

  createReader(): SourceReader<number, OffsetSplit> {
    let split: OffsetSplit = { offset: 0 };
    return {
      addSplits: (splits) => {
        split = { ...splits[0]! };
        if (split.offset > 0) this.say(`source rewound to offset ${split.offset}`);
      },
      pollNext: (output: ReaderOutput<number>): PollStatus => {
        if (split.offset === this.pauseAfter && !this.released) {
          this.onPaused();
          return "nothing-available";
        }
        const n = this.from + split.offset;
        if (n > this.to) return "end-of-input";
        this.say(`source emits ${n} (offset ${split.offset} -> ${split.offset + 1})`);
        output.collect(n);
        split.offset++;
        return "more-available";
      },
      isAvailable: () => (this.released ? Promise.resolve() : new Promise<void>((r) => (this.wake = r))),
      snapshotState: () => {
        this.lastSnapshotOffset = split.offset;
        return [{ ...split }];
      },
    };
  }
}
