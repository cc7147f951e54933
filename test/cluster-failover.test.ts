/**
 * The loss of one of the two task managers a job runs on (SIGKILL, mid-job: the job's source waits at a gate
 * file): the job manager notices (the connection closes), the attempt fails, the job waits for a slot
 * (RESTARTING, waiting-for) until a replacement task manager registers, and restarts from its latest completed
 * checkpoint on the remaining and the new one (records between them over TCP); its exactly-once
 * FileSink output is then exact (0 lost, 0 duplicated). A task manager that stops heartbeating (SIGSTOP) is lost
 * after heartbeat.timeout the same way.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDirs } from "./support/temp-dirs.ts";
import { clusterSuite, committedLines, expectedKeyedCounts, processDir, startJobManager, startTaskManager, submitGatedJob, waitForJobState } from "./support/cluster-processes.ts";

const tempDir = tempDirs("weir-cluster-failover-");
const DEADLINE_MS = 180_000;
const started = clusterSuite();


describe("the loss of a task manager", () => {
  for (const how of ["SIGKILL", "SIGSTOP"] as const)
    it(`(${how}) fails the attempt; the job restarts from its latest checkpoint on a replacement with exact output`, async () => {
      const dir = tempDir();
      const jm = await startJobManager(processDir(dir, "jm"));
      started.push(jm.cli);
      const first = await startTaskManager(processDir(dir, "tm-1"), jm.rpcPort, 1);
      const second = await startTaskManager(processDir(dir, "tm-2"), jm.rpcPort, 1);
      started.push(first.cli, second.cli);
      // two checkpoints taken at the gate: the restart restores state, not an empty start
      const { jobId, out } = await submitGatedJob(jm.url, dir);
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
