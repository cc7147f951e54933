/**
 * `/jobs/:jid/checkpoints` of a job running in this process: the history holds the last
 * `web.checkpoints.history` checkpoints (Flink's default 10), and a savepoint taken through the API
 * shows as completed, at the folder it was written to, as soon as its operation is COMPLETED.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { printSink, startRestServer, StreamExecutionEnvironment, WatermarkStrategy, type JobClient, type RestServer } from "../../src/index.ts";
import { throttledSequence } from "../fixtures/throttled-sequence-source.ts";
import { violations } from "../support/flink-rest-schemas/index.ts";
import { call, eventually, getJson } from "../support/rest-calls.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const tempDir = tempDirs("weir-rest-history-");

interface Entry {
  id: number;
  status: string;
  is_savepoint: boolean;
  external_path?: string;
  num_subtasks: number;
  num_acknowledged_subtasks: number;
}
interface Statistics {
  counts: { completed: number };
  latest: { completed?: Entry; savepoint?: Entry };
  history: Entry[];
}

/** A job checkpointing every 50 ms until it is cancelled. */
async function startJob(name: string): Promise<JobClient> {
  const env = StreamExecutionEnvironment.create({ parallelism: 1, checkpointInterval: 50, checkpointDir: tempDir() });
  env
    .fromSource(throttledSequence(1, 1_000_000_000, 10, 10), WatermarkStrategy.noWatermarks(), "numbers")
    .uid("numbers")
    .sinkTo(printSink("", () => {}))
    .uid("discard");
  return env.executeAsync(name);
}

describe("the checkpoint history of /jobs/:jid/checkpoints", () => {
  let job: JobClient;
  const servers: RestServer[] = [];

  beforeAll(async () => {
    job = await startJob("history");
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await job?.cancel();
  });

  async function serve(configuration: Record<string, string>): Promise<RestServer> {
    const server = await startRestServer({ host: "127.0.0.1", port: 0, jobs: () => [job], configuration: () => configuration });
    servers.push(server);
    return server;
  }

  async function statistics(server: RestServer, atLeast: number): Promise<Statistics> {
    return eventually(`${atLeast} completed checkpoints`, async () => {
      const s = await getJson<Statistics>(server.url, `/jobs/${job.getJobId()}/checkpoints`);
      return s.counts.completed >= atLeast ? s : undefined;
    }, 60_000);
  }

  it("keeps the last 10 checkpoints by default (web.checkpoints.history), newest first", async () => {
    const s = await statistics(await serve({}), 14);
    expect(s.history).toHaveLength(10);
    const ids = s.history.map((c) => c.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it("keeps as many as web.checkpoints.history says", async () => {
    const server = await serve({ "web.checkpoints.history": "3" });
    const s = await statistics(server, 5);
    expect(s.history).toHaveLength(3);
    expect(violations("GET", `/jobs/${job.getJobId()}/checkpoints`, 200, s)).toEqual([]);
  });

  it("a savepoint is completed in the history, at the folder written, once its operation is COMPLETED", async () => {
    const server = await serve({});
    await statistics(server, 1);
    for (let round = 0; round < 5; round++) await savepointShows(server, join(tempDir(), "by-rest"));
  });

  async function savepointShows(server: RestServer, target: string): Promise<void> {
    const trigger = await call(server.url, "POST", `/jobs/${job.getJobId()}/savepoints`, { body: { "target-directory": target } });
    const rid = (trigger.json as { "request-id": string })["request-id"];
    const location = await eventually("the savepoint", async () => {
      const s = await getJson<{ status: { id: string }; operation?: { location: string } }>(server.url, `/jobs/${job.getJobId()}/savepoints/${rid}`);
      return s.status.id === "COMPLETED" ? s.operation!.location : undefined;
    });
    expect(location.startsWith(target)).toBe(true);
    const s = await getJson<Statistics>(server.url, `/jobs/${job.getJobId()}/checkpoints`);
    expect(s.latest.savepoint?.external_path).toBe(location);
    const savepoint = s.latest.savepoint!;
    const inHistory = s.history.filter((c) => c.id === savepoint.id);
    expect(inHistory.map((c) => [c.status, c.is_savepoint, c.external_path])).toEqual([["COMPLETED", true, location]]);
    expect(s.history.filter((c) => c.status === "IN_PROGRESS" && c.is_savepoint)).toEqual([]);
    const details = await getJson<Entry>(server.url, `/jobs/${job.getJobId()}/checkpoints/details/${savepoint.id}`);
    expect([details.status, details.external_path]).toEqual(["COMPLETED", location]);
  }
});
