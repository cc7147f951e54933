/**
 * How `weir run -m` follows a job through Flink's REST shapes (`ClusterJob`),
 * against a real server: the REST API of a `weir run` child process, which
 * serves `/jobs/:jid`, its checkpoints and exceptions as a job manager does.
 * The follower sees the job run (status, checkpoints); when the
 * server goes away for good it says so, keeps asking for the reconnect
 * window, then gives up naming the job.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ClusterJob, JobManagerLostError } from "../src/cli/cluster-job.ts";
import { RestClient } from "../src/cli/rest-client.ts";
import { configureLogging, type LogRecord } from "../src/util/logger.ts";
import { startCli, waitFor, type RunningCli } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const JOB = fileURLToPath(new URL("./fixtures/until-stopped-job.ts", import.meta.url));
const tempDir = tempDirs("weir-follow-");
const started: RunningCli[] = [];

afterEach(() => {
  for (const run of started.splice(0)) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
});

describe("following a job through its REST API", () => {
  it("sees it run (status, checkpoints); a server gone for good is asked again for the reconnect window, then the job is named as lost", async () => {
    const dir = tempDir();
    const run = startCli(["run", JOB, "--web-port", "0", "--checkpoint-dir", join(dir, "checkpoints")], { WEIR_HOME: join(dir, "home") }, { cwd: dir });
    started.push(run);
    let url: string | undefined;
    await waitFor(
      "the REST server's address",
      () => {
        if (run.child.exitCode !== null) throw new Error(`weir run ended (exit ${run.child.exitCode}):\n${run.stderr()}`);
        url = /REST API and dashboard at (http:\/\/\S+)/.exec(run.stderr())?.[1];
        return url !== undefined;
      },
      90_000,
    );
    const rest = new RestClient(url!);
    let jobs: Awaited<ReturnType<RestClient["jobsOverview"]>> = [];
    await waitFor("the job in /jobs/overview", () => (void rest.jobsOverview().then((j) => (jobs = j)), jobs.length === 1), 60_000, 100);

    const records: LogRecord[] = [];
    configureLogging({ level: "info", format: "text", destination: (r) => records.push(r) });
    try {
      const job = new ClusterJob(rest, jobs[0]!.jid, "the label", { pollMs: 100, reconnectMs: 1_500, firstBackoffMs: 50, maxBackoffMs: 200 });
      const ended = job.ended.then(
        (state) => ({ state }),
        (e: unknown) => ({ error: e }),
      );
      await waitFor(
        "the follower to see the job run and checkpoint",
        () => {
          const s = job.snapshot();
          return s.status === "RUNNING" && s.checkpoints > 0 && s.lastCheckpoint !== undefined;
        },
        60_000,
        50,
      );
      expect(job.jobName).toBe("until-stopped");
      expect(job.snapshot().restarts).toBe(0);

      run.child.kill("SIGKILL");
      const outcome = await ended;
      expect(outcome).toHaveProperty("error");
      const error = (outcome as { error: Error }).error;
      expect(error).toBeInstanceOf(JobManagerLostError);
      expect(error.message).toMatch(new RegExp(`^the job manager at ${url!.replace(/[.]/g, "\\.")} did not answer for \\d+ s \\(.+\\): job ${jobs[0]!.jid} may still run`));
      expect(records.filter((r) => r.level === "warn").map((r) => r.msg)).toEqual([expect.stringMatching(/^lost the job manager at .* asking again for up to 1.5 s; the job runs on meanwhile$/)]);
    } finally {
      configureLogging({ format: "text" });
    }
  }, 180_000);
});
