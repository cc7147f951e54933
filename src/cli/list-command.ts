/**
 * `weir list [--all] [-m host:port]`: the jobs running on this machine (from
 * the job registry, states from each job's REST server), or at one REST
 * server: id, name, state, start time, web address. `--all` adds the ended
 * jobs the servers still know and the stale registry entries of processes
 * that died without removing them, which it then removes.
 */
import { removeStaleEntry } from "../deploy/job-registry.ts";
import { getLogger } from "../util/logger.ts";
import { parseJobCommandArgs } from "./job-command-args.ts";
import { isRunning, listJobs, type ListedJob } from "./job-lookup.ts";

/**
 * Runs `weir list`; resolves with the exit code.
 *
 * @example
 * ```ts
 * await runListCommand(["--all"]); // prints the table on stdout
 * ```
 */
export async function runListCommand(args: string[]): Promise<number> {
  const { values, address } = parseJobCommandArgs("list", args, { all: { type: "boolean", short: "a" } }, [0, 0], "no arguments");
  const all = values["all"] === true;
  const jobs = await listJobs(address);
  const shown = all ? jobs : jobs.filter(isRunning);
  process.stdout.write(shown.length === 0 ? (all ? "No jobs.\n" : "No running jobs.\n") : jobTable(shown));
  const stale = jobs.filter((j) => j.state === "STALE");
  if (stale.length === 0) return 0;
  const log = getLogger();
  if (!all) {
    log.info(`${stale.length} stale registry entr${stale.length === 1 ? "y" : "ies"} of processes that ended without removing them: weir list --all shows and removes them`);
    return 0;
  }
  for (const j of stale) await removeStaleEntry(j.entry!);
  log.info(`removed ${stale.length} stale registry entr${stale.length === 1 ? "y" : "ies"} (STALE: the process ended without removing it)`);
  return 0;
}

/** The jobs as a table with a header, columns as wide as their widest value. */
export function jobTable(jobs: readonly ListedJob[]): string {
  const rows = [["JOB ID", "NAME", "STATE", "START TIME", "WEB"], ...jobs.map((j) => [j.jobId, j.name, j.state, localTime(j.startTime), j.webUrl])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ") + "\n").join("");
}

/** `2026-12-02 21:03:07` in the local time zone. */
function localTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
