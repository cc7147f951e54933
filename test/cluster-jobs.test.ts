/**
 * A cluster on this machine (`weir jobmanager`, `weir taskmanager` child processes of the shipped command):
 * a job bundle uploaded with POST /jars/upload and run with POST /jars/:jarid/run runs on the task managers'
 * slots (one worker per slot, spread over the task managers, records between them over TCP) and writes exactly
 * its output; `weir list -m` shows it; `/taskmanagers` and `/overview` show the task managers' slots. A SQL
 * script runs as `weir sql -f` runs it. A job that needs more slots than are free waits (status CREATED, and what
 * it waits for in /jobs/:jid) and runs once a task manager joins; without slots within slot.request.timeout its
 * attempt fails.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { availableParallelism, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli, waitFor } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";
import { violations } from "./support/flink-rest-schemas/index.ts";
import {
  committedLines,
  expectedKeyedCounts,
  jobDetails,
  processDir,
  rest,
  runJar,
  startJobManager,
  startTaskManager,
  uploadJar,
  waitForJobState,
  clusterSuite,
  startCluster,
} from "./support/cluster-processes.ts";

const JOB = fileURLToPath(new URL("./fixtures/cluster-keyed-count-job.mjs", import.meta.url));
const tempDir = tempDirs("weir-cluster-");
const DEADLINE_MS = 180_000;
const started = clusterSuite();

/** The run request of the keyed count job: `count` numbers over 4 keys, gated after `half`, at parallelism 2. */
function runRequest(out: string, count: number, half: number) {
  return {
    programArgsList: [join(out, "lines"), String(count), String(half), join(out, "gate"), join(out, "reached"), "4"],
    parallelism: 2,
    flinkConfiguration: { "execution.checkpointing.interval": "200 ms", "state.checkpoints.dir": join(out, "checkpoints") },
  };
}

