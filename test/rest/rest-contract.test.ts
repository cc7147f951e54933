/**
 * Contract tests: the answers of a real `weir run` / `weir sql` job's REST server (DataStream in-process and
 * on 2 worker threads, SQL) checked against strict schemas of Flink's REST answers (test/support/flink-rest-schemas/:
 * no undeclared property, every field Flink always writes present). Every endpoint Weir serves is called while the job runs, then a
 * savepoint and a stop with savepoint go through the API and the process ends with exit 0.
 */
import { describe, expect, it } from "vitest";
import { startCli, type RunningCli } from "../support/cli-process.ts";
import { violations } from "../support/flink-rest-schemas/index.ts";
import { call, eventually, printedUrl, type RestAnswer } from "../support/rest-calls.ts";
import { stopProcess } from "../support/stop-process.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const tempDir = tempDirs("weir-rest-contract-");

/** Calls `method path` and checks the answer against the schema of Flink's answer; returns it. */
async function checked(base: string, method: string, path: string, expectedStatus: number, body?: unknown): Promise<RestAnswer> {
  const answer = await call(base, method, path, { body });
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(expectedStatus);
  expect(violations(method, path.split("?")[0]!, answer.status, answer.json), `${method} ${path}: ${answer.text}`).toEqual([]);
  return answer;
}

interface JobDetails {
  jid: string;
  state: string;
  vertices: { id: string; name: string }[];
  plan: { nodes: { id: string; description: string; inputs: { id: string; ship_strategy: string }[] }[] };
}

/** Runs `args` with a REST server on any port; resolves with the process and the server's address once its job runs and checkpointed twice. */
async function startJob(args: readonly string[]): Promise<{ run: RunningCli; url: string; jid: string }> {
  const run = startCli([...args, "--web-port", "0", "--checkpoint-dir", tempDir(), "--savepoint-dir", tempDir()]);
  try {
    const url = await eventually("the REST address on stderr", async () => printedUrl(run.stderr()), 120_000);
    const jid = await eventually("a running job with 2 completed checkpoints", async () => {
      const jobs = (await call(url, "GET", "/jobs")).json as { jobs: { id: string; status: string }[] };
      const job = jobs.jobs.find((j) => j.status === "RUNNING");
      if (!job) return undefined;
      const checkpoints = (await call(url, "GET", `/jobs/${job.id}/checkpoints`)).json as { counts: { completed: number } };
      return checkpoints.counts.completed >= 2 ? job.id : undefined;
    }, 120_000);
    return { run, url, jid };
  } catch (e) {
    await stopProcess(run.child, "SIGKILL");
    throw new Error(`${(e as Error).message}\nstderr:\n${run.stderr()}`);
  }
}

/** Every read endpoint of the running job `jid`, checked; the job's details. */
async function readEverything(url: string, jid: string): Promise<JobDetails> {
  for (const path of ["/config", "/v1/config", "/overview", "/jobs", "/jobs/overview", "/taskmanagers"]) await checked(url, "GET", path, 200);
  const details = (await checked(url, "GET", `/jobs/${jid}`, 200)).json as JobDetails;
  await checked(url, "GET", `/v1/jobs/${jid}`, 200);
  await checked(url, "GET", `/jobs/${jid}/config`, 200);
  await checked(url, "GET", `/jobs/${jid}/exceptions`, 200);
  expect(((await checked(url, "GET", `/jobs/${jid}/metrics`, 200)).json as { id: string }[]).map((m) => m.id)).toEqual(["numRecordsIn", "numRecordsOut"]);
  const records = (await checked(url, "GET", `/jobs/${jid}/metrics?get=numRecordsIn,numRecordsOut`, 200)).json as { id: string; value: string }[];
  expect(records.map((m) => m.id)).toEqual(["numRecordsIn", "numRecordsOut"]);
  expect(Number(records[0]!.value)).toBeGreaterThan(0); // a running job that checkpointed twice has read records
  await checked(url, "GET", `/jobs/${jid}/checkpoints/config`, 200);
  const checkpoints = (await checked(url, "GET", `/jobs/${jid}/checkpoints`, 200)).json as { latest: { completed: { id: number } } };
  const cid = checkpoints.latest.completed.id;
  await checked(url, "GET", `/jobs/${jid}/checkpoints/details/${cid}`, 200);
  for (const v of details.vertices) {
    const acks = (await checked(url, "GET", `/jobs/${jid}/checkpoints/details/${cid}/subtasks/${v.id}`, 200)).json as { subtasks: { status: string }[] };
    expect(acks.subtasks.map((s) => s.status)).toEqual(acks.subtasks.map(() => "completed"));
    await checked(url, "GET", `/jobs/${jid}/vertices/${v.id}`, 200);
    await checked(url, "GET", `/jobs/${jid}/vertices/${v.id}/backpressure`, 200);
    await checked(url, "GET", `/jobs/${jid}/vertices/${v.id}/watermarks`, 200);
    const ids = (await checked(url, "GET", `/jobs/${jid}/vertices/${v.id}/metrics`, 200)).json as { id: string }[];
    expect(ids.map((m) => m.id)).toContain("0.numRecordsOut");
    const values = (await checked(url, "GET", `/jobs/${jid}/vertices/${v.id}/metrics?get=0.numRecordsOut,0.busyTimeMsPerSecond`, 200)).json as { id: string; value: string }[];
    expect(values.map((m) => m.id)).toEqual(["0.numRecordsOut", "0.busyTimeMsPerSecond"]);
    await checked(url, "GET", `/jobs/${jid}/vertices/${v.id}/subtasks/metrics`, 200);
    await checked(url, "GET", `/jobs/${jid}/vertices/${v.id}/subtasks/metrics?get=numRecordsIn,numRecordsOut&agg=min,max,sum`, 200);
    await checked(url, "GET", `/jobs/${jid}/vertices/${v.id}/subtasktimes`, 200);
  }
  return details;
}

