/**
 * The arguments common to `weir list/cancel/stop/savepoint`: `-m host:port`
 * (a job's REST server instead of this machine's registry) and
 * `--web-token` (else `WEIR_WEB_TOKEN`), parsed with the command's own
 * options; a mistake is a usage error with a did-you-mean.
 */
import { parseArgs } from "node:util";
import { didYouMean } from "../util/did-you-mean.ts";
import { CliUsageError } from "./cli-usage-error.ts";
import type { JobAddress } from "./job-lookup.ts";

type Options = Record<string, { type: "string" | "boolean"; short?: string }>;

/** The environment variable that gives the token when `--web-token` does not. */
export const WEB_TOKEN_ENV = "WEIR_WEB_TOKEN";

/**
 * Parses `args` of `weir <command>` with `options` besides `-m` and `--web-token`; `positionals` is how many
 * arguments the command takes (`[min, max]`), named in the message when there are fewer or more.
 *
 * @example
 * ```ts
 * const { values, positionals, address } = parseJobCommandArgs("stop", args, { drain: { type: "boolean" } }, [1, 1], "a job id");
 * ```
 */
export function parseJobCommandArgs(command: string, args: string[], options: Options, positionals: [number, number], what: string) {
  const all: Options = { jobmanager: { type: "string", short: "m" }, "web-token": { type: "string" }, ...options };
  let parsed;
  try {
    parsed = parseArgs({ args, options: all, allowPositionals: true });
  } catch (e) {
    const err = e as Error & { code?: string };
    if (err.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const flag = /'([^']+)'/.exec(err.message)?.[1] ?? err.message;
      const names = Object.entries(all).flatMap(([k, o]) => (o.short ? [`--${k}`, `-${o.short}`] : [`--${k}`]));
      const near = didYouMean(flag, [...names, "--help"]);
      throw new CliUsageError(`unknown option '${flag}'${near ? ` (did you mean ${near}?)` : ""}`);
    }
    throw new CliUsageError(err.message.split(". ")[0]!.replace(/\.$/, ""));
  }
  const [min, max] = positionals;
  const n = parsed.positionals.length;
  if (n < min) throw new CliUsageError(`${command} needs ${what}`);
  if (n > max) throw new CliUsageError(`${command}: unexpected argument '${parsed.positionals[max]}'`);
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const address: JobAddress = {
    jobmanager: values["jobmanager"] as string | undefined,
    token: (values["web-token"] as string | undefined) ?? (process.env[WEB_TOKEN_ENV] || undefined),
  };
  return { values, positionals: parsed.positionals, address };
}
