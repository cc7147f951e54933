/**
 * Recovery time of a crashed `weir run`: starts bench/jobs/keyed-payload.ts
 * as a child process (`node bin/weir-dev.mjs run …`, parallelism 2, 1 worker
 * thread, exactly-once checkpoints every second to a temporary directory),
 * waits for a completed checkpoint holding at least the wished state, kills
 * the child with SIGKILL, starts the same command again and waits for the
 * marker of the first record processed after the restore.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { METADATA_FILE, checkpointDirName, parseCheckpointDirName } from "../src/checkpoint/storage/checkpoint-paths.ts";
import { parseMarker, type PayloadMarker } from "./jobs/payload-marker.ts";
import { recoveryFigures, type RecoveryFigures } from "./report.ts";

const WEIR = fileURLToPath(new URL("../bin/weir-dev.mjs", import.meta.url));
const JOB = fileURLToPath(new URL("./jobs/keyed-payload.ts", import.meta.url));
/** Longest wait for the first run's checkpoint, and for the restarted run's first record. */
const DEADLINE_MS = 90_000;
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

/**
 * Measures kill-to-first-record of the keyed-payload job with about
 * `stateBytes` of keyed state.
 *
 * @example
 * ```ts
 * const r = await measureRecovery(10 * 2 ** 20);
 * console.log(`${r.killToFirstRecordMs} ms`);
 * ```
 */
export async function measureRecovery(stateBytes: number): Promise<RecoveryFigures> {
  const dir = await mkdtemp(join(tmpdir(), "weir-bench-recovery-"));
  const args = [WEIR, "run", JOB, "--parallelism", "2", "--workers", "1", "--checkpoint-interval", "1000", "--checkpoint-dir", join(dir, "chk"), "--savepoint-dir", join(dir, "savepoints"), "--", String(stateBytes)];
  let job = start(args);
  try {
    const checkpointBytes = await waitFor(job, stateBytes, "no checkpoint of the wished size completed", () => completedCheckpointBytes(join(dir, "chk"), stateBytes));
    const killedAt = Date.now();
    job.child.kill("SIGKILL");
    if (!job.exited) await once(job.child, "exit");
    job = start(args);
    const first = await waitFor(job, stateBytes, "the restarted job processed no record", async () => job.markers.find((m) => m.event === "first-record"));
    const module = job.markers.find((m) => m.event === "module");
    if (first.event !== "first-record" || !module) throw new BenchRecoveryError(stateBytes, "the restarted job wrote no module marker", job.stderrTail);
    if (!first.keyRestored) throw new BenchRecoveryError(stateBytes, "the first record after the restart found no restored state for its key", job.stderrTail);
    return recoveryFigures({ stateBytes, checkpointBytes, killedAt, moduleAt: module.at, firstRecordAt: first.at });
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

/** Polls `probe` until it gives a value; fails when the job exits or after `DEADLINE_MS`. */
async function waitFor<T>(job: JobProcess, stateBytes: number, failure: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (job.exited) throw new BenchRecoveryError(stateBytes, `${failure}: the job exited with code ${job.child.exitCode}`, job.stderrTail);
    if (Date.now() > deadline) throw new BenchRecoveryError(stateBytes, `${failure} within ${DEADLINE_MS / 1000} s`, job.stderrTail);
    await sleep(POLL_MS);
  }
}

/** Bytes of the newest completed checkpoint in `dir` if they reach `minBytes`. */
async function completedCheckpointBytes(dir: string, minBytes: number): Promise<number | undefined> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return undefined; // not created yet
  }
  const ids = names.map(parseCheckpointDirName).filter((id): id is number => id !== null).sort((a, b) => b - a);
  for (const id of ids) {
    const chk = join(dir, checkpointDirName(id));
    try {
      const files = await readdir(chk);
      if (!files.includes(METADATA_FILE)) continue; // still being written
      let bytes = 0;
      for (const f of files) bytes += (await stat(join(chk, f))).size;
      return bytes >= minBytes ? bytes : undefined;
    } catch {
      continue; // removed by retention meanwhile
    }
  }
  return undefined;
}
