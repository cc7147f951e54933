/**
 * The `weir run` / `weir sql` flags that configure the job: each one is a
 * shorthand of configuration keys (docs/configuration.md), and `-D key=value`
 * sets any key. They all write one {@link Configuration}: the command line's,
 * which wins over the job's own settings.
 */
import { checkpointDirectoryOf } from "../checkpoint/storage/checkpoint-location.ts";
import { Configuration } from "../config/configuration.ts";
import { ConfigurationError } from "../config/configuration-error.ts";
import { WORKERS } from "../config/options/weir-options.ts";
import { parseStateBackendName, stateBackendNote } from "../state/state-backend-settings.ts";
import { CliUsageError } from "./cli-usage-error.ts";
import { CONF_DIR_ENV, configFileEntries } from "./config-file.ts";

/** A flag and the keys its value sets, as text (the flag's own check has run). */
interface ConfigFlag {
  readonly type: "string" | "boolean";
  readonly short?: string;
  /** The keys and values the flag's value stands for; throws a CliUsageError for a bad value. */
  readonly keys: (value: string) => readonly (readonly [string, string])[];
}

/** Notes about the flags (Flink's `rocksdb`), logged once logging is configured. */
export const flagNotes: string[] = [];

/** The configuring flags by name (without `--`). */
export const CONFIG_FLAGS: Readonly<Record<string, ConfigFlag>> = {
  parallelism: { type: "string", short: "p", keys: (v) => [["parallelism.default", wholeNumber("--parallelism", v, 1)]] },
  workers: { type: "string", keys: (v) => [["weir.workers", wholeNumber("--workers", v, 0)]] },
  "checkpoint-interval": { type: "string", keys: (v) => [["execution.checkpointing.interval", /^\d+$/.test(v) ? `${v} ms` : v]] },
  mode: {
    type: "string",
    keys: (v) => {
      if (!["exactly-once", "at-least-once", "at-most-once"].includes(v)) throw new CliUsageError(`--mode must be exactly-once, at-least-once or at-most-once, got '${v}'`);
      return [["execution.checkpointing.mode", v.toUpperCase().replaceAll("-", "_")]];
    },
  },
  "checkpoint-dir": {
    type: "string",
    keys: (v) => {
      try {
        checkpointDirectoryOf(v);
      } catch (e) {
        throw new CliUsageError(`--checkpoint-dir: ${(e as Error).message}`);
      }
      return [["state.checkpoint-storage", "filesystem"], ["state.checkpoints.dir", v]];
    },
  },
  fresh: { type: "boolean", keys: () => [["weir.fresh", "true"]] },
  "state-backend": {
    type: "string",
    keys: (v) => {
      try {
        const name = parseStateBackendName(v, "--state-backend");
        const note = stateBackendNote(v);
        if (note) flagNotes.push(note);
        return [["state.backend.type", name]];
      } catch (e) {
        throw new CliUsageError((e as Error).message);
      }
    },
  },
  "from-savepoint": { type: "string", short: "s", keys: (v) => [["execution.savepoint.path", v]] },
  "allow-non-restored-state": { type: "boolean", keys: () => [["execution.savepoint.ignore-unclaimed-state", "true"]] },
  "savepoint-dir": { type: "string", keys: (v) => [["state.savepoints.dir", v]] },
  "restart-attempts": {
    type: "string",
    keys: (v) =>
      wholeNumber("--restart-attempts", v, 0) === "0"
        ? [["restart-strategy.type", "none"]]
        : [["restart-strategy.type", "exponential-delay"], ["restart-strategy.exponential-delay.attempts-before-reset-backoff", v]],
  },
  "task-cancellation-timeout": { type: "string", keys: (v) => [["task.cancellation.timeout", `${wholeNumber("--task-cancellation-timeout", v, 1)} ms`]] },
  "web-port": { type: "string", keys: (v) => [["rest.port", v]] },
  "web-address": { type: "string", keys: (v) => [["rest.address", v]] },
  "web-token": { type: "string", keys: (v) => [["rest.token", v]] },
  "no-web": { type: "boolean", keys: () => [["weir.rest.enabled", "false"]] },
};

/** The `-D` flag's option for `parseArgs`. */
export const DEFINE_FLAG = { D: { type: "string", short: "D", multiple: true } } as const;

/**
 * The command line's configuration from parsed flag values: the configuration file first (`$WEIR_CONF_DIR/config.yaml`,
 * config-file.ts; only for a command that runs here: `local`), then the flags, then each `-D key=value` in order
 * (so `-D` wins over a flag for the same key). `weir.workers` is 1 unless given, for a run in this process
 * (`local`; a run on a cluster, `-m`, has slots instead).
 *
 * @throws {CliUsageError} for a bad or empty flag value, an unknown key (with the key meant) or a value that does not read.
 * @example
 * ```ts
 * commandLineConfiguration({ "checkpoint-interval": "500", D: ["state.backend.type=disk"] }).toMap();
 * // { "execution.checkpointing.interval": "500 ms", "state.backend.type": "disk", "weir.workers": "1" }
 * ```
 */
export function commandLineConfiguration(values: Readonly<Record<string, unknown>>, local = true, confDir = process.env[CONF_DIR_ENV]): Configuration {
  const c = new Configuration();
  try {
    if (local && confDir) for (const e of configFileEntries(confDir)) c.setString(e.key, e.value, e.where);
    for (const [name, flag] of Object.entries(CONFIG_FLAGS)) {
      const v = values[name];
      if (v === undefined || v === false) continue;
      // an empty value (a shell variable that was not set) would read as the flag's absence or as 0: never what was meant
      if (flag.type === "string" && String(v).trim() === "") throw new CliUsageError(`--${name} needs a value, got an empty one`);
      for (const [key, text] of flag.keys(String(v))) c.setString(key, text, `--${name}`);
    }
    for (const d of (values["D"] as string[] | undefined) ?? []) {
      const eq = d.indexOf("=");
      if (eq <= 0) throw new CliUsageError(`-D ${d}: expected -D key=value`);
      c.setString(d.slice(0, eq).trim(), d.slice(eq + 1), `-D ${d}`);
    }
  } catch (e) {
    if (e instanceof ConfigurationError) throw new CliUsageError(e.message);
    throw e;
  }
  if (local && !c.contains(WORKERS)) c.set(WORKERS, 1);
  return c;
}

function wholeNumber(flag: string, s: string, min: number): string {
  const n = Number(s);
  if (!Number.isInteger(n) || n < min) throw new CliUsageError(`${flag} must be a whole number ≥ ${min}, got '${s}'`);
  return String(n);
}