/** A savepoint by REST (checked while in progress or done, and done), then a stop with savepoint; the process ends with exit 0. */
async function savepointThenStop(run: RunningCli, url: string, jid: string): Promise<void> {
  const trigger = (await checked(url, "POST", `/jobs/${jid}/savepoints`, 202, { "target-directory": tempDir() })).json as { "request-id": string };
  await checked(url, "GET", `/jobs/${jid}/savepoints/${trigger["request-id"]}`, 200);
  const location = await eventually("the savepoint", async () => {
    const s = (await checked(url, "GET", `/jobs/${jid}/savepoints/${trigger["request-id"]}`, 200)).json as { status: { id: string }; operation?: { location: string } };
    return s.status.id === "COMPLETED" ? s.operation!.location : undefined;
  });
  type Entry = { id: number; status: string; is_savepoint: boolean; external_path?: string };
  const latest = (await checked(url, "GET", `/jobs/${jid}/checkpoints`, 200)).json as { latest: { savepoint?: Entry }; history: Entry[] };
  expect(latest.latest.savepoint?.is_savepoint).toBe(true);
  expect(latest.latest.savepoint?.external_path).toBe(location);
  // the savepoint is completed in the history too, as soon as its operation is
  const savepoints = latest.history.filter((c) => c.is_savepoint);
  expect(savepoints.map((c) => [c.status, c.external_path])).toEqual(savepoints.map(() => ["COMPLETED", location]));
  const stop = (await checked(url, "POST", `/jobs/${jid}/stop`, 202, { targetDirectory: tempDir() })).json as { "request-id": string };
  const stopped = await eventually("the stop", async () => {
    const s = await checked(url, "GET", `/jobs/${jid}/savepoints/${stop["request-id"]}`, 200);
    const body = s.json as { status: { id: string }; operation?: { location: string } };
    return body.status.id === "COMPLETED" ? body : undefined;
  });
  expect(stopped.operation?.location).toMatch(/savepoint-/);
  const end = await run.done;
  expect(end.code, end.stderr).toBe(0);
  expect(end.stderr).toContain(`stopped with savepoint ${stopped.operation!.location}`);
}

