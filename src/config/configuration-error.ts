/**
 * A configuration key or value that cannot be used, located at where it was
 * given (`-D …`, `--checkpoint-interval`, `SET …`, `StreamExecutionEnvironment.create`).
 */
export class ConfigurationError extends Error {
  override readonly name = "ConfigurationError";
  constructor(
    /** The key as given. */
    readonly key: string,
    /** What is wrong, without the place (`unknown configuration key …`, `invalid value …`). */
    readonly detail: string,
    /** Where the setting was given, e.g. `-D execution.checkpointing.interval=1s`. */
    readonly where?: string,
    /** For an unknown key: the known key it is most likely a typo of. */
    readonly meant?: string,
  ) {
    super(where === undefined ? detail : `${where}: ${detail}`);
  }
}
