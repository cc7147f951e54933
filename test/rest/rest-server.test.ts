/**
 * The REST server around a job running in this process (the public API: `env.executeAsync` and
 * `startRestServer`): Flink's error shapes and status codes, savepoints, stop and cancel by REST, the token,
 * the bind address, cross-origin and foreign-host requests, the dashboard's files without path traversal, and
 * the next free port.
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  printSink,
  RestartStrategies,
  RestConfigError,
  startRestServer,
  StreamExecutionEnvironment,
  TumblingEventTimeWindows,
  WatermarkStrategy,
  type JobClient,
  type RestServer,
} from "../../src/index.ts";
import { throttledSequence } from "../fixtures/throttled-sequence-source.ts";
import { violations } from "../support/flink-rest-schemas/index.ts";
import { call, eventually, getJson } from "../support/rest-calls.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const tempDir = tempDirs("weir-rest-");
const TOKEN = "s3cret-token-0123";

/** A job that runs until it is stopped: numbers → pair → running sum per key → discard. */
async function startJob(name: string): Promise<JobClient> {
  const env = StreamExecutionEnvironment.create({ parallelism: 2, checkpointInterval: 100, checkpointDir: tempDir() });
  env
    .fromSource(throttledSequence(1, 1_000_000_000, 10, 10), WatermarkStrategy.noWatermarks(), "numbers")
    .uid("numbers")
    .map((n: number): [string, number] => [`k${n % 4}`, n])
    .uid("pair")
    .keyBy(([k]) => k)
    .sum(1)
    .uid("sum")
    .sinkTo(printSink("", () => {}))
    .uid("discard");
  return env.executeAsync(name);
}

/** Resolves once `job` runs. */
function running(job: JobClient): Promise<true> {
  return eventually("the job running", async () => job.getJobStatus() === "RUNNING" || undefined);
}

/** The id of `job`'s first completed checkpoint, once there is one. */
function completedCheckpoint(job: JobClient): Promise<number> {
  return eventually("a completed checkpoint", async () => job.getCheckpointStats()?.lastCompleted?.checkpointId);
}

