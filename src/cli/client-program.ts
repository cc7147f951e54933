/**
 * What `weir run` and `weir sql -f` run as the client: a module that the CLI
 * imports (and every worker thread imports again to rebuild the job), with
 * its arguments. For `weir run` it is the user's job file; for `weir sql -f`
 * Weir's SQL script job, which runs the script's statements.
 */

/**
 * @example
 * ```ts
 * const program: ClientProgram = {
 *   label: "job.ts", module: resolve("job.ts"), args: [],
 *   defaultCheckpointDir: ".weir/checkpoints/<job>",
 *   mustRunJob: true,
 *   describeError: (e) => describeJobError(e, resolve("job.ts")),
 * };
 * ```
 */
export interface ClientProgram {
  /** How messages name the program (`job.ts`, `job.sql`). */
  readonly label: string;
  /** Absolute path of the module imported by the client and by every worker thread. */
  readonly module: string;
  /** The program's arguments (`getJobArgs()`), the same in the client and the workers. */
  readonly args: readonly string[];
  /** Checkpoint directory when neither `--checkpoint-dir` nor the program chose one; `<job>` is the job's name. */
  readonly defaultCheckpointDir: string;
  /** Whether a program that ends without starting a job is a mistake (a job file) or fine (a script of DDL only). */
  readonly mustRunJob: boolean;
  /** The one-line (or located, multi-line) cause of a failure. */
  describeError(e: unknown): string;
}
