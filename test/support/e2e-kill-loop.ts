/**
 * Crash loops for the end-to-end suites: runs a `weir run` command, kills it
 * with SIGKILL at seeded random moments after a checkpoint of that run
 * completed, and starts the same command again until a run finishes.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { startCli, type CliRun, type RunningCli } from "./cli-process.ts";
import { randomInt } from "../../src/util/seeded-random.ts";

/** Ids of the completed checkpoints (`chk-N/_metadata`) in `directory`, ascending. */
export function completedCheckpointIds(directory: string): number[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((n) => /^chk-\d+$/.test(n) && existsSync(join(directory, n, "_metadata")))
    .map((n) => Number(n.slice(4)))
    .sort((a, b) => a - b);
}

/** The highest completed checkpoint id in `directory`, 0 when there is none. */
export function latestCheckpointId(directory: string): number {
  return completedCheckpointIds(directory).at(-1) ?? 0;
}

/** Resolves after `ms` (only to place a kill at a random moment, never to wait for a condition). */
export function pause(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** What the crash loop did. */
export interface KillLoopReport {
  /** Runs killed with SIGKILL, with the delay after that run's first checkpoint and the checkpoint ids seen. */
  readonly kills: { readonly delayMs: number; readonly checkpointBefore: number; readonly checkpointAtKill: number }[];
  /** The run that ended by itself. */
  readonly last: CliRun;
  /** stderr of every run, in order, for failure messages. */
  readonly stderrs: string[];
}

/** Settings of a crash loop. */
export interface KillLoopOptions {
  /** `weir run` arguments; the same for every run. */
  readonly command: readonly string[];
  /** The `--checkpoint-dir` of the command. */
  readonly checkpointDir: string;
  /** The highest completed checkpoint id (default: `latestCheckpointId` of the local `checkpointDir`; an `s3://` one needs its own). */
  readonly latestCheckpoint?: () => Promise<number>;
  /** Runs to kill before letting one finish. */
  readonly kills: number;
  /** Seeded random numbers for the kill delays. */
  readonly random: () => number;
  /** Kill delay range after the run's first completed checkpoint, in ms. */
  readonly delayMs: readonly [number, number];
  /** Deadline of each wait (first checkpoint of a run, end of the last run). */
  readonly timeoutMs: number;
  /** Extra environment of the child. */
  readonly env?: NodeJS.ProcessEnv;
  /** Called once the kills are done, before the last run starts (e.g. to open a gate the job waits at). */
  readonly beforeLastRun?: () => void;
}

/**
 * Runs `command` `kills` times, each time SIGKILLing it a random delay after
 * a checkpoint newer than every earlier one completed (so every killed run
 * makes progress), then once more to its end. A run that ends by itself
 * before it is killed ends the loop early: the caller checks `kills.length`.
 */
export async function killLoop(o: KillLoopOptions): Promise<KillLoopReport> {
  const kills: { delayMs: number; checkpointBefore: number; checkpointAtKill: number }[] = [];
  const stderrs: string[] = [];
  const latest = o.latestCheckpoint ?? (async () => latestCheckpointId(o.checkpointDir));
  while (kills.length < o.kills) {
    const before = await latest();
    const run = startCli(o.command, o.env);
    let ended = false;
    void run.done.then(() => (ended = true));
    try {
      const deadline = Date.now() + o.timeoutMs;
      while (!ended && (await latest()) <= before) {
        if (Date.now() > deadline) throw new Error(`timed out after ${o.timeoutMs} ms waiting for a checkpoint after ${before} in ${o.checkpointDir}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    } catch (e) {
      run.child.kill("SIGKILL");
      throw new Error(`${(e as Error).message}\nstderr:\n${run.stderr()}`);
    }
    const delayMs = randomInt(o.random, o.delayMs[0], o.delayMs[1]);
    if (!ended) await pause(delayMs);
    if (!ended) run.child.kill("SIGKILL");
    const r = await run.done;
    stderrs.push(r.stderr);
    if (r.signal !== "SIGKILL") return { kills, last: r, stderrs };
    kills.push({ delayMs, checkpointBefore: before, checkpointAtKill: await latest() });
  }
  o.beforeLastRun?.();
  const last = await finish(startCli(o.command, o.env), o.timeoutMs);
  stderrs.push(last.stderr);
  return { kills, last, stderrs };
}

/**
 * Waits for a started child to end by itself, however it ends (exit code or
 * signal); after `timeoutMs` kills it and rejects, so that a signal in the
 * result is always the child's own.
 */
export async function finish(run: RunningCli, timeoutMs: number): Promise<CliRun> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    run.child.kill("SIGKILL");
  }, timeoutMs);
  try {
    const r = await run.done;
    if (timedOut) throw new Error(`weir did not end within ${timeoutMs} ms\nstderr:\n${r.stderr}`);
    return r;
  } finally {
    clearTimeout(timer);
  }
}

/** Asserts that a crash loop ended as meant: `kills` runs killed, then a run that restored from a checkpoint and exited 0 (`where` prefixes the messages). */
export function expectLoopEndedCleanly(report: KillLoopReport, kills: number, where: string): void {
  expect(report.kills.length, `${where}: a run finished before ${kills} kills`).toBe(kills);
  expect(report.last.code, `${where}: last run\n${report.last.stderr}`).toBe(0);
  expect(report.last.stderr, `${where}: the last run did not restore`).toMatch(/restored from checkpoint \d+/);
}
