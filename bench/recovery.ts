/**
 * Recovery time of a crashed `weir run`: starts bench/jobs/keyed-payload.ts
 * as a child process (`node bin/weir-dev.mjs run …`, parallelism 2, 1 worker
 * thread, exactly-once checkpoints every second to a temporary directory,
 * `--state-backend` as asked), waits for a completed checkpoint holding at
 * least the wished state, kills the child with SIGKILL, starts the same
 * command again and waits for the marker of the first record processed after
 * the restore. For a restore of the disk backend from checkpoint storage, the
 * backend's local working copy (`<checkpoint-dir>.local`) is deleted between
 * the kill and the restart.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import type { CompletedCheckpoint } from "../src/checkpoint/types.ts";
import type { StateBackendName } from "../src/state/state-backend-settings.ts";
import { readCompletedCheckpoints } from "./checkpoint-metadata.ts";
import { parseMarker, type PayloadMarker } from "./jobs/payload-marker.ts";
import { recoveryFigures, type RecoveryFigures } from "./report.ts";
import { checkpointTotalBytes, type RestoreSource } from "./state-report.ts";

const WEIR = fileURLToPath(new URL("../bin/weir-dev.mjs", import.meta.url));
const JOB = fileURLToPath(new URL("./jobs/keyed-payload.ts", import.meta.url));
/** Longest wait for the first run's checkpoint, and for the restarted run's first record: 90 s, and 2 minutes more per GB of state (a full heap checkpoint of 1 GB takes 15–50 s here). */
function deadlineMs(stateBytes: number): number {
  return 90_000 + (stateBytes / 1e9) * 120_000;
}
const POLL_MS = 20;

