/**
 * Bad input to `weir run` gets a clear error that names the place, before the
 * job runs where it can: a savepoint path that does not exist, a checkpoint
 * directory that is a file or not writable, a null key (the keyBy call), and
 * a failed run's summary that counts what was read and written.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const tempDir = tempDirs("weir-input-errors-");
const TINY = "test/fixtures/tiny-job.ts";
const BAD_RECORD = "test/fixtures/bad-record-job.ts";
/** Root writes anywhere: a read-only directory needs the child to run as nobody. */
const NOBODY = process.getuid?.() === 0 ? 65534 : undefined;

describe("weir run: clear errors for bad input", () => {
  it("--from-savepoint that does not exist: it says so, naming the path (not 'corrupt'); nothing ran", async () => {
    const missing = join(tempDir(), "savepoint-1");
    const run = await runCli(["run", TINY, "--from-savepoint", missing, "--checkpoint-dir", tempDir()]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`savepoint ${missing} does not exist`);
    expect(run.stderr).not.toContain("corrupt");
    expect(run.stdout).toBe("");
  });

  it("--checkpoint-dir that is a file, or that Weir may not write in: named before the job runs", async () => {
    const dir = tempDir();
    const file = join(dir, "checkpoints");
    writeFileSync(file, "a file");
    const onFile = await runCli(["run", TINY, "--checkpoint-dir", file]);
    expect(onFile.code).toBe(1);
    expect(onFile.stderr).toContain(`checkpoint directory ${file} is a file, not a directory`);
    expect(onFile.stdout).toBe("");

    const readOnly = join(dir, "read-only");
    mkdirSync(readOnly);
    chmodSync(dir, 0o755);
    chmodSync(readOnly, 0o555);
    const target = join(readOnly, "checkpoints");
    const denied = await runCli(["run", TINY, "--checkpoint-dir", target], 120_000, {}, { uid: NOBODY });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain(`checkpoint directory ${target} is not writable (it would be created in ${readOnly}): EACCES`);
    expect(denied.stderr).not.toContain("declined");
    expect(denied.stdout).toBe("");
  });

  it("a null key names the keyBy call (file:line:col), the selector and the record", async () => {
    const run = await runCli(["run", BAD_RECORD, "--checkpoint-dir", tempDir(), "--restart-attempts", "0"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/keyBy\(\(?r\)? ?=> ?r\.user\) at test\/fixtures\/bad-record-job\.ts:17:6 returned undefined for the record \{ n: 42, user: undefined \}/);
  });

  it("a failed run's summary counts the records read and written up to the failure; rocksdb runs the disk backend with a note", async () => {
    const run = await runCli(["run", BAD_RECORD, "--checkpoint-dir", tempDir(), "--restart-attempts", "0", "--state-backend", "rocksdb", "--", "throw"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("record 42 has no user");
    expect(run.stderr).toMatch(/job 'bad-record' failed after [\d.]+ s: 42 records in, 41 out, 0 checkpoints, 0 restarts; exit 1/);
    expect(run.stderr).toContain("weir: state backend 'rocksdb' (Flink's name): Weir runs its disk backend, which keeps state on local disk in lmdb, not RocksDB");
  });
});