describe("the REST API of jobs running in this process", () => {
  const jobs: JobClient[] = [];
  let server: RestServer;
  let savepointDir: string;

  beforeAll(async () => {
    savepointDir = tempDir();
    jobs.push(await startJob("first"), await startJob("second"));
    server = await startRestServer({
      host: "127.0.0.1",
      port: 0,
      token: TOKEN,
      jobs: () => jobs,
      configuration: () => ({ "state.savepoints.dir": savepointDir }),
      metricsText: () => "# metrics\n",
    });
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all(jobs.map((j) => j.cancel()));
  });

  it("serves /v1/... and unversioned paths alike, kebab-case JSON with 32-hex ids", async () => {
    const versioned = await getJson<{ jobs: { jid: string; name: string; state: string }[] }>(server.url, "/v1/jobs/overview");
    const plain = await getJson<typeof versioned>(server.url, "/jobs/overview");
    expect(versioned.jobs.map((j) => j.jid)).toEqual(plain.jobs.map((j) => j.jid));
    expect(plain.jobs.map((j) => [j.jid, j.name])).toEqual(jobs.map((j) => [j.getJobId(), j.jobName]));
    for (const j of plain.jobs) expect(j.jid).toMatch(/^[0-9a-f]{32}$/);
    const overview = await getJson(server.url, "/overview");
    expect(overview).toMatchObject({ "jobs-running": 2, "jobs-finished": 0 });
    expect((await call(server.url, "GET", "/metrics")).text).toBe("# metrics\n");
  });

  it("answers errors as Flink: {errors: [...]} with 404, 400, 405, 415", async () => {
    const unknownJob = await call(server.url, "GET", `/jobs/${"0".repeat(32)}`);
    expect(unknownJob.status).toBe(404);
    expect(unknownJob.json).toEqual({ errors: [`Job ${"0".repeat(32)} not found`] });
    const jid = jobs[0]!.getJobId();
    const unknownVertex = await call(server.url, "GET", `/jobs/${jid}/vertices/${"f".repeat(32)}`);
    expect([unknownVertex.status, (unknownVertex.json as { errors: string[] }).errors[0]]).toEqual([404, `Vertex ${"f".repeat(32)} not found in job ${jid}`]);
    expect((await call(server.url, "GET", `/jobs/${jid}/checkpoints/details/999999`)).status).toBe(404);
    expect((await call(server.url, "GET", "/no/such/path")).json).toEqual({ errors: ["Not found: /no/such/path"] });
    expect((await call(server.url, "GET", "/jobs/not-a-job-id")).status).toBe(400);
    expect((await call(server.url, "GET", `/jobs/${jid}/checkpoints/details/abc`)).status).toBe(400);
    const wrongMethod = await call(server.url, "DELETE", "/jobs/overview", { token: TOKEN });
    expect([wrongMethod.status, wrongMethod.headers["allow"]]).toEqual([405, "GET"]);
    const badJson = await call(server.url, "POST", `/jobs/${jid}/savepoints`, { token: TOKEN, body: "{not json" });
    expect(badJson.status).toBe(400);
    const badField = await call(server.url, "POST", `/jobs/${jid}/savepoints`, { token: TOKEN, body: { "cancel-job": "yes" } });
    expect([badField.status, badField.json]).toEqual([400, { errors: [`'cancel-job' must be a boolean, got "yes"`] }]);
    const notJson = await call(server.url, "POST", `/jobs/${jid}/savepoints`, { token: TOKEN, body: "a=b", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(notJson.status).toBe(415);
    const badMode = await call(server.url, "PATCH", `/jobs/${jid}?mode=stop`, { token: TOKEN });
    expect(badMode.status).toBe(400);
  });

  it("takes a savepoint by request id: in progress, then completed with its location; an unknown request id is a 404", async () => {
    const job = jobs[0]!;
    await completedCheckpoint(job);
    const trigger = await call(server.url, "POST", `/jobs/${job.getJobId()}/savepoints`, { token: TOKEN, body: { "target-directory": join(savepointDir, "explicit") } });
    expect(trigger.status).toBe(202);
    const rid = (trigger.json as { "request-id": string })["request-id"];
    expect(rid).toMatch(/^[0-9a-f]{32}$/);
    const done = await eventually("the savepoint", async () => {
      const s = await getJson<{ status: { id: string }; operation?: { location?: string } }>(server.url, `/jobs/${job.getJobId()}/savepoints/${rid}`);
      return s.status.id === "COMPLETED" ? s : undefined;
    });
    expect(done.operation!.location).toMatch(/explicit\/savepoint-first-\d+$/);
    expect(existsSync(join(done.operation!.location!, "_metadata"))).toBe(true);
    // without a directory: the configuration's state.savepoints.dir
    const byDefault = await call(server.url, "POST", `/jobs/${job.getJobId()}/savepoints`, { token: TOKEN });
    const rid2 = (byDefault.json as { "request-id": string })["request-id"];
    const done2 = await eventually("the second savepoint", async () => {
      const s = await getJson<{ status: { id: string }; operation?: { location?: string } }>(server.url, `/jobs/${job.getJobId()}/savepoints/${rid2}`);
      return s.status.id === "COMPLETED" ? s : undefined;
    });
    expect(done2.operation!.location!.startsWith(savepointDir)).toBe(true);
    expect((await call(server.url, "GET", `/jobs/${job.getJobId()}/savepoints/${"a".repeat(32)}`)).status).toBe(404);
    expect((await call(server.url, "GET", `/jobs/${jobs[1]!.getJobId()}/savepoints/${rid}`)).status).toBe(404);
  });

  it("a flame graph of the thread that runs the job's tasks (in-process), in Flink's shape", async () => {
    const job = jobs[0]!;
    const details = await getJson<{ vertices: { id: string }[] }>(server.url, `/jobs/${job.getJobId()}`);
    const path = `/jobs/${job.getJobId()}/vertices/${details.vertices[0]!.id}/flamegraph`;
    const answer = await call(server.url, "GET", path);
    expect(answer.status, answer.text).toBe(200);
    expect(violations("GET", path, 200, answer.json)).toEqual([]);
    const { data } = answer.json as { data: { name: string; value: number; children: { value: number }[] } };
    expect(data.name).toBe("root");
    expect(data.value).toBeGreaterThan(0);
    expect(data.children.reduce((n, c) => n + c.value, 0)).toBeLessThanOrEqual(data.value);
    expect(answer.text).toMatch(/stream-task\.ts|StreamTask|runSource/);
    expect((await call(server.url, "GET", `${path}?type=WRONG`)).status).toBe(400);
  });

  it("records every subtask's acknowledgement of a checkpoint", async () => {
    const job = jobs[0]!;
    const cid = await completedCheckpoint(job);
    const details = await getJson<{ tasks: Record<string, { num_acknowledged_subtasks: number }> }>(server.url, `/jobs/${job.getJobId()}/checkpoints/details/${cid}`);
    const [vid] = Object.keys(details.tasks);
    const subtasks = await getJson<{ subtasks: { index: number; status: string; ack_timestamp: number; checkpoint: { sync: number } }[] }>(
      server.url,
      `/jobs/${job.getJobId()}/checkpoints/details/${cid}/subtasks/${vid}`,
    );
    expect(subtasks.subtasks.map((s) => [s.index, s.status])).toEqual([
      [0, "completed"],
      [1, "completed"],
    ]);
    for (const s of subtasks.subtasks) expect(s.ack_timestamp).toBeGreaterThan(0);
  });

  it("stops a job with a savepoint (POST /stop), then cancels the other one (PATCH ?mode=cancel)", async () => {
    const [first, second] = jobs as [JobClient, JobClient];
    await completedCheckpoint(first);
    const badDrain = await call(server.url, "POST", `/jobs/${first.getJobId()}/stop`, { token: TOKEN, body: { drain: "yes" } });
    expect(badDrain.status).toBe(400);
    const stop = await call(server.url, "POST", `/jobs/${first.getJobId()}/stop`, { token: TOKEN, body: { targetDirectory: join(savepointDir, "stop") } });
    expect(stop.status).toBe(202);
    const rid = (stop.json as { "request-id": string })["request-id"];
    const result = await first.getJobExecutionResult();
    expect(result.savepointPath).toMatch(/stop\/savepoint-first-\d+$/);
    const status = await getJson<{ status: { id: string }; operation: { location: string } }>(server.url, `/jobs/${first.getJobId()}/savepoints/${rid}`);
    expect(status).toEqual({ status: { id: "COMPLETED" }, operation: { location: result.savepointPath } });
    expect((await getJson<{ state: string }>(server.url, `/jobs/${first.getJobId()}`)).state).toBe("FINISHED");

    const cancel = await call(server.url, "PATCH", `/jobs/${second.getJobId()}?mode=cancel`, { token: TOKEN });
    expect(cancel.status).toBe(202);
    await expect(second.getJobExecutionResult()).rejects.toThrow(/cancelled/);
    const details = await getJson<{ state: string; "end-time": number; timestamps: Record<string, number> }>(server.url, `/jobs/${second.getJobId()}`);
    expect(details.state).toBe("CANCELED");
    expect(details["end-time"]).toBe(details.timestamps["CANCELED"]);
    expect((await call(server.url, "PATCH", `/jobs/${second.getJobId()}?mode=cancel`, { token: TOKEN })).status).toBe(409);
    expect(await getJson(server.url, "/overview")).toMatchObject({ "jobs-running": 0, "jobs-finished": 1, "jobs-cancelled": 1 });
  });
});

describe("exceptions", () => {
  it("every failed attempt in the history, newest first, with the failed task; the answer fits Flink's schema", async () => {
    let failures = 0;
    const env = StreamExecutionEnvironment.create({ parallelism: 1, checkpointInterval: 100, checkpointDir: tempDir() });
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(5, 10));
    env
      .fromSource(throttledSequence(1, 1_000_000_000, 10, 10), WatermarkStrategy.noWatermarks(), "numbers")
      .uid("numbers")
      .map((n: number) => {
        if (n === 20 && failures < 2) throw new Error(`boom ${++failures}`);
        return n;
      })
      .name("fragile")
      .uid("fragile")
      .sinkTo(printSink("", () => {}))
      .uid("discard");
    const job = await env.executeAsync("failing");
    const server = await startRestServer({ host: "127.0.0.1", port: 0, jobs: () => [job], configuration: () => ({}) });
    try {
      await eventually("two failed attempts and a running third", async () => (job.getRestartCount() === 2 && job.getJobStatus() === "RUNNING") || undefined);
      const path = `/jobs/${job.getJobId()}/exceptions`;
      const answer = await call(server.url, "GET", path);
      expect(violations("GET", path, 200, answer.json)).toEqual([]);
      const body = answer.json as { "root-exception": string; exceptionHistory: { entries: { exceptionName: string; stacktrace: string; taskName: string; location: string }[] } };
      expect(body["root-exception"]).toMatch(/boom 2/);
      expect(body.exceptionHistory.entries.map((e) => [e.exceptionName, /boom \d/.exec(e.stacktrace)?.[0], e.taskName, e.location])).toEqual([
        ["Error", "boom 2", "Source: numbers -> fragile -> Sink: Sink (1/1)", "in-process"],
        ["Error", "boom 1", "Source: numbers -> fragile -> Sink: Sink (1/1)", "in-process"],
      ]);
      const one = (await call(server.url, "GET", `${path}?maxExceptions=1`)).json as { exceptionHistory: { entries: unknown[]; truncated: boolean } };
      expect([one.exceptionHistory.entries.length, one.exceptionHistory.truncated]).toEqual([1, true]);
      const details = (await call(server.url, "GET", `/jobs/${job.getJobId()}`)).json as { timestamps: Record<string, number> };
      expect(details.timestamps["RESTARTING"]).toBeGreaterThan(0);
    } finally {
      await server.close();
      await job.cancel();
    }
  });
});

describe("stop with savepoint and drain", () => {
  /** Numbers with their value as event time, summed in one window far longer than the test: it fires only when event time ends. */
  async function windowJob(name: string, lines: string[]): Promise<JobClient> {
    const env = StreamExecutionEnvironment.create({ parallelism: 1, checkpointInterval: 100, checkpointDir: tempDir() });
    env
      .fromSource(throttledSequence(1, 1_000_000_000, 10, 10), WatermarkStrategy.forMonotonousTimestamps<number>().withTimestampAssigner((n) => n), "numbers")
      .uid("numbers")
      .keyBy(() => "all")
      .window(TumblingEventTimeWindows.of(1_000_000_000_000))
      .reduce((a, b) => a + b)
      .uid("window")
      .sinkTo(printSink("", (line) => void lines.push(line)))
      .uid("windows");
    return env.executeAsync(name);
  }

  it("drain: the sources end event time before the savepoint, so the open window fires; without drain it does not", async () => {
    const drainedLines: string[] = [];
    const keptLines: string[] = [];
    const [drained, kept] = [await windowJob("drained", drainedLines), await windowJob("kept", keptLines)];
    const server = await startRestServer({ host: "127.0.0.1", port: 0, jobs: () => [drained, kept], configuration: () => ({ "state.savepoints.dir": tempDir() }) });
    try {
      await Promise.all([completedCheckpoint(drained), completedCheckpoint(kept)]);
      expect((await call(server.url, "POST", `/jobs/${drained.getJobId()}/stop`, { body: { drain: true } })).status).toBe(202);
      expect((await call(server.url, "POST", `/jobs/${kept.getJobId()}/stop`, { body: { drain: false } })).status).toBe(202);
      const [withDrain, without] = await Promise.all([drained.getJobExecutionResult(), kept.getJobExecutionResult()]);
      expect(withDrain.savepointPath).not.toBeNull();
      expect(without.savepointPath).not.toBeNull();
      expect(drainedLines).toHaveLength(1);
      expect(Number(drainedLines[0])).toBeGreaterThan(0);
      expect(keptLines).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe("security of the REST server", () => {
  let job: JobClient;
  let server: RestServer;
  beforeAll(async () => {
    job = await startJob("guarded");
    await running(job);
    server = await startRestServer({ host: "127.0.0.1", port: 0, token: TOKEN, jobs: () => [job], configuration: () => ({ "state.savepoints.dir": tempDir() }) });
  });
  afterAll(async () => {
    await server?.close();
    await job?.cancel();
  });

  it("on 127.0.0.1 reads need no token; every call that changes something needs the right one (Bearer)", async () => {
    const jid = job.getJobId();
    expect((await call(server.url, "GET", `/jobs/${jid}`)).status).toBe(200);
    const none = await call(server.url, "POST", `/jobs/${jid}/savepoints`);
    expect([none.status, none.headers["www-authenticate"]]).toEqual([401, "Bearer"]);
    expect(none.json).toEqual({ errors: ["this call needs the server's token: send the header 'Authorization: Bearer <token>'"] });
    expect((await call(server.url, "POST", `/jobs/${jid}/savepoints`, { token: `${TOKEN}x` })).status).toBe(401);
    expect((await call(server.url, "POST", `/jobs/${jid}/stop`, { headers: { authorization: `Basic ${TOKEN}` } })).status).toBe(401);
    expect((await call(server.url, "PATCH", `/jobs/${jid}?mode=cancel`)).status).toBe(401);
    expect(job.getJobStatus()).toBe("RUNNING");
  });

  it("refuses cross-origin requests and sends no CORS header, not even to a preflight", async () => {
    const jid = job.getJobId();
    const preflight = await call(server.url, "OPTIONS", `/jobs/${jid}/savepoints`, {
      headers: { origin: "http://evil.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    expect(preflight.status).toBe(403);
    const simple = await call(server.url, "GET", "/jobs/overview", { headers: { origin: "http://evil.example" } });
    const post = await call(server.url, "POST", `/jobs/${jid}/stop`, { token: TOKEN, headers: { origin: "http://evil.example" } });
    const nullOrigin = await call(server.url, "GET", "/overview", { headers: { origin: "null" } });
    for (const answer of [preflight, simple, post, nullOrigin]) {
      expect(answer.status).toBe(403);
      expect(Object.keys(answer.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
    }
    const same = await call(server.url, "GET", "/overview", { headers: { origin: server.url } });
    expect(same.status).toBe(200);
    expect(Object.keys(same.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
    expect(job.getJobStatus()).toBe("RUNNING");
  });

  it("on a loopback address answers only requests for a loopback host name (no DNS rebinding)", async () => {
    const port = new URL(server.url).port;
    expect((await call(server.url, "GET", "/overview", { headers: { host: `rebound.example:${port}` } })).status).toBe(403);
    expect((await call(server.url, "GET", "/overview", { headers: { host: `localhost:${port}` } })).status).toBe(200);
  });

  it("binding another address needs a token, and then every call, reads too, must carry it", async () => {
    const options = { port: 0, jobs: () => [job], configuration: () => ({}) };
    await expect(startRestServer({ ...options, host: "0.0.0.0" })).rejects.toThrow(RestConfigError);
    await expect(startRestServer({ ...options, host: "0.0.0.0" })).rejects.toThrow(/give it a token \(rest\.token or --web-token\)/);
    await expect(startRestServer({ ...options, host: "127.0.0.1", token: "short" })).rejects.toThrow(/at least 8 characters/);
    const open = await startRestServer({ ...options, host: "0.0.0.0", token: TOKEN });
    try {
      const local = `http://127.0.0.1:${open.port}`;
      expect((await call(local, "GET", "/overview")).status).toBe(401);
      expect((await call(local, "GET", `/jobs/${job.getJobId()}`, { token: "wrong-token-000" })).status).toBe(401);
      expect((await call(local, "GET", "/overview", { token: TOKEN })).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});

describe("the dashboard's files", () => {
  let server: RestServer;
  let root: string;
  beforeAll(async () => {
    const dir = tempDir();
    root = join(dir, "web");
    mkdirSync(join(root, "assets"), { recursive: true });
    writeFileSync(join(root, "index.html"), "<!doctype html><title>weir</title>");
    writeFileSync(join(root, "assets", "app.js"), "console.log('dashboard');");
    writeFileSync(join(dir, "secret.txt"), "TOP SECRET");
    symlinkSync(dir, join(root, "escape"));
    server = await startRestServer({ host: "127.0.0.1", port: 0, jobs: () => [], configuration: () => ({}), webRoot: root });
  });
  afterAll(() => server?.close());

  it("serves index.html at / and the assets with their content type", async () => {
    const index = await call(server.url, "GET", "/");
    expect([index.status, index.headers["content-type"], index.text]).toEqual([200, "text/html; charset=utf-8", "<!doctype html><title>weir</title>"]);
    const js = await call(server.url, "GET", "/assets/app.js");
    expect([js.status, js.headers["content-type"]]).toEqual([200, "text/javascript; charset=utf-8"]);
    expect((await call(server.url, "GET", "/assets/missing.js")).status).toBe(404);
    expect((await call(server.url, "GET", "/assets")).status).toBe(404);
  });

  it("never serves a file outside its folder: .., encoded .., encoded slashes, absolute paths, symbolic links", async () => {
    for (const path of [
      "/../secret.txt",
      "/assets/../../secret.txt",
      "/%2e%2e/secret.txt",
      "/%2E%2E/secret.txt",
      "/assets/%2e%2e/%2e%2e/secret.txt",
      "/%2e%2e%2fsecret.txt",
      "/..%5csecret.txt",
      "//etc/passwd",
      "/%2fetc%2fpasswd",
      `/${encodeURIComponent(join(root, "..", "secret.txt"))}`,
      "/escape/secret.txt",
      "/%00/secret.txt",
      "/%zz",
    ]) {
      const answer = await call(server.url, "GET", path);
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.text, path).not.toContain("TOP SECRET");
      expect(answer.text, path).not.toContain("root:");
    }
  });
});

describe("the port", () => {
  it("when rest.port is taken, the next free one", async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", () => r()));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const server = await startRestServer({ host: "127.0.0.1", port: taken, jobs: () => [], configuration: () => ({}) });
      try {
        expect(server.port).toBeGreaterThan(taken);
        expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
        expect((await call(server.url, "GET", "/overview")).status).toBe(200);
      } finally {
        await server.close();
      }
    } finally {
      blocker.close();
    }
  });
});