describe("REST answers against strict schemas of Flink's answers", () => {
  it("the check itself: an undeclared property, a missing field, a wrong type or enum, a wrong checkpoint kind are violations", () => {
    const overview = {
      taskmanagers: 1, "slots-total": 1, "slots-available": 0, "jobs-running": 1, "jobs-finished": 0, "jobs-cancelled": 0,
      "jobs-failed": 0, "flink-version": "1.19", "flink-commit": "weir",
    };
    expect(violations("GET", "/overview", 200, overview)).toEqual([]);
    expect(violations("GET", "/v1/overview", 200, { ...overview, "jobs-runing": 1 })).not.toEqual([]);
    const { "jobs-running": _, ...missing } = overview;
    expect(violations("GET", "/overview", 200, missing)).not.toEqual([]);
    expect(violations("GET", "/overview", 200, { ...overview, taskmanagers: 1.5 })).not.toEqual([]);
    expect(violations("GET", "/jobs", 200, { jobs: [{ id: "a".repeat(32), status: "RUNNING" }] })).toEqual([]);
    expect(violations("GET", "/jobs", 200, { jobs: [{ id: "a".repeat(32), status: "RUN" }] })).not.toEqual([]);
    const path = `/jobs/${"a".repeat(32)}/checkpoints/details/1`;
    const sizes = {
      id: 1, status: "COMPLETED", latest_ack_timestamp: 5, checkpointed_size: 0, state_size: 0, end_to_end_duration: 4,
      alignment_buffered: 0, processed_data: 0, persisted_data: 0, num_subtasks: 1, num_acknowledged_subtasks: 1,
    };
    const completed = { className: "completed", ...sizes, is_savepoint: false, trigger_timestamp: 1, checkpoint_type: "CHECKPOINT", tasks: {}, external_path: "/x", discarded: false };
    expect(violations("GET", path, 200, completed)).toEqual([]);
    expect(violations("GET", path, 200, { ...completed, failure_message: "x" })).not.toEqual([]);
    const { external_path: _p, discarded: _d, ...common } = completed;
    expect(violations("GET", path, 200, { ...common, className: "failed", status: "FAILED", failure_timestamp: 5, failure_message: "x" })).toEqual([]);
    expect(violations("GET", path, 200, { ...common, className: "failed", status: "FAILED", failure_timestamp: 5, discarded: false })).not.toEqual([]);
    expect(violations("GET", path, 200, { ...common, className: "unknown" })).not.toEqual([]);
    expect(violations("GET", `/jobs/${"a".repeat(32)}/vertices/${"b".repeat(32)}/watermarks`, 200, [{ value: "1" }])).not.toEqual([]);
    const operation = `/jobs/${"a".repeat(32)}/savepoints/${"c".repeat(32)}`;
    expect(violations("GET", operation, 200, { status: { id: "COMPLETED" }, operation: { location: "/sp" } })).toEqual([]);
    expect(violations("GET", operation, 200, { status: { id: "COMPLETED" } })).not.toEqual([]);
    expect(violations("GET", operation, 200, { status: { id: "DONE" } })).not.toEqual([]);
    expect(() => violations("GET", "/nowhere", 200, {})).toThrow(/no 200 answer/);
  });

  it("a DataStream job in-process (--workers 0)", async () => {
    const { run, url, jid } = await startJob(["run", "test/fixtures/rest-job.ts", "--workers", "0", "-p", "1"]);
    try {
      const details = await readEverything(url, jid);
      expect(details.vertices.map((v) => v.name)).toEqual(["Source: numbers -> pair", "running sum -> Sink: discard"]);
      expect(details.plan.nodes[1]!.inputs).toEqual([expect.objectContaining({ id: details.vertices[0]!.id, ship_strategy: "HASH" })]);
      const tms = (await call(url, "GET", "/taskmanagers")).json as { taskmanagers: { path: string }[] };
      expect(tms.taskmanagers.map((t) => t.path)).toEqual(["in-process"]);
      await savepointThenStop(run, url, jid);
    } finally {
      await stopProcess(run.child, "SIGKILL");
    }
  });

  it("a DataStream job on 2 worker threads (--workers 2, parallelism 2)", async () => {
    const { run, url, jid } = await startJob(["run", "test/fixtures/rest-job.ts", "--workers", "2", "-p", "2"]);
    try {
      await readEverything(url, jid);
      const tms = (await call(url, "GET", "/taskmanagers")).json as { taskmanagers: { path: string }[] };
      expect(tms.taskmanagers.map((t) => t.path)).toEqual(["worker-0", "worker-1"]);
      const watermarks = (await call(url, "GET", `/jobs/${jid}/vertices/${((await call(url, "GET", `/jobs/${jid}`)).json as JobDetails).vertices[1]!.id}/watermarks`)).json as { id: string; value: string }[];
      expect(watermarks.map((w) => w.id)).toEqual(["0.currentInputWatermark", "1.currentInputWatermark"]);
      await savepointThenStop(run, url, jid);
    } finally {
      await stopProcess(run.child, "SIGKILL");
    }
  });

  it("a SQL job (weir sql -f): the plan's operators with their changelog modes", async () => {
    const { run, url, jid } = await startJob(["sql", "-f", "test/fixtures/rest-job.sql", "--workers", "2", "-p", "2"]);
    try {
      const details = await readEverything(url, jid);
      const descriptions = details.plan.nodes.map((n) => n.description).join("\n");
      expect(descriptions).toMatch(/TableSourceScan\(table=\[\[default_catalog, default_database, orders\]\].*changelogMode=\[I\]/);
      expect(descriptions).toMatch(/GroupAggregate\(groupBy=\[k\].*changelogMode=\[I,UB,UA\]/);
      await savepointThenStop(run, url, jid);
    } finally {
      await stopProcess(run.child, "SIGKILL");
    }
  });
});
