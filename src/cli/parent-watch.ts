/**
 * Notices that the process that started this one ended. A supervisor that
 * kills `npx weir run …` with SIGKILL kills npm, not its children: without
 * this, the engine would go on as an orphan, and a second run would make two
 * writers of the same checkpoints and output. `npm exec` runs the command
 * through `sh -c`, which outlives npm too, so the watch climbs through such
 * shells and watches the process that started them.
 *
 * On Linux, a watched process has ended when its child on the way down to
 * this process was re-parented (read from /proc, so a reused pid cannot fool
 * it); elsewhere only the parent is watched, ended when signal 0 to it fails.
 *
 * @example
 * ```ts
 * const watch = watchParent((pid) => console.error(`process ${pid} ended`));
 * // … later
 * watch.stop();
 * ```
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";

/** How often the parents are checked. */
export const PARENT_POLL_MS = 500;

/** Shells that `npm exec` and others put between a wrapper and its command (`sh -c "weir run …"`). */
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ash"]);

/** A running watch. */
export interface ParentWatch {
  stop(): void;
}

/** The parent of process `pid` (Linux: from /proc), or undefined if it is gone or cannot be read. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

/** Process `pid` is a shell running one command line (`sh -c …`). */
function isShellCommand(pid: number): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return SHELLS.has(basename(argv[0] ?? "")) && argv[1] === "-c";
  } catch {
    return false;
  }
}

/**
 * Calls `onGone(pid)` once when this process's parent, or a process that
 * started it through `sh -c`, ended. Watches nothing when started by init
 * (already an orphan, or a service). The timer does not keep the process alive.
 */
export function watchParent(onGone: (pid: number) => void, pollMs = PARENT_POLL_MS): ParentWatch {
  /** Each watched process `pid`, with `child`, its child on the way down to this process. */
  const watched: { pid: number; child: number }[] = [];
  const procfs = parentOf(process.pid) !== undefined;
  let child = process.pid;
  let pid = procfs ? parentOf(process.pid)! : process.ppid;
  while (pid > 1) {
    watched.push({ pid, child });
    if (!procfs || !isShellCommand(pid)) break;
    const next = parentOf(pid);
    if (next === undefined) break;
    [child, pid] = [pid, next];
  }
  // a process ended when its child was re-parented (or is gone itself: then a process further down notices too)
  const ended = ({ pid, child }: { pid: number; child: number }): boolean => {
    if (procfs) return parentOf(child) !== pid;
    try {
      process.kill(pid, 0);
      return false;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === "ESRCH";
    }
  };
  const timer =
    watched.length === 0
      ? undefined
      : setInterval(() => {
          const gone = watched.find(ended);
          if (!gone) return;
          clearInterval(timer);
          onGone(gone.pid);
        }, pollMs);
  timer?.unref();
  return { stop: () => clearInterval(timer) };
}
