/**
 * Job-wide settings of how records are handled, as Flink's `ExecutionConfig`:
 * `env.getConfig()`, a view of the `pipeline.object-reuse` key.
 */
import type { Configuration } from "../config/configuration.ts";
import { OBJECT_REUSE } from "../config/options/pipeline-options.ts";

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
  /** @internal A view of `configuration` (the environment's own): `pipeline.object-reuse`. */
  constructor(private readonly configuration: Configuration) {}

  /** Consumers of one record share it (no copies at fan-out); only for jobs whose functions never mutate their input. */
  enableObjectReuse(): this {
    this.configuration.set(OBJECT_REUSE, true);
    return this;
  }

  /** The default: every consumer of a record gets its own object. */
  disableObjectReuse(): this {
    this.configuration.set(OBJECT_REUSE, false);
    return this;
  }

  isObjectReuseEnabled(): boolean {
    return this.configuration.get(OBJECT_REUSE);
  }
}
