/**
 * A regular join keeps rows until a retraction finds them by all their values, so rows whose
 * pruned fields differ (NULL for the fields nothing reads, see prune-columns.ts) must not be
 * restored into it: a savepoint of a join that kept other fields is refused when the job
 * starts, with the uid of the state it cannot place, instead of being misread.
 */
import { expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import type { JobClient } from "../../src/deploy/job-client.ts";
import { waitFor } from "../support/cli-process.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const tempDir = tempDirs("weir-pruned-join-");
const DEADLINE_MS = 60_000;

/** A regular join of two unbounded datagen tables, `select` over `a JOIN b ON a.k = b.k`, into a blackhole. */
async function start(select: string, fromSavepoint?: string): Promise<JobClient> {
  const env = StreamExecutionEnvironment.create({ parallelism: 1, checkpointInterval: 50, checkpointDir: tempDir(), ...(fromSavepoint === undefined ? {} : { fromSavepoint }) });
  const tEnv = StreamTableEnvironment.create(env);
  for (const t of ["a", "b"]) {
    tEnv.executeSql(`CREATE TABLE ${t} (k INT, x STRING, y STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '200', 'fields.k.min' = '0', 'fields.k.max' = '9', 'fields.x.length' = '5', 'fields.y.length' = '5')`);
  }
  tEnv.executeSql("CREATE TABLE out (k INT, v STRING) WITH ('connector' = 'blackhole')");
  return (await tEnv.executeSql(`INSERT INTO out SELECT ${select} FROM a JOIN b ON a.k = b.k`).getJobClient())!;
}

async function savepointOf(client: JobClient): Promise<string> {
  await waitFor("a completed checkpoint", () => (client.getCheckpointStats()?.counts.completed ?? 0) > 0, DEADLINE_MS);
  return client.stopWithSavepoint(tempDir());
}

it("a savepoint of a join whose rows kept other fields is refused, naming the join's state; the same query restores", async () => {
  const savepoint = await savepointOf(await start("a.k, b.x"));
  // the same query: the join's uid (and its rows' shape) is the same
  const same = await start("a.k, b.x", savepoint);
  const again = await savepointOf(same);
  expect(again).not.toBe(savepoint);
  // b.y instead of b.x: the join's rows keep another field
  const other = await start("a.k, b.y", savepoint);
  await expect(other.getJobExecutionResult()).rejects.toThrow(/has state for operator uid 'join-pruned-[0-9a-z]+', which this job does not have/);
}, 120_000);
