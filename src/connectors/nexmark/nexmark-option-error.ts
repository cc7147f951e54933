/** An option of `NexmarkSource.create` that is out of range, named with its value. */
export class NexmarkOptionError extends RangeError {
  constructor(
    /** The option's name in `NexmarkOptions` (`proportions.bid` for a field of `proportions`). */
    readonly option: string,
    readonly value: unknown,
    /** What the option must be, e.g. "an integer ≥ 1". */
    readonly requirement: string,
  ) {
    super(`nexmark source: option '${option}' must be ${requirement}, got ${String(value)}`);
    this.name = "NexmarkOptionError";
  }
}
