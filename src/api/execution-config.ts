/**
 * Job-wide settings of how records are handled, as Flink's `ExecutionConfig`:
 * `env.getConfig()`.
 */

/**
 * How a job treats the objects of its records.
 *
 * By default (no object reuse, as in Flink) every consumer of a record may
 * mutate it without effect on any other operator: where one record goes to
 * several consumers (a stream used twice, a broadcast edge), each gets its
 * own copy. `enableObjectReuse()` drops those copies for speed; the job then
 * promises that no operator mutates a record it received. State is not
 * affected: it always holds its own copies, so checkpoints stay exact.
 *
 * @example
 * ```ts
 * const env = StreamExecutionEnvironment.getExecutionEnvironment();
 * env.getConfig().enableObjectReuse(); // my functions never mutate their input
 * ```
 */
export class ExecutionConfig {
  private objectReuse = false;

  /** Consumers of one record share it (no copies at fan-out); only for jobs whose functions never mutate their input. */
  enableObjectReuse(): this {
    this.objectReuse = true;
    return this;
  }

  /** The default: every consumer of a record gets its own object. */
  disableObjectReuse(): this {
    this.objectReuse = false;
    return this;
  }

  isObjectReuseEnabled(): boolean {
    return this.objectReuse;
  }
}
