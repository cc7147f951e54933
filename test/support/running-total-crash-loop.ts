/**
 * The DataStream crash loop of the kill-loop suites: `weir run` of the running-total job (FileSource → keyBy →
 * running total in keyed state → FileSink) at parallelism 2 on 2 workers, SIGKILLed at seeded random moments and
 * restarted with the same command until a run finishes.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { expectLoopEndedCleanly, killLoop, type KillLoopReport } from "./e2e-kill-loop.ts";
import { hiddenFiles, writeOrders, type E2eOrder } from "./e2e-orders.ts";
import { tempDirs } from "./temp-dirs.ts";
import { randomInt, seededRandom } from "../../src/util/seeded-random.ts";

/** The default input: files, orders per file, keys per file. */
const DEFAULT_INPUT = [4, 25_000, 25] as const;
/** Records of the default input. */
export const CRASH_LOOP_RECORDS = DEFAULT_INPUT[0] * DEFAULT_INPUT[1];

const newDir = tempDirs("weir-kill-loop-");

/** A crash loop's settings; the defaults are those of kill-loop.test.ts. */
export interface CrashLoopOptions {
  readonly mode?: "exactly-once" | "at-least-once";
  readonly seed: number;
  readonly kills: number;
  /** Input files, orders per file, keys per file (each key lives in one file): default 4, 25 000, 25. */
  readonly input?: readonly [files: number, perFile: number, keysPerFile: number];
  /** Range of the seeded checkpoint interval in ms: default 100–300. */
  readonly intervalMs?: readonly [number, number];
  /** More `weir run` flags (e.g. the state backend). */
  readonly flags?: readonly string[];
  /**
   * The job's arguments after `--` for its input and output directories and the gate file (written before the
   * last run): default `input output 0 running-total 0 1 gate` (until the gate exists every record waits 1 ms, so
   * every kill lands mid-run however loaded the machine, and the last run goes at full speed).
   */
  readonly jobArgs?: (input: string, output: string, gate: string) => string[];
  /** Deadline of each wait of the loop: default 90 s. */
  readonly timeoutMs?: number;
  /** The checkpoint directory (e.g. `s3://bucket/chk`, with `latestCheckpoint`): default a local `chk` folder. */
  readonly checkpointDir?: string;
  /** The highest completed checkpoint id in `checkpointDir`, for one that is not local. */
  readonly latestCheckpoint?: () => Promise<number>;
}

/** What a crash loop left for the test to assert on. */
export interface CrashLoopResult {
  readonly files: E2eOrder[][];
  readonly output: string;
  readonly checkpoints: string;
  readonly report: KillLoopReport;
  /** The seed, mode, interval and kills, for failure messages. */
  readonly where: string;
}

/** Writes the input, runs the crash loop, and checks that it ended cleanly (every kill landed, the last run restored and exited 0, no hidden file left). */
export async function runningTotalCrashLoop(o: CrashLoopOptions): Promise<CrashLoopResult> {
  const mode = o.mode ?? "exactly-once";
  const [files, perFile, keysPerFile] = o.input ?? DEFAULT_INPUT;
  const root = newDir();
  const [input, output, localCheckpoints, gate] = ["in", "out", "chk", "gate"].map((d) => join(root, d)) as [string, string, string, string];
  const checkpoints = o.checkpointDir ?? localCheckpoints;
  const orders = writeOrders(input, o.seed, files, perFile, keysPerFile);
  const random = seededRandom(o.seed);
  const interval = randomInt(random, ...(o.intervalMs ?? [100, 300]));
  const command = [
    "run", "test/fixtures/e2e-running-total-job.ts",
    "--parallelism", "2", "--workers", "2", "--checkpoint-interval", String(interval), "--mode", mode, "--checkpoint-dir", checkpoints, ...(o.flags ?? []),
    "--", ...(o.jobArgs ?? ((i, out, g) => [i, out, "0", "running-total", "0", "1", g]))(input, output, gate),
  ];
  const beforeLastRun = () => writeFileSync(gate, "");
  const report = await killLoop({
    command, checkpointDir: checkpoints, kills: o.kills, random, delayMs: [0, 400], timeoutMs: o.timeoutMs ?? 90_000, beforeLastRun,
    ...(o.latestCheckpoint ? { latestCheckpoint: o.latestCheckpoint } : {}),
  });
  const where = `seed ${o.seed} (WEIR_SEED=${o.seed}), ${mode}, checkpoint interval ${interval} ms, kills ${JSON.stringify(report.kills)}`;
  expectLoopEndedCleanly(report, o.kills, where);
  expect(existsSync(output), where).toBe(true);
  expect(hiddenFiles(output), `${where}: in-progress files left`).toEqual([]);
  return { files: orders, output, checkpoints, report, where };
}
