/** A bench run whose output differs from the expected one (records lost, duplicated or late). */
export class BenchIntegrityError extends Error {
  /**
   * @param label the run, e.g. `"window, exactly-once 1 s"`
   * @param what the checked figure, e.g. `"records the sinks received"`
   */
  constructor(label: string, what: string, expected: number, received: number) {
    super(`bench run '${label}': ${what} ${received}, expected ${expected}`);
    this.name = "BenchIntegrityError";
  }
}