/** The recovery measurement failed: no checkpoint, no restore, or a restore without the state. */
export class BenchRecoveryError extends Error {
  constructor(stateBytes: number, reason: string, stderrTail: readonly string[]) {
    super(`recovery bench with ${stateBytes} bytes of state: ${reason}${stderrTail.length ? `\nlast lines of the job's stderr:\n${stderrTail.join("\n")}` : ""}`);
    this.name = "BenchRecoveryError";
  }
}

/** A `weir run` child and the markers and stderr lines it wrote so far. */
interface JobProcess {
  readonly child: ChildProcess;
  readonly markers: PayloadMarker[];
  readonly stderrTail: string[];
  exited: boolean;
}

/** The state backend of a recovery run and where its restore reads the keyed state from. */
export interface RecoveryRunOptions {
  /** Default `"heap"`. */
  readonly backend?: StateBackendName;
  /**
   * Default `"checkpoint storage"`. `"local copy"` keeps the disk backend's
   * working copy for the restart (local recovery); with the disk backend,
   * `"checkpoint storage"` deletes it after the kill. The heap backend always
   * restores from checkpoint storage.
   */
  readonly from?: RestoreSource;
}

/**
 * Measures kill-to-first-record of the keyed-payload job with about
 * `stateBytes` of keyed state.
 *
 * @example
 * ```ts
 * const r = await measureRecovery(10 * 2 ** 20);
 * const local = await measureRecovery(1e9, { backend: "disk", from: "local copy" });
 * console.log(`${r.killToFirstRecordMs} ms, ${local.killToFirstRecordMs} ms`);
 * ```
 */
export async function measureRecovery(stateBytes: number, options: RecoveryRunOptions = {}): Promise<RecoveryFigures> {
  const [figures] = await measureRestarts(stateBytes, options.backend ?? "heap", [options.from ?? "checkpoint storage"]);
  return figures!;
}

/**
 * Like {@link measureRecovery}, but kills and restarts the same job once per
 * entry of `froms`, restoring from that source each time: the state is
 * filled and checkpointed once for all of them. Before each further kill the
 * restarted job completes a checkpoint of its own (so that a disk backend's
 * local copy matches a checkpoint again).
 *
 * @example
 * ```ts
 * const [local, remote] = await measureRestarts(1e9, "disk", ["local copy", "checkpoint storage"]);
 * ```
 */
export async function measureRestarts(stateBytes: number, backend: StateBackendName, froms: readonly RestoreSource[]): Promise<RecoveryFigures[]> {
  if (backend === "heap" && froms.includes("local copy")) throw new RangeError("measureRestarts: the heap backend has no local copy to restore from");
  const dir = await mkdtemp(join(tmpdir(), "weir-bench-recovery-"));
  const checkpointDir = join(dir, "chk");
  const args = [WEIR, "run", JOB, "--parallelism", "2", "--workers", "1", "--checkpoint-interval", "1000", "--checkpoint-dir", checkpointDir, "--savepoint-dir", join(dir, "savepoints"), "--state-backend", backend, "--", String(stateBytes)];
  let job = start(args);
  try {
    const known = new Map<number, CompletedCheckpoint>();
    const figures: RecoveryFigures[] = [];
    let killedAfter = 0;
    for (const from of froms) {
      const wished = figures.length === 0 ? "no checkpoint of the wished size completed" : "the restarted job completed no checkpoint of the wished size";
      const [id, checkpointBytes] = await waitFor(job, stateBytes, wished, () => newCheckpointBytes(checkpointDir, known, stateBytes, killedAfter));
      killedAfter = id;
      const killedAt = Date.now();
      job.child.kill("SIGKILL");
      if (!job.exited) await once(job.child, "exit");
      if (backend === "disk" && from === "checkpoint storage") {
        const local = `${checkpointDir}.local`;
        if (!(await stat(local).catch(() => undefined))) throw new BenchRecoveryError(stateBytes, `the disk backend left no working copy at ${local} to delete`, job.stderrTail);
        await rm(local, { recursive: true, force: true });
      }
      job = start(args);
      const first = await waitFor(job, stateBytes, "the restarted job processed no record", async () => job.markers.find((m) => m.event === "first-record"));
      const module = job.markers.find((m) => m.event === "module");
      if (first.event !== "first-record" || !module) throw new BenchRecoveryError(stateBytes, "the restarted job wrote no module marker", job.stderrTail);
      if (!first.keyRestored) throw new BenchRecoveryError(stateBytes, "the first record after the restart found no restored state for its key", job.stderrTail);
      figures.push(recoveryFigures({ stateBytes, checkpointBytes, killedAt, moduleAt: module.at, firstRecordAt: first.at }));
    }
    return figures;
  } finally {
    if (!job.exited) {
      job.child.kill("SIGKILL");
      await once(job.child, "exit");
    }
    await rm(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
}

/** Starts `node <args>`, collecting its markers and the last lines of its stderr. */
function start(args: readonly string[]): JobProcess {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
  const job: JobProcess = { child, markers: [], stderrTail: [], exited: false };
  child.once("exit", () => (job.exited = true));
  createInterface({ input: child.stderr! }).on("line", (line) => {
    const marker = parseMarker(line);
    if (marker) job.markers.push(marker);
    else job.stderrTail.splice(0, Math.max(0, job.stderrTail.length - 19), line);
  });
  return job;
}

/** Polls `probe` until it gives a value; fails when the job exits or after `deadlineMs(stateBytes)`. */
async function waitFor<T>(job: JobProcess, stateBytes: number, failure: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + deadlineMs(stateBytes);
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (job.exited) throw new BenchRecoveryError(stateBytes, `${failure}: the job exited with code ${job.child.exitCode}`, job.stderrTail);
    if (Date.now() > deadline) throw new BenchRecoveryError(stateBytes, `${failure} within ${Math.round(deadlineMs(stateBytes) / 1000)} s`, job.stderrTail);
    await sleep(POLL_MS);
  }
}

/**
 * The id and state bytes (private files and the shared files of incremental
 * chains) of the newest completed checkpoint in `dir`, if it is newer than
 * `after` and its bytes reach `minBytes`; `known` keeps the checkpoints read
 * by earlier calls.
 */
async function newCheckpointBytes(dir: string, known: Map<number, CompletedCheckpoint>, minBytes: number, after: number): Promise<[number, number] | undefined> {
  await readCompletedCheckpoints(dir, known);
  const newest = Math.max(0, ...known.keys());
  if (newest <= after) return undefined;
  const bytes = checkpointTotalBytes(known.get(newest)!);
  return bytes >= minBytes ? [newest, bytes] : undefined;
}
