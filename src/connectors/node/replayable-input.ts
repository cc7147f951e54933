/**
 * Inputs a source cannot rewind by itself (an async iterable, a Node stream):
 * given as a function that creates them, they are created again after a
 * failure and skipped to the checkpointed position; given as an object, they
 * can be read once, from the start, and a restart that needs them again is
 * refused with {@link SourceNotReplayableError} rather than lose or repeat
 * records.
 */

/** An input object, or a function that creates it (again after a failure). */
export type Replayable<I> = I | (() => I);

/**
 * A source read from an input object that cannot be read again: the job
 * restarted (after a failure, or from a checkpoint) and needs it from a
 * position it cannot go back to.
 *
 * @example
 * ```ts
 * // fromAsyncIterable: cannot resume at record 1200 (from a checkpoint): an iterable object can be read only once; …
 * err instanceof SourceNotReplayableError && console.error(err.position);
 * ```
 */
export class SourceNotReplayableError extends Error {
  override readonly name = "SourceNotReplayableError";

  /**
   * @param source the source's name, e.g. "fromAsyncIterable"
   * @param position the record the restart must resume at
   * @param hint how to pass the input as a function
   */
  constructor(
    readonly source: string,
    readonly position: number,
    hint: string,
  ) {
    super(
      `${source}: ${
        position > 0
          ? `cannot resume at record ${position} (from a checkpoint): the input object can be read only once`
          : "the input object was already read by an earlier attempt of this job and cannot be read again after a failure"
      }. Pass a function that creates it again, ${hint}, so that a restart reads it anew and skips the records before the checkpoint; or start over with --fresh`,
    );
  }
}

/**
 * Opens `input` for a reader that resumes at `position` (records already
 * emitted): calls a function again every time; hands out an object once, and
 * only at position 0. Returns the input and how many records to skip.
 */
export function replayableOpener<I>(source: string, hint: string, input: Replayable<I>): (position: number) => { input: I; skip: number } {
  if (typeof input === "function") return (position) => ({ input: (input as () => I)(), skip: position });
  let opened = false;
  return (position) => {
    if (opened || position > 0) throw new SourceNotReplayableError(source, position, hint);
    opened = true;
    return { input, skip: 0 };
  }
}
