/**
 * Crash safety of shared-state cleanup: a crash before any step of storing a
 * checkpoint and its cleanup (metadata write, each checkpoint directory
 * deletion, each shared file deletion) never deletes a file a retained
 * checkpoint uses, and the next completed checkpoint's cleanup leaves no
 * garbage. In process (a throwing hook, every step) and in a child process
 * SIGKILLed at a few steps.
 */
import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDirs } from "../../../test/support/temp-dirs.ts";
import { seededRandom, testSeed } from "../../util/seeded-random.ts";
import { FileSystemCheckpointStorage } from "./filesystem-storage.ts";
import { buildIncrementalScene, recoverAndCheck, stepsOfStoringCheckpoint5 } from "./test-incremental.ts";

const tempDir = tempDirs("weir-shared-crash-");
const seed = testSeed();

class Crash extends Error {}

describe("shared state cleanup survives a crash at every step", () => {
  it("in process: the hook throws before step k, for every k", async () => {
    const steps = await stepsOfStoringCheckpoint5(join(tempDir(), "job"), seededRandom(seed));
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
      const warnings: string[] = [];
      const crashing = new FileSystemCheckpointStorage({
        directory: dir,
        retained: 2,
        log: (w) => warnings.push(w),
        crashPoint: () => {
          if (at++ === step) throw new Crash(`crash before step ${step}`);
        },
      });
      if (step === 0) await expect(crashing.addCompleted(checkpoint5)).rejects.toBeInstanceOf(Crash);
      else {
        // the cleanup after the metadata runs in the background: the crash stops it, the checkpoint has completed
        await expect(crashing.addCompleted(checkpoint5)).resolves.toMatchObject({ checkpointId: 5 });
        await crashing.settled();
        expect(warnings, `seed ${seed}`).toEqual(step < steps.length ? [expect.stringContaining(`crash before step ${step}`)] : []);
      }
      await recoverAndCheck(dir, step, `seed ${seed}, crash before step ${step} (${steps[step] ?? "no crash"})`, subtasks);
    }
  });

  it("in a child process SIGKILLed before a metadata write, a directory deletion and a shared file deletion", async () => {
    const steps = await stepsOfStoringCheckpoint5(join(tempDir(), "job"), seededRandom(seed));
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
        await storage.settled();
        console.log("not killed");
      `,
      );
      const child = spawnSync(process.execPath, ["--import", "tsx", script], { cwd: process.cwd(), encoding: "utf8", timeout: 120_000 });
      expect(child.signal, `${child.stdout}\n${child.stderr}`).toBe("SIGKILL");
      const kind = (s: string) => s.replace(/-[0-9a-f]{12}\.state$/, "");
      expect(kind(child.stdout.trim())).toBe(`killing before ${kind(steps[step]!)}`);
      expect(child.stdout).not.toContain("not killed");
      await recoverAndCheck(dir, step, `seed ${seed}, crash before step ${step} (${steps[step] ?? "no crash"})`, subtasks);
    }
  });
});
