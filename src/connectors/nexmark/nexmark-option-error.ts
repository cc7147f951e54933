/** An option of `NexmarkSource.create` that is out of range, named with its value. */
export class NexmarkOptionError extends RangeError {
  constructor(option: string, value: unknown, requirement: string) {
    super(`nexmark source: option '${option}' must be ${requirement}, got ${String(value)}`);
    this.name = "NexmarkOptionError";
  }
}
