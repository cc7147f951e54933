/**
 * The commands that operate running jobs through their REST API: `weir
 * list`, `cancel`, `stop`, `savepoint`. A job that cannot be found, a server
 * that cannot be reached or a savepoint that failed is one error line and
 * exit 1.
 */
import { getLogger } from "../util/logger.ts";
import { JobNotFoundError } from "./job-lookup.ts";
import { WEB_TOKEN_ENV } from "./job-command-args.ts";
import { RestRequestError, RestUnreachableError, SavepointFailedError } from "./rest-client.ts";

/** The names of the job commands, for `main`'s dispatch and "did you mean". */
export const JOB_COMMANDS = ["list", "cancel", "stop", "savepoint"] as const;

/** Usage of the job commands (part of `weir --help`). */
export const JOB_COMMANDS_USAGE = `Operating running jobs (see docs/running-jobs.md):
  weir list [--all]         jobs running on this machine: id, name, state, start time, web address
                            (--all: also ended jobs and stale entries of processes that died, which it removes)
  weir cancel <job-id>      cancels the job (no savepoint)
  weir stop <job-id> [--savepoint-path DIR] [--drain]
                            stops the job with a savepoint (DIR default: the job's --savepoint-dir) and
                            prints its path; --drain ends event time first (windows and timers fire)
  weir savepoint <job-id> [DIR]
                            takes a savepoint while the job goes on and prints its path
  A job id may be shortened to a unique prefix of 4 or more hex digits. Options of these commands:
  -m, --jobmanager HOST:PORT  the job's REST server instead of this machine's job registry
  --web-token TOKEN         for servers that ask for a token (else WEIR_WEB_TOKEN; not needed for
                            jobs found in the registry)`;

/**
 * Runs job command `command` with `args`; resolves with the exit code.
 *
 * @example
 * ```ts
 * await runJobCommand("list", ["--all"]);
 * ```
 */
export async function runJobCommand(command: (typeof JOB_COMMANDS)[number], args: string[]): Promise<number> {
  try {
    switch (command) {
      case "list":
        return await (await import("./list-command.ts")).runListCommand(args);
      case "cancel":
        return await (await import("./cancel-command.ts")).runCancelCommand(args);
      case "stop":
        return await (await import("./stop-command.ts")).runStopCommand(args);
      case "savepoint":
        return await (await import("./savepoint-command.ts")).runSavepointCommand(args);
    }
  } catch (e) {
    if (e instanceof RestRequestError && e.status === 401) {
      getLogger().error(`${e.message} (the server asks for its token: give it with --web-token or ${WEB_TOKEN_ENV})`);
      return 1;
    }
    if (e instanceof JobNotFoundError || e instanceof RestUnreachableError || e instanceof RestRequestError || e instanceof SavepointFailedError) {
      getLogger().error(e.message);
      return 1;
    }
    throw e;
  }
}
