/**
 * A SQL job from `datagen` into a partitioned `filesystem` table with
 * partition-time commit, through the real command line, SIGKILLed right
 * after a checkpoint completed and before its files were committed
 * (WEIR_FAULT=kill-before-commit). Started again, the job restores the
 * datagen positions and the sink's pending files and commits: every row is in
 * exactly one committed file of its partition, every partition has its
 * success file, and no hidden file is left.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli, startCli } from "../support/cli-process.ts";
import { completedCheckpointIds, finish } from "../support/e2e-kill-loop.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const newDir = tempDirs("weir-partitioned-crash-");
const N = 6000;

/** Every partition directory (dt=…/hr=…) under `out`. */
function partitions(out: string): string[] {
  return readdirSync(out).flatMap((dt) => readdirSync(join(out, dt)).map((hr) => join(out, dt, hr)));
}

it("kill-before-commit: after the restart every row once in its partition, every partition committed", async () => {
  const root = newDir();
  const [out, checkpoints] = [join(root, "out"), join(root, "chk")];
  const command = [
    "run", "test/fixtures/sql-partitioned-datagen-job.ts",
    "--parallelism", "2", "--checkpoint-interval", "50", "--mode", "exactly-once", "--checkpoint-dir", checkpoints,
    "--", out, String(N),
  ];
  const crashed = await finish(startCli(command, { WEIR_FAULT: "kill-before-commit" }), 60_000);
  expect(crashed.signal, `the run was not killed (exit ${crashed.code})\n${crashed.stderr}`).toBe("SIGKILL");
  expect(completedCheckpointIds(checkpoints).length).toBeGreaterThan(0);

  const restarted = await runCli(command, 60_000);
  expect(restarted.code, restarted.stderr).toBe(0);
  expect(restarted.stderr).toMatch(/restored from checkpoint \d+ /);

  const ids: number[] = [];
  for (const dir of partitions(out)) {
    const files = readdirSync(dir);
    expect(files.filter((f) => f.startsWith(".")), dir).toEqual([]);
    expect(existsSync(join(dir, "_SUCCESS")), dir).toBe(true);
    const hour = Number(dir.slice(-2));
    for (const f of files.filter((x) => x.startsWith("part-"))) {
      for (const line of readFileSync(join(dir, f), "utf8").split("\n").filter((l) => l !== "")) {
        const { id } = JSON.parse(line) as { id: number };
        // id i is at 08:00 + 10 s * i
        expect((8 + Math.floor((id * 10) / 3600)) % 24, `${dir}: id ${id}`).toBe(hour);
        ids.push(id);
      }
    }
  }
  expect(ids.length).toBe(N);
  expect(new Set(ids).size).toBe(N);
}, 150_000);
