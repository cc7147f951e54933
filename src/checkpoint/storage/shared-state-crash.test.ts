/**
 * Crash safety of shared-state cleanup: a crash before any step of storing a
 * checkpoint and its cleanup (metadata write, each checkpoint directory
 * deletion, each shared file deletion) never deletes a file a retained
 * checkpoint uses, and the next completed checkpoint's cleanup leaves no
 * garbage. In process (a throwing hook, every step) and in a child process
 * SIGKILLed at a few steps.
 */
import { spawnSync } from "node:child_process";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDirs } from "../../../test/support/temp-dirs.ts";
import { seededRandom, testSeed } from "../../util/seeded-random.ts";
import { FileSystemCheckpointStorage } from "./filesystem-storage.ts";
import { checkpointStateProblem } from "./state-verification.ts";
import { completedCheckpoint } from "./test-checkpoints.ts";
import { buildIncrementalScene, referencedSharedFiles, sharedFilesOnDisk, taskStorage } from "./test-incremental.ts";

const tempDir = tempDirs("weir-shared-crash-");
const seed = testSeed();

class Crash extends Error {}

/** The steps of storing checkpoint 5 in the scene, in order, from a run without a crash. */
async function stepsOfStoringCheckpoint5(): Promise<string[]> {
  const dir = join(tempDir(), "job");
  const { checkpoint5 } = await buildIncrementalScene(dir, seededRandom(seed));
  const steps: string[] = [];
  await new FileSystemCheckpointStorage({ directory: dir, retained: 2, log: () => {}, crashPoint: (s) => steps.push(s) }).addCompleted(checkpoint5);
  return steps;
}

/**
 * After a crash at `step` of storing checkpoint 5: a new run on the same
 * directory restores the latest checkpoint, continues its chains, has
 * checkpoint 8 in flight and completes checkpoint 7; then checks (a), (b), (c).
 */
async function recoverAndCheck(dir: string, step: number, steps: readonly string[], subtasks: Awaited<ReturnType<typeof buildIncrementalScene>>["subtasks"]) {
  const context = `seed ${seed}, crash before step ${step} (${steps[step] ?? "no crash"})`;
  const coordinator = new FileSystemCheckpointStorage({ directory: dir, retained: 2, log: () => {} });
  for (const checkpoint of await coordinator.listCompleted()) {
    expect(await checkpointStateProblem(checkpoint), `${context}: checkpoint ${checkpoint.checkpointId} right after the crash`).toBeNull();
  }
  const latest = await coordinator.latestCompleted();
  expect(latest.damaged, context).toEqual([]);
  expect(latest.checkpoint?.checkpointId, context).toBe(step === 0 ? 3 : 5);
  for (const s of subtasks) s.restore(latest.checkpoint!);
  expect(await coordinator.highestCheckpointId(), context).toBe(6);

  const acks = await Promise.all(subtasks.map((s) => s.snapshot(taskStorage(dir), 7)));
  const inFlight = await Promise.all(subtasks.map((s) => s.snapshot(taskStorage(dir), 8)));
  await coordinator.addCompleted(completedCheckpoint(7, acks));

  // (c) the newest is latest, and verifies
  const after = await new FileSystemCheckpointStorage({ directory: dir, retained: 2, log: () => {} }).latestCompleted();
  expect(after.checkpoint?.checkpointId, context).toBe(7);
  expect(after.damaged, context).toEqual([]);
  // (a) every file a retained checkpoint references reads back with its CRC
  const retained = await coordinator.listCompleted();
  expect(retained.map((c) => c.checkpointId), context).toEqual([latest.checkpoint!.checkpointId, 7]);
  for (const checkpoint of retained) {
    for (const state of checkpoint.states) {
      for (const ref of state.shared ?? []) await expect(coordinator.readSharedState(checkpoint, ref), context).resolves.toHaveLength(ref.size);
    }
  }
  // (b) nothing else is left but the in-flight checkpoint 8's files
  const expected = await referencedSharedFiles(coordinator);
  for (const { shared } of inFlight) expected.add(join(dir, "shared", shared.at(-1)!.path.split("/").at(-1)!));
  expect([...(await sharedFilesOnDisk(dir))].sort(), context).toEqual([...expected].sort());
  expect((await readdir(dir)).sort(), context).toEqual([`chk-${latest.checkpoint!.checkpointId}`, "chk-7", "chk-8", "shared"]);
}

describe("shared state cleanup survives a crash at every step", () => {
  it("in process: the hook throws before step k, for every k", async () => {
    const steps = await stepsOfStoringCheckpoint5();
    expect(steps, `seed ${seed}`).toEqual([
      "write chk-5/_metadata",
      "delete chk-2",
      expect.stringMatching(/^delete shared\/counts-1-1-[0-9a-f]{12}\.state$/),
      expect.stringMatching(/^delete shared\/counts-1-2-[0-9a-f]{12}\.state$/),
      expect.stringMatching(/^delete shared\/counts-1-2-[0-9a-f]{12}\.state$/),
    ]);
    for (let step = 0; step <= steps.length; step++) {
      const dir = join(tempDir(), "job");
      const { checkpoint5, subtasks } = await buildIncrementalScene(dir, seededRandom(seed));
      let at = 0;
      const crashing = new FileSystemCheckpointStorage({
        directory: dir,
        retained: 2,
        log: () => {},
        crashPoint: () => {
          if (at++ === step) throw new Crash(`crash before step ${step}`);
        },
      });
      if (step < steps.length) await expect(crashing.addCompleted(checkpoint5)).rejects.toBeInstanceOf(Crash);
      else await crashing.addCompleted(checkpoint5);
      await recoverAndCheck(dir, step, steps, subtasks);
    }
  });

  it("in a child process SIGKILLed before a metadata write, a directory deletion and a shared file deletion", async () => {
    const steps = await stepsOfStoringCheckpoint5();
    for (const step of [0, 1, 3]) {
      const dir = join(tempDir(), "job");
      const { checkpoint5, subtasks } = await buildIncrementalScene(dir, seededRandom(seed));
      const checkpointFile = join(tempDir(), "checkpoint5.json");
      await writeFile(checkpointFile, JSON.stringify(checkpoint5));
      const script = join(tempDir(), "store.mts");
      await writeFile(
        script,
        `
        import { readFileSync } from "node:fs";
        import { FileSystemCheckpointStorage } from ${JSON.stringify(new URL("./filesystem-storage.ts", import.meta.url).href)};
        let at = 0;
        const storage = new FileSystemCheckpointStorage({
          directory: ${JSON.stringify(dir)}, retained: 2, log: () => {},
          crashPoint: (s) => { if (at++ === ${step}) { console.log("killing before " + s); process.kill(process.pid, "SIGKILL"); } },
        });
        await storage.addCompleted(JSON.parse(readFileSync(${JSON.stringify(checkpointFile)}, "utf8")));
        console.log("not killed");
      `,
      );
      const child = spawnSync(process.execPath, ["--import", "tsx", script], { cwd: process.cwd(), encoding: "utf8", timeout: 120_000 });
      expect(child.signal, `${child.stdout}\n${child.stderr}`).toBe("SIGKILL");
      const kind = (s: string) => s.replace(/-[0-9a-f]{12}\.state$/, "");
      expect(kind(child.stdout.trim())).toBe(`killing before ${kind(steps[step]!)}`);
      expect(child.stdout).not.toContain("not killed");
      await recoverAndCheck(dir, step, steps, subtasks);
    }
  });
});
