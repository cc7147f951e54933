/**
 * Runs the `weir` command line in a child process for the engine suites: to
 * completion with a deadline, or in the background to be killed. It runs the
 * CLI of the repository (bin/weir-dev.mjs: the test bundle of src/ that vitest builds, or src/ itself through tsx),
 * as the fixture jobs import src/.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The repository root: the working directory of a child unless told otherwise. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = fileURLToPath(new URL("../../bin/weir-dev.mjs", import.meta.url));
const SHIPPED_BIN = fileURLToPath(new URL("../../bin/weir.mjs", import.meta.url));

/** How a finished child ended and what it printed. */
export interface CliRun {
  /** Exit code; null when killed by a signal. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A child still running: its output so far, and its end. */
export interface RunningCli {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  readonly done: Promise<CliRun>;
}

/** Where a child runs: its working directory, and which `weir` it runs. */
export interface CliPlace {
  /** Working directory (the repository root by default). */
  readonly cwd?: string;
  /** Run the shipped command (bin/weir.mjs on the built dist/), for jobs that import "weirjs" as a user's do. */
  readonly shipped?: boolean;
  /**
   * Let `weir run` type-check the job first. Off by default: the fixture jobs import src/, so checking one
   * checks all of Weir's sources (seconds each); `npx tsc --noEmit` checks them once for the suite.
   */
  readonly typecheck?: boolean;
  /** Run the child as this user (and group of the same id): a root test's way to meet a directory it may not write. */
  readonly uid?: number;
  /** A command prefix that runs node elsewhere: a host of a test network (`ip netns exec <namespace>`, test/support/network-hosts.ts). */
  readonly launcher?: readonly string[];
}

/** Starts `node bin/weir-dev.mjs ...args` (or the shipped bin/weir.mjs) in the repository root or `place.cwd` (through `place.launcher`). */
export function startCli(args: readonly string[], env: NodeJS.ProcessEnv = {}, place: CliPlace = {}): RunningCli {
  const bin = place.shipped ? SHIPPED_BIN : BIN;
  const all = args[0] === "run" && !place.typecheck ? withFlag(args, "--no-typecheck") : args;
  const [command, ...prefix] = [...(place.launcher ?? []), process.execPath];
  const child = spawn(command!, [...prefix, bin, ...all], {
    cwd: place.cwd ?? ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    ...(place.uid === undefined ? {} : { uid: place.uid, gid: place.uid }),
  });
  return { child, ...collectOutput(child) };
}

/** What a child process writes on standard output and error so far, and its end with all of it. */
export function collectOutput(child: ChildProcess): { stdout(): string; stderr(): string; done: Promise<CliRun> } {
  let out = "";
  let err = "";
  child.stdout!.setEncoding("utf8").on("data", (s: string) => (out += s));
  child.stderr!.setEncoding("utf8").on("data", (s: string) => (err += s));
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout: out, stderr: err }));
  });
  return { stdout: () => out, stderr: () => err, done };
}

/** Runs the CLI (as {@link startCli}) to its end; kills it and rejects after `timeoutMs`. */
export async function runCli(args: readonly string[], timeoutMs = 120_000, env: NodeJS.ProcessEnv = {}, place: CliPlace = {}): Promise<CliRun> {
  const run = startCli(args, env, place);
  const timer = setTimeout(() => run.child.kill("SIGKILL"), timeoutMs);
  try {
    const r = await run.done;
    if (r.signal === "SIGKILL") throw new Error(`weir ${args.join(" ")} did not end within ${timeoutMs} ms\nstderr:\n${r.stderr}`);
    return r;
  } finally {
    clearTimeout(timer);
  }
}

/** The last line of `stdout` that parses as a JSON object (what the fixture jobs print). */
export function jsonResult<T>(run: CliRun): T {
  const lines = run.stdout.trim().split("\n").reverse();
  for (const line of lines) {
    if (!line.startsWith("{")) continue;
    try {
      return JSON.parse(line) as T;
    } catch {
      // not the result line
    }
  }
  throw new Error(`no JSON result on stdout (exit ${run.code})\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`);
}

/** Resolves when `condition()` is true, polling every `everyMs`; rejects with `what` after `timeoutMs`. */
export async function waitFor(what: string, condition: () => boolean, timeoutMs = 20_000, everyMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** `args` with `flag` among weir's own flags: before the job's arguments (`--`), else last. */
function withFlag(args: readonly string[], flag: string): string[] {
  const end = args.indexOf("--");
  return end < 0 ? [...args, flag] : [...args.slice(0, end), flag, ...args.slice(end)];
}
