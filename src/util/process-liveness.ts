/**
 * Whether the process that wrote a lock or a file is still running: known
 * for a process of this host (by pid, and by its start time against pid
 * reuse), unknowable for another host.
 */
import { readFileSync } from "node:fs";
import { hostname } from "node:os";

/** A process as a lock or a file name records it. */
export interface ProcessIdentity {
  readonly pid: number;
  /** `os.hostname()` of its machine. */
  readonly host: string;
  /** When the process started, in epoch milliseconds (see `thisProcess`); absent in records that do not keep it. */
  readonly processStartedAt?: number;
}

/** "alive": running (or this host cannot tell it is not); "dead": provably not running; "other-host": cannot be checked from here. */
export type Liveness = "alive" | "dead" | "other-host";

/** Two start times of one process, computed at different moments, differ by less than this. */
const SAME_START_MS = 2_000;

/**
 * This process: its pid, host and start time (the same in every worker
 * thread of the process; another process that later gets the same pid has
 * another start time).
 *
 * @example
 * ```ts
 * const me = thisProcess(); // { pid: 4242, host: "build-7", processStartedAt: 1796196872309 }
 * ```
 */
export function thisProcess(): Required<ProcessIdentity> {
  return { pid: process.pid, host: hostname(), processStartedAt: Math.round(Date.now() - process.uptime() * 1000) };
}

/**
 * Whether `owner` runs. A process of another host is "other-host". With this
 * process's pid, it is this process ("alive") unless its recorded start time
 * differs from ours: then it was an earlier process that had the same pid
 * (a restarted container) and is "dead". Any other pid is "dead" when
 * signal 0 finds no such process (ESRCH), or (on Linux) when it is a zombie
 * (killed, not yet reaped by its parent) or the process with that pid
 * started after the recorded start time: the pid was reused.
 * Else it is "alive" (EPERM too: it runs as another user).
 *
 * @example
 * ```ts
 * processLiveness({ pid: 999_999, host: hostname() }); // "dead" (no such process)
 * processLiveness(thisProcess());                      // "alive"
 * ```
 */
export function processLiveness(owner: ProcessIdentity, me: Required<ProcessIdentity> = thisProcess()): Liveness {
  if (owner.host !== me.host) return "other-host";
  if (owner.pid === me.pid) {
    const start = owner.processStartedAt;
    return start !== undefined && Math.abs(start - me.processStartedAt) > SAME_START_MS ? "dead" : "alive";
  }
  if (!Number.isSafeInteger(owner.pid) || owner.pid <= 0) return "dead";
  try {
    process.kill(owner.pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH" ? "dead" : "alive";
  }
  const stat = procStat(owner.pid);
  if (stat?.state === "Z" || stat?.state === "X") return "dead"; // killed, not yet reaped by its parent
  const start = owner.processStartedAt === undefined || stat === undefined ? undefined : startTime(stat.ticks, me);
  return start !== undefined && start > owner.processStartedAt! + REUSED_AFTER_MS ? "dead" : "alive";
}

/** A process with the owner's pid that started this much later than the owner is another process. */
const REUSED_AFTER_MS = 5_000;
/** `/proc` start times (whole-second boot time, 100 Hz ticks) agree with `thisProcess()` within this. */
const CALIBRATION_MS = 3_000;

/** Linux's `/proc/<pid>/stat`: the state letter and the start in clock ticks since boot; undefined elsewhere or when unreadable. */
function procStat(pid: number | "self"): { state: string; ticks: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // from field 3, after "pid (comm) "
    const ticks = Number(fields[19]); // field 22, starttime
    return fields[0] !== undefined && Number.isFinite(ticks) ? { state: fields[0], ticks } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The epoch ms of a start at `ticks` after boot (`/proc/stat` boot time,
 * 100 Hz ticks), or undefined when the same computation for this process
 * disagrees with `me` (another tick rate): then pid reuse is not checked.
 */
function startTime(ticks: number, me: Required<ProcessIdentity>): number | undefined {
  let boot: number;
  try {
    boot = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
  } catch {
    return undefined;
  }
  const self = procStat("self");
  if (!Number.isFinite(boot) || self === undefined || Math.abs(boot * 1000 + self.ticks * 10 - me.processStartedAt) > CALIBRATION_MS) return undefined;
  return boot * 1000 + ticks * 10;
}
