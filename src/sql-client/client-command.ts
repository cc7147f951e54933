/**
 * The statements the SQL client handles itself rather than the table
 * environment: HELP, QUIT/EXIT, CLEAR, SHOW JOBS and STOP JOB (Flink's SQL
 * client commands).
 */

/** A command of the client. */
export type ClientCommand =
  | { kind: "help" }
  | { kind: "quit" }
  | { kind: "clear" }
  | { kind: "showJobs" }
  /** `BEGIN STATEMENT SET;`: the INSERTs up to `END;` run as one job (Flink's client-side statement set). */
  | { kind: "beginStatementSet" }
  | { kind: "endStatementSet" }
  | { kind: "stopJob"; jobId: string; savepoint: boolean; drain: boolean };

/**
 * The client command `text` (one statement without its `;`), or undefined
 * when it is SQL for the table environment. Keywords are case-insensitive.
 *
 * @example
 * ```ts
 * clientCommand("STOP JOB 'a1b2' WITH SAVEPOINT"); // { kind: "stopJob", jobId: "a1b2", savepoint: true, drain: false }
 * clientCommand("SELECT 1"); // undefined
 * ```
 */
export function clientCommand(text: string): ClientCommand | undefined {
  const t = text.trim().replace(/\s+/g, " ");
  if (/^help$/i.test(t)) return { kind: "help" };
  if (/^(quit|exit)$/i.test(t)) return { kind: "quit" };
  if (/^clear$/i.test(t)) return { kind: "clear" };
  if (/^show jobs$/i.test(t)) return { kind: "showJobs" };
  if (/^begin statement set$/i.test(t)) return { kind: "beginStatementSet" };
  if (/^end$/i.test(t)) return { kind: "endStatementSet" };
  const stop = /^stop job '([^']*)'((?: with (?:savepoint|drain))*)$/i.exec(t);
  if (stop) {
    const withs = stop[2]!.toUpperCase();
    return { kind: "stopJob", jobId: stop[1]!, savepoint: withs.includes("SAVEPOINT"), drain: withs.includes("DRAIN") };
  }
  return undefined;
}

/** What `HELP;` prints. */
export const HELP_TEXT = `The following commands are available:

CLEAR           Clears the screen.
EXIT, QUIT      Quits the SQL client (also Ctrl-D).
HELP            Prints this help.
SHOW JOBS       Lists the jobs started in this session and the jobs running in other weir processes
                on this machine (weir list): id, name, status, start time.
STOP JOB 'id' [WITH SAVEPOINT [WITH DRAIN]]
                Stops a job (cancels it without a savepoint); with a savepoint, prints its path (see
                'state.savepoints.dir'); WITH DRAIN ends event time first (windows fire). Jobs of other
                processes are stopped through their REST API; an id may be shortened to a unique prefix.
SET 'key' = 'value'
                Sets a session key; SET lists them, RESET 'key' restores the default.
                Result modes: SET 'sql-client.execution.result-mode' = 'table' | 'changelog' | 'tableau'.
                Start the next INSERT from a savepoint: SET 'execution.savepoint.path' = '<path>'.
SQL statements  CREATE/DROP TABLE, VIEW, FUNCTION; SHOW TABLES/VIEWS/FUNCTIONS; DESCRIBE t;
                EXPLAIN …; SELECT … (shows the result; Ctrl-C cancels it);
                INSERT INTO … and EXECUTE STATEMENT SET BEGIN … END (run as background jobs);
                BEGIN STATEMENT SET; INSERT INTO …; INSERT INTO …; END; (one job).

Statements end with ';' and may span several lines. Tab completes keywords and table names.`;
