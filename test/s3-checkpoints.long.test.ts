/**
 * `weir run` with checkpoints and savepoints in a real S3-compatible server (S3Proxy, reached with the
 * `s3.*` keys as -D flags): the running-total job (FileSource → keyBy → running total → exactly-once FileSink)
 * SIGKILLed while
 * its checkpoint's `_metadata` PUT is held (every state object written, the checkpoint not complete) restarts
 * from the checkpoint before; a savepoint in S3 restores at another parallelism; a missing bucket or an
 * unreachable endpoint fails the run before it reads anything; a corrupt `_metadata` object is named by its
 * s3:// path. The kill loops at random moments (heap, and disk with incremental checkpoints) are in
 * s3-kill-loop.long.test.ts (npm run test:long). Reproduce a failure with WEIR_SEED=<seed>.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileSystemsFor } from "../src/checkpoint/storage/file-systems.ts";
import type { FileSystems } from "../src/checkpoint/storage/storage-file-system.ts";
import { testSeed } from "../src/util/seeded-random.ts";
import { runCli, startCli } from "./support/cli-process.ts";
import { finish } from "./support/e2e-kill-loop.ts";
import { committedTotals, expectExactOutput, writeOrders } from "./support/e2e-orders.ts";
import { freePort } from "./support/kafka-broker.ts";
import { startS3HoldProxy } from "./support/s3-hold-proxy.ts";
import { completedS3CheckpointIds, s3RunFlags, startS3Server, type S3Server } from "./support/s3-server.ts";

const SEED = testSeed();
const WHERE = `seed ${SEED} (WEIR_SEED=${SEED})`;
const JOB = "test/fixtures/e2e-running-total-job.ts";
const BUCKET = "weir";

let s3: S3Server;
let fileSystems: FileSystems;
const root = mkdtempSync(join(tmpdir(), "weir-s3-e2e-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

beforeAll(async () => {
  s3 = await startS3Server([BUCKET]);
  fileSystems = fileSystemsFor(s3.settings);
}, 120_000);
afterAll(() => s3?.stop());

const s3Flags = (endpoint?: string): string[] => s3RunFlags(s3, endpoint);
const completedIds = (dir: string): Promise<number[]> => completedS3CheckpointIds(fileSystems, dir);
const latestId = async (dir: string): Promise<number> => (await completedIds(dir)).at(-1) ?? 0;

/** Polls `condition` every 20 ms until true; rejects after `timeoutMs`. */
async function until(what: string, condition: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe(`checkpoints in S3 (seed ${SEED})`, () => {
  it("SIGKILLed while its checkpoint's _metadata PUT is held: the partial checkpoint is never restored, the output is exact", async () => {
    const proxy = await startS3HoldProxy(s3.endpoint);
    try {
      const dir = mkdtempSync(join(root, "held-"));
      const [input, output, gate] = ["in", "out", "gate"].map((d) => join(dir, d)) as [string, string, string];
      const files = writeOrders(input, SEED, 2, 5_000, 10);
      const checkpointDir = `s3://${BUCKET}/held/chk`;
      const command = [
        "run", JOB, "--parallelism", "2", "--workers", "2", "--checkpoint-interval", "100", "--checkpoint-dir", checkpointDir, ...s3Flags(proxy.endpoint),
        "--", input, output, "0", "running-total", "0", "1", gate,
      ];
      const run = startCli(command);
      await until("a completed checkpoint of the first run", async () => (await latestId(checkpointDir)) > 0 || run.child.exitCode !== null);
      const held = await proxy.holdNextMetadata();
      const heldId = Number(/\/chk-(\d+)\/_metadata$/.exec(held)![1]);
      run.child.kill("SIGKILL");
      const killed = await finish(run, 60_000);
      expect(killed.signal, killed.stderr).toBe("SIGKILL");
      proxy.dropHeld();
      const fs = fileSystems(checkpointDir);
      expect((await fs.list(`${checkpointDir}/chk-${heldId}`)).files.filter((f) => f.endsWith(".state")).length, `${WHERE}: state objects of the held checkpoint`).toBeGreaterThan(0);
      expect(await fs.size(`${checkpointDir}/chk-${heldId}/_metadata`)).toBeNull();
      const completeBefore = await latestId(checkpointDir);
      expect(completeBefore, WHERE).toBeLessThan(heldId);

      writeFileSync(gate, "");
      const last = await runCli(command, 120_000);
      expect(last.code, `${WHERE}\n${last.stderr}`).toBe(0);
      expect(last.stderr, WHERE).toContain(`restored from checkpoint ${completeBefore} (${checkpointDir}/chk-${completeBefore},`);
      expectExactOutput(files, output, `${WHERE}, held chk-${heldId}`);
    } finally {
      await proxy.close();
    }
  }, 240_000);

  it("a savepoint in S3 (disk backend) is self-contained and restores at another parallelism", async () => {
    const dir = mkdtempSync(join(root, "savepoint-"));
    const [input, stopped, gate] = ["in", "out", "gate"].map((d) => join(dir, d)) as [string, string, string];
    const files = writeOrders(input, SEED, 4, 5_000, 25);
    const checkpointDir = `s3://${BUCKET}/savepoint-run/chk`;
    const run = startCli([
      "run", JOB, "--parallelism", "2", "--workers", "2", "--checkpoint-interval", "200", "--checkpoint-dir", checkpointDir,
      "--state-backend", "disk", "--savepoint-dir", `s3://${BUCKET}/savepoints`, ...s3Flags(), "--", input, stopped, "0", "running-total", "0", "1", gate,
    ]);
    await until("a completed checkpoint of the first run", async () => (await latestId(checkpointDir)) > 0 || run.child.exitCode !== null);
    run.child.kill("SIGINT");
    const stop = await finish(run, 60_000);
    expect(stop.code, `${WHERE}: stop\n${stop.stderr}`).toBe(0);
    const savepoint = /stopped with savepoint (\S+)/.exec(stop.stderr)?.[1];
    expect(savepoint, `${WHERE}: no savepoint reported\n${stop.stderr}`).toMatch(new RegExp(`^s3://${BUCKET}/savepoints/savepoint-e2e-running-total-\\d+$`));
    expect(committedTotals(stopped).length, `${WHERE}: the job finished before the stop`).toBeLessThan(20_000);
    // the checkpoint directory goes: the savepoint holds everything it needs
    await fileSystems(checkpointDir).deleteDirectory(`s3://${BUCKET}/savepoint-run`);

    writeFileSync(gate, "");
    const resumed = await runCli([
      "run", JOB, "--parallelism", "3", "--workers", "2", "--checkpoint-interval", "200", "--checkpoint-dir", `s3://${BUCKET}/resumed/chk`,
      "--state-backend", "disk", "--from-savepoint", savepoint!, ...s3Flags(), "--", input, stopped, "0", "running-total", "0", "1", gate,
    ], 120_000);
    expect(resumed.code, `${WHERE}\n${resumed.stderr}`).toBe(0);
    expect(resumed.stderr, WHERE).toContain(`restored from savepoint`);
    expectExactOutput(files, stopped, `${WHERE}, resumed at parallelism 3`);
    expect(readdirSync(stopped).some((n) => n.startsWith("part-totals-2-")), `${WHERE}: no part file of the third sink subtask`).toBe(true);
  }, 240_000);

  it("a missing bucket or an unreachable endpoint fails the run before it reads anything, naming the problem", async () => {
    const dir = mkdtempSync(join(root, "unusable-"));
    const [input, output] = ["in", "out"].map((d) => join(dir, d)) as [string, string];
    writeOrders(input, SEED, 1, 100, 5);
    const command = (checkpointDir: string, endpoint?: string) => ["run", JOB, "--checkpoint-interval", "100", "--checkpoint-dir", checkpointDir, ...s3Flags(endpoint), "--", input, output];
    const noBucket = await runCli(command("s3://no-such-bucket/chk"), 60_000);
    expect(noBucket.code, noBucket.stderr).toBe(1);
    expect(noBucket.stderr).toContain(
      `weir: error: CheckpointDirectoryError: checkpoint directory s3://no-such-bucket/chk cannot be used: bucket 'no-such-bucket' does not exist at endpoint ${s3.endpoint}\n`,
    );
    expect(noBucket.stderr).toMatch(/: 0 records in, 0 out, 0 checkpoints, 0 restarts; exit 1\n$/);
    const port = await freePort();
    const unreachable = await runCli(command(`s3://${BUCKET}/chk`, `http://127.0.0.1:${port}`), 60_000);
    expect(unreachable.code, unreachable.stderr).toBe(1);
    expect(unreachable.stderr).toContain(
      `weir: error: CheckpointDirectoryError: checkpoint directory s3://${BUCKET}/chk cannot be used: the S3 server at endpoint http://127.0.0.1:${port} cannot be reached (ECONNREFUSED`,
    );
    expect(existsSync(output), "the sink wrote").toBe(false);
  }, 120_000);

  it("a corrupt _metadata object with nothing older: the run refuses to start, naming its s3:// path", async () => {
    const dir = mkdtempSync(join(root, "corrupt-"));
    const [input, output] = ["in", "out"].map((d) => join(dir, d)) as [string, string];
    writeOrders(input, SEED, 2, 500, 5);
    const checkpointDir = `s3://${BUCKET}/corrupt/chk`;
    const command = ["run", JOB, "--checkpoint-interval", "100", "--checkpoint-dir", checkpointDir, ...s3Flags(), "--", input, output];
    const first = await runCli(command, 60_000);
    expect(first.code, first.stderr).toBe(0);
    const [id] = await completedIds(checkpointDir);
    const metadata = `${checkpointDir}/chk-${id}/_metadata`;
    const fs = fileSystems(metadata);
    const bytes = (await fs.read(metadata))!;
    bytes[bytes.length >> 1] ^= 0xff;
    await fs.write(metadata, bytes, "atomic");
    const before = committedTotals(output).length;
    const second = await runCli(command, 60_000);
    expect(second.code, second.stderr).toBe(1);
    expect(second.stderr).toContain(
      `weir: error: DamagedCheckpointError: checkpoint ${id} at ${checkpointDir}/chk-${id} is damaged: corrupt checkpoint file ${metadata}: checksum mismatch`,
    );
    expect(committedTotals(output).length, "the sink wrote").toBe(before);
  }, 120_000);
});
