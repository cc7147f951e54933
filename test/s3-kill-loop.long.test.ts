/**
 * `weir run` of the running-total job (exactly-once FileSink) with checkpoints in a real S3-compatible server
 * (S3Proxy), SIGKILLed at random moments and restarted, commits exactly the output of a failure-free run: with
 * the heap backend's full checkpoints, and with the disk backend's incremental ones (shared objects in S3,
 * restores read from S3). The kill while a `_metadata` PUT is held is in s3-checkpoints.long.test.ts.
 * Reproduce a failure with WEIR_SEED=<seed>.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { fileSystemsFor } from "../src/checkpoint/storage/file-systems.ts";
import type { FileSystems } from "../src/checkpoint/storage/storage-file-system.ts";
import { testSeed } from "../src/util/seeded-random.ts";
import { committedTotals, describeDiff, diffTotals, expectedTotals, finalTallies, hiddenFiles, keySums } from "./support/e2e-orders.ts";
import { runningTotalCrashLoop } from "./support/running-total-crash-loop.ts";
import { completedS3CheckpointIds, s3RunFlags, startS3Server, type S3Server } from "./support/s3-server.ts";

const SEED = testSeed();
let s3: S3Server;
let fileSystems: FileSystems;
beforeAll(async () => {
  s3 = await startS3Server(["weir"]);
  fileSystems = fileSystemsFor(s3.settings);
}, 120_000);
afterAll(() => s3?.stop());

it(`heap backend, checkpoints in S3, killed at random moments (seed ${SEED}): the committed output is exact`, async () => {
  const checkpointDir = "s3://weir/kill-loop-heap/chk";
  const { files, output, where } = await runningTotalCrashLoop({
    seed: SEED,
    kills: 4,
    checkpointDir,
    latestCheckpoint: async () => (await completedS3CheckpointIds(fileSystems, checkpointDir)).at(-1) ?? 0,
    flags: [...s3RunFlags(s3), "--state-backend", "heap"],
  });
  const actual = committedTotals(output);
  const diff = diffTotals(expectedTotals(files), actual);
  expect(diff.missing.length + diff.duplicated.length + diff.wrong.length, `${where}: ${describeDiff(diff)}`).toBe(0);
  expect(finalTallies(actual), `${where}: last count and total per key`).toEqual(keySums(files));
  expect(await completedS3CheckpointIds(fileSystems, checkpointDir), where).toHaveLength(1);
  expect((await fileSystems(checkpointDir).list(`${checkpointDir}/shared`)).files, `${where}: shared objects of full checkpoints`).toEqual([]);
}, 300_000);

it(`disk backend (incremental), checkpoints in S3, killed at random moments (seed ${SEED}): the committed output is exact; restores read S3`, async () => {
  const checkpointDir = "s3://weir/kill-loop-disk/chk";
  const { files, output, where, report } = await runningTotalCrashLoop({
    seed: SEED,
    kills: 3,
    input: [4, 10_000, 25],
    checkpointDir,
    latestCheckpoint: async () => (await completedS3CheckpointIds(fileSystems, checkpointDir)).at(-1) ?? 0,
    flags: [...s3RunFlags(s3), "--state-backend", "disk"],
  });
  const actual = committedTotals(output);
  const diff = diffTotals(expectedTotals(files), actual);
  expect(diff.missing.length + diff.duplicated.length + diff.wrong.length, `${where}: ${describeDiff(diff)}`).toBe(0);
  expect(finalTallies(actual), `${where}: last count and total per key`).toEqual(keySums(files));
  expect(hiddenFiles(output), `${where}: hidden files left`).toEqual([]);
  expect(await completedS3CheckpointIds(fileSystems, checkpointDir), where).toHaveLength(1);
  expect((await fileSystems(checkpointDir).list(`${checkpointDir}/shared`)).files.length, `${where}: no shared (incremental) objects in S3`).toBeGreaterThan(0);
  expect(report.last.stderr, `${where}: restored from a local store, not from S3`).not.toMatch(/from the local store/);
}, 300_000);