describe("a cluster of a job manager and task managers", () => {
  it("runs an uploaded job across two task managers (records between them over TCP) with exactly its output; weir list -m shows it", async () => {
    const dir = tempDir();
    const jm = await startJobManager(processDir(dir, "jm"));
    started.push(jm.cli);
    const tms = [await startTaskManager(processDir(dir, "tm-1"), jm.rpcPort, 1), await startTaskManager(processDir(dir, "tm-2"), jm.rpcPort, 1)];
    started.push(...tms.map((t) => t.cli));
    const out = join(dir, "out");
    const jar = await uploadJar(jm.url, JOB, "keyed-count.mjs");
    expect(jar).toMatch(/^[0-9a-f]{64}\.mjs$/);
    const jobId = await runJar(jm.url, jar, runRequest(out, 2000, 1000));
    expect(jobId).toMatch(/^[0-9a-f]{32}$/);
    await waitFor("the job's source at its gate", () => existsSync(join(out, "reached")), 90_000);
    expect((await jobDetails(jm.url, jobId)).state).toBe("RUNNING");
    const managers = await rest<{ taskmanagers: { id: string; slotsNumber: number; freeSlots: number; hardware: { cpuCores: number; physicalMemory: number } }[] }>(`${jm.url}/taskmanagers`);
    expect(managers.taskmanagers.map((t) => [t.id, t.slotsNumber, t.freeSlots]).sort()).toEqual(tms.map((t) => [t.id, 1, 0]).sort());
    for (const t of managers.taskmanagers) expect(t.hardware).toMatchObject({ cpuCores: availableParallelism(), physicalMemory: totalmem() }); // what each process reported of its host
    const overview = await rest(`${jm.url}/overview`);
    expect(overview).toMatchObject({ taskmanagers: 2, "slots-total": 2, "slots-available": 0, "jobs-running": 1 });
    // in Flink's shapes
    expect(violations("GET", "/taskmanagers", 200, managers)).toEqual([]);
    expect(violations("GET", "/overview", 200, overview)).toEqual([]);
    const list = await runCli(["list", "-m", new URL(jm.url).host]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`${jobId}\\s+cluster-keyed-count\\s+RUNNING`));
    writeFileSync(join(out, "gate"), "");
    await waitForJobState(jm.url, jobId, ["FINISHED", "FAILED", "CANCELED"]);
    expect((await jobDetails(jm.url, jobId)).state).toBe("FINISHED");
    expect(committedLines(join(out, "lines"))).toEqual(expectedKeyedCounts(2000, 4));
    for (const tm of tms) {
      expect(tm.cli.stderr()).toMatch(/fetched job bundle [0-9a-f]{64}\.mjs/);
      expect(tm.cli.stderr()).toMatch(/job 'cluster-keyed-count': started worker [01] of 2/);
    }
    // SIGTERM stops each process cleanly (exit 0), the task managers first
    for (const cli of [...tms.map((t) => t.cli), jm.cli]) {
      cli.child.kill("SIGTERM");
      const end = await cli.done;
      expect(end.code, end.stderr).toBe(0);
    }
  }, DEADLINE_MS);

  it("a job needing more slots than are free waits, and runs once a task manager joins (spread over both)", async () => {
    const dir = tempDir();
    const jm = await startJobManager(processDir(dir, "jm"));
    started.push(jm.cli);
    const small = await startTaskManager(processDir(dir, "tm-1"), jm.rpcPort, 1);
    started.push(small.cli);
    const out = join(dir, "out");
    const jar = await uploadJar(jm.url, JOB, "keyed-count.mjs");
    const request = runRequest(out, 500, 250);
    const jobId = await runJar(jm.url, jar, request);
    const waiting = await waitForJobState(jm.url, jobId, ["CREATED"], (d) => d["waiting-for"] !== undefined);
    expect(waiting["waiting-for"]).toMatch(/^waiting for 2 task slots \(1 free on 1 task manager/);
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, "gate"), "");
    const big = await startTaskManager(processDir(dir, "tm-2"), jm.rpcPort, 2);
    started.push(big.cli);
    await waitForJobState(jm.url, jobId, ["FINISHED", "FAILED", "CANCELED"]);
    const done = await jobDetails(jm.url, jobId);
    expect(done.state).toBe("FINISHED");
    expect(done["waiting-for"]).toBeUndefined();
    expect(committedLines(join(out, "lines"))).toEqual(expectedKeyedCounts(500, 4));
  }, DEADLINE_MS);

  it("runs one bundle twice at once (each run imports it again) with exactly the output of each", async () => {
    const dir = tempDir();
    const jm = await startJobManager(processDir(dir, "jm"));
    started.push(jm.cli);
    started.push((await startTaskManager(processDir(dir, "tm"), jm.rpcPort, 4)).cli);
    const jar = await uploadJar(jm.url, JOB, "keyed-count.mjs");
    const outs = [join(dir, "out-1"), join(dir, "out-2")];
    for (const out of outs) {
      mkdirSync(out, { recursive: true });
      writeFileSync(join(out, "gate"), "");
    }
    const jobIds = await Promise.all(outs.map((out, i) => runJar(jm.url, jar, runRequest(out, 400 * (i + 1), 100))));
    expect(new Set(jobIds).size).toBe(2);
    for (const [i, jobId] of jobIds.entries()) {
      expect((await waitForJobState(jm.url, jobId, ["FINISHED", "FAILED", "CANCELED"])).state).toBe("FINISHED");
      expect(committedLines(join(outs[i]!, "lines"))).toEqual(expectedKeyedCounts(400 * (i + 1), 4));
    }
  }, DEADLINE_MS);

  it("runs an uploaded SQL script (as weir sql -f) on the task managers", async () => {
    const dir = tempDir();
    const jm = await startCluster(dir, started);
    const out = join(dir, "out");
    const script = join(dir, "job.sql");
    writeFileSync(
      script,
      `SET 'parallelism.default' = '2';
CREATE TABLE ids (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000000',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '300');
CREATE TABLE sink (id BIGINT, parity BIGINT) WITH ('connector' = 'filesystem', 'path' = '${join(out, "rows")}', 'format' = 'csv');
INSERT INTO sink SELECT id, id % 2 FROM ids;
`,
    );
    const jar = await uploadJar(jm.url, script, "job.sql");
    expect(jar).toMatch(/^[0-9a-f]{64}\.sql$/);
    const jobId = await runJar(jm.url, jar, { flinkConfiguration: { "execution.checkpointing.interval": "200 ms", "state.checkpoints.dir": join(out, "checkpoints") } });
    const done = await waitForJobState(jm.url, jobId, ["FINISHED", "FAILED", "CANCELED"]);
    expect(done.state).toBe("FINISHED");
    const rows = committedLines(join(out, "rows"));
    expect(rows).toEqual(Array.from({ length: 300 }, (_, i) => `${i + 1},${(i + 1) % 2}`).sort());
  }, DEADLINE_MS);

  it("a job that gets no slots within slot.request.timeout fails its attempt (here for good: no restarts)", async () => {
    const dir = tempDir();
    const jm = await startJobManager(processDir(dir, "jm"), ["-D", "slot.request.timeout=1 s"]);
    started.push(jm.cli);
    const out = join(dir, "out");
    const jar = await uploadJar(jm.url, JOB, "keyed-count.mjs");
    const request = runRequest(out, 10, 5);
    const jobId = await runJar(jm.url, jar, { ...request, flinkConfiguration: { ...request.flinkConfiguration, "restart-strategy.type": "none" } });
    const failed = await waitForJobState(jm.url, jobId, ["FAILED", "FINISHED", "CANCELED"]);
    expect(failed.state).toBe("FAILED");
    const exceptions = await rest<{ exceptionHistory: { entries: { exceptionName: string; stacktrace: string }[] } }>(`${jm.url}/jobs/${jobId}/exceptions`);
    expect(exceptions.exceptionHistory.entries[0]?.exceptionName).toBe("NoResourceAvailableException");
    expect(exceptions.exceptionHistory.entries[0]?.stacktrace).toMatch(/could not get 2 task slots within slot\.request\.timeout \(1 s\): 0 free on 0 task manager/);
  }, DEADLINE_MS);
});
