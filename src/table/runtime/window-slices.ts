/**
 * The slicing of aligned windows (TUMBLE, HOP, CUMULATE), as Flink's
 * `SliceAssigners`: time is cut into slices of one length (the size for
 * TUMBLE, gcd(size, slide) for HOP, the step for CUMULATE) aligned to the
 * epoch plus the offset; a row goes into exactly one slice, and a window is
 * the union of the slices between its start and its end. Pure arithmetic.
 */
import type { WindowSpec } from "./window-spec.ts";
import { windowStartWithOffset } from "../../time/windows/window.ts";

/** Slice and window arithmetic of one aligned window kind. */
export interface WindowSlicing {
  /** End of the slice holding time `t`. */
  sliceEnd(t: number): number;
  /** The first window end at or after slice end `e` (windows end at every such step). */
  firstWindowEnd(sliceEnd: number): number;
  /** The end of the last window that contains the slice ending at `sliceEnd`. */
  lastWindowEnd(sliceEnd: number): number;
  /** Distance between consecutive window ends. */
  readonly windowStep: number;
  /** The length of a slice: the slice ending at `e` holds the times in `[e - sliceSize, e)`. */
  readonly sliceSize: number;
  /** Start of the window ending at `end`. */
  windowStart(end: number): number;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/**
 * The slicing of a TUMBLE, HOP or CUMULATE window.
 *
 * @example
 * ```ts
 * const s = windowSlicing({ kind: "hop", timeField: 2, size: 10_000, slide: 5_000, offset: 0 });
 * s.sliceEnd(7_000);       // 10_000
 * s.lastWindowEnd(10_000); // 15_000: the slice [5 s, 10 s) is in the windows ending at 10 s and 15 s
 * ```
 */
export function windowSlicing(spec: Exclude<WindowSpec, { kind: "session" }>): WindowSlicing {
  switch (spec.kind) {
    case "tumble": {
      const { size, offset } = spec;
      return {
        sliceEnd: (t) => windowStartWithOffset(t, offset, size) + size,
        firstWindowEnd: (e) => e,
        lastWindowEnd: (e) => e,
        windowStep: size,
        sliceSize: size,
        windowStart: (end) => end - size,
      };
    }
    case "hop": {
      const { size, slide, offset } = spec;
      const g = gcd(size, slide);
      // windows start at offset + k × slide, so they end at (offset + size) + k × slide
      const endOffset = offset + size;
      return {
        sliceEnd: (t) => windowStartWithOffset(t, offset, g) + g,
        firstWindowEnd: (e) => windowStartWithOffset(e + slide - 1, endOffset, slide),
        // the last window end w with w - size <= e - g
        lastWindowEnd: (e) => windowStartWithOffset(e - g + size, endOffset, slide),
        windowStep: slide,
        sliceSize: g,
        windowStart: (end) => end - size,
      };
    }
    case "cumulate": {
      const { maxSize, step, offset } = spec;
      return {
        sliceEnd: (t) => windowStartWithOffset(t, offset, step) + step,
        firstWindowEnd: (e) => e,
        lastWindowEnd: (e) => windowStartWithOffset(e - step, offset, maxSize) + maxSize,
        windowStep: step,
        sliceSize: step,
        windowStart: (end) => windowStartWithOffset(end - 1, offset, maxSize),
      };
    }
  }
}

/** How many slices a {@link CurrentSlice} remembers besides the current one (replaced in turn). */
const RECENT_SLICES = 4;

/**
 * The slice of the last row and its first and last window ends: rows mostly come slice after slice,
 * whatever their key, so the arithmetic runs only when a row leaves the slice of the row before it.
 * Rows out of order go back and forth between a few slices (a third of the rows of published Nexmark q5
 * leave the slice of the row before): the last {@link RECENT_SLICES} slices' ends are remembered, in a
 * typed array (the slicing's functions return numbers beyond the small integers, a heap object each).
 *
 * @example
 * ```ts
 * const at = new CurrentSlice(windowSlicing({ kind: "hop", timeField: 2, size: 10_000, slide: 5_000, offset: 0 }));
 * at.moveTo(7_000); // true: at.end 10_000, at.firstEnd 10_000, at.lastEnd 15_000
 * at.moveTo(8_000); // false: the same slice
 * ```
 */
export class CurrentSlice {
  /** End of the slice (NaN before the first row). */
  end = Number.NaN;
  /** The first and the last end of the windows holding the slice (last < first: in no window, a HOP with gaps). */
  firstEnd = Number.NaN;
  lastEnd = Number.NaN;
  /** The recent slices: end, first and last window end of each (NaN: none yet). */
  private readonly recent = new Float64Array(3 * RECENT_SLICES).fill(Number.NaN);
  /** The entry of {@link recent} the next slice computed replaces. */
  private replaced = 0;

  constructor(private readonly slicing: WindowSlicing) {}

  /** Moves to the slice holding time `t`; true when that is another slice than before. */
  moveTo(t: number): boolean {
    const size = this.slicing.sliceSize;
    if (t >= this.end - size && t < this.end) return false;
    const recent = this.recent;
    for (let i = 0; i < recent.length; i += 3) {
      const end = recent[i]!;
      if (t >= end - size && t < end) {
        this.end = end;
        this.firstEnd = recent[i + 1]!;
        this.lastEnd = recent[i + 2]!;
        return true;
      }
    }
    const s = this.slicing;
    const end = s.sliceEnd(t);
    const at = 3 * this.replaced;
    this.replaced = (this.replaced + 1) % RECENT_SLICES;
    recent[at] = this.end = end;
    recent[at + 1] = this.firstEnd = s.firstWindowEnd(end);
    recent[at + 2] = this.lastEnd = s.lastWindowEnd(end);
    return true;
  }
}
