/**
 * The loss of one of the two task managers a job runs on (SIGKILL, mid-job: the job's source waits at a gate
 * file): the job manager notices (the connection closes), the attempt fails, the job waits for a slot
 * (RESTARTING, waiting-for) until a replacement task manager registers, and restarts from its latest completed
 * checkpoint on the remaining and the new one (records between them over TCP); its exactly-once
 * FileSink output is then exact (0 lost, 0 duplicated). A task manager that stops heartbeating (SIGSTOP) is lost
 * after heartbeat.timeout the same way.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { waitFor } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";
import { committedLines, expectedKeyedCounts, processDir, rest, runJar, startJobManager, startTaskManager, uploadJar, waitForJobState, clusterSuite } from "./support/cluster-processes.ts";

const JOB = fileURLToPath(new URL("./fixtures/cluster-keyed-count-job.mjs", import.meta.url));
const tempDir = tempDirs("weir-cluster-failover-");
const DEADLINE_MS = 180_000;
const started = clusterSuite();

/** Completed checkpoints of the job (`/jobs/:jid/checkpoints`). */
async function completedCheckpoints(url: string, jobId: string): Promise<number> {
  const stats = await rest<{ counts: { completed: number } }>(`${url}/jobs/${jobId}/checkpoints`);
  return stats.counts.completed;
}

describe("the loss of a task manager", () => {
  for (const how of ["SIGKILL", "SIGSTOP"] as const)
    it(`(${how}) fails the attempt; the job restarts from its latest checkpoint on a replacement with exact output`, async () => {
      const dir = tempDir();
      const jm = await startJobManager(processDir(dir, "jm"));
      started.push(jm.cli);
      const first = await startTaskManager(processDir(dir, "tm-1"), jm.rpcPort, 1);
      const second = await startTaskManager(processDir(dir, "tm-2"), jm.rpcPort, 1);
      started.push(first.cli, second.cli);
      const out = join(dir, "out");
      const jar = await uploadJar(jm.url, JOB, "keyed-count.mjs");
      const jobId = await runJar(jm.url, jar, {
        programArgsList: [join(out, "lines"), "3000", "1500", join(out, "gate"), join(out, "reached"), "4"],
        parallelism: 2,
        flinkConfiguration: { "execution.checkpointing.interval": "200 ms", "state.checkpoints.dir": join(out, "checkpoints") },
      });
      await waitFor("the job's source at its gate", () => existsSync(join(out, "reached")), 90_000);
      // a checkpoint taken at the gate: the restart restores state, not an empty start
      const before = await completedCheckpoints(jm.url, jobId);
      for (let c = before; c < before + 2; c = await completedCheckpoints(jm.url, jobId)) await new Promise((r) => setTimeout(r, 100));
      first.cli.child.kill(how);
      const waiting = await waitForJobState(jm.url, jobId, ["RESTARTING"], (d) => d["waiting-for"] !== undefined);
      expect(waiting["waiting-for"]).toMatch(/^waiting for 1 task slot \(0 free on 1 task manager;/);
      expect(jm.cli.stderr()).toMatch(new RegExp(`task manager ${first.id} lost: ${how === "SIGKILL" ? "its connection" : "no heartbeat"}`));
      const replacement = await startTaskManager(processDir(dir, "tm-3"), jm.rpcPort, 1);
      started.push(replacement.cli);
      mkdirSync(out, { recursive: true });
      writeFileSync(join(out, "gate"), "");
      const done = await waitForJobState(jm.url, jobId, ["FINISHED", "FAILED", "CANCELED"]);
      expect(done.state, jm.cli.stderr()).toBe("FINISHED");
      expect(jm.cli.stderr()).toMatch(/restarting \(attempt 1\) .* from checkpoint \d+/);
      expect(committedLines(join(out, "lines"))).toEqual(expectedKeyedCounts(3000, 4));
      expect(replacement.cli.stderr()).toMatch(/job 'cluster-keyed-count': started worker [01] of 2/);
    }, DEADLINE_MS);
});
