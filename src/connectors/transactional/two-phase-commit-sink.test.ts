import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { redistributeOperatorState } from "../../state/index.ts";
import { ManualClock } from "../../util/clock.ts";
import { FileSink } from "../file/file-sink.ts";
import { committedFiles, committedLines, hiddenFiles, startSubtask, readPart, tempDir, withoutRunIds } from "../file/test-file-sink-harness.ts";
import { InvalidTransactionTimeoutError } from "./two-phase-commit-sink.ts";
import { WriterClosedError } from "./two-phase-commit-writer.ts";

// Scenarios after Flink's TwoPhaseCommitSinkFunctionTest, with the file sink as the transactional system.
describe("TwoPhaseCommitSink", () => {
  it("makes visible only the data of completed checkpoints; close aborts the open transaction", async () => {
    const dir = tempDir();
    const t = await startSubtask<string>(FileSink.forLines(dir), {});
    t.writer.write("a");
    t.writer.write("b");
    await t.checkpoint(1);
    t.writer.write("c");
    expect(committedLines(dir)).toEqual([]);
    await t.writer.notifyCheckpointComplete(1);
    expect(committedLines(dir)).toEqual(["a", "b"]);
    expect(hiddenFiles(dir)).toHaveLength(1); // c, in progress
    await t.writer.close?.();
    expect(hiddenFiles(dir)).toEqual([]);
    expect(committedLines(dir)).toEqual(["a", "b"]);
    expect(() => t.writer.write("d")).toThrow(WriterClosedError);
  });

  it("commits every pending transaction up to a notification; an older notification after it is a no-op", async () => {
    const dir = tempDir();
    const t = await startSubtask<string>(FileSink.forLines(dir), {});
    t.writer.write("a");
    await t.checkpoint(1);
    t.writer.write("b");
    await t.checkpoint(2);
    t.writer.write("c");
    await t.checkpoint(3);
    await t.writer.notifyCheckpointComplete(2);
    expect(committedLines(dir)).toEqual(["a", "b"]);
    expect(withoutRunIds(committedFiles(dir))).toEqual(["part-files-0-<run>-0", "part-files-0-<run>-1"]);
    await t.writer.notifyCheckpointComplete(1);
    expect(committedLines(dir)).toEqual(["a", "b"]);
    await t.writer.notifyCheckpointComplete(3);
    expect(committedLines(dir)).toEqual(["a", "b", "c"]);
    expect(hiddenFiles(dir)).toEqual([]);
  });

  it("commits the transaction of an aborted checkpoint with the next completed one", async () => {
    const dir = tempDir();
    const t = await startSubtask<string>(FileSink.forLines(dir), {});
    t.writer.write("a");
    await t.checkpoint(1); // never completes
    t.writer.write("b");
    await t.checkpoint(2);
    await t.writer.notifyCheckpointComplete(2);
    expect(committedLines(dir)).toEqual(["a", "b"]);
  });

  it("after a crash before the notification, restore commits the checkpoint's data and removes later leftovers", async () => {
    const dir = tempDir();
    const t = await startSubtask<string>(FileSink.forLines(dir), {});
    t.writer.write("a");
    const blob = await t.checkpoint(1);
    t.writer.write("b"); // after the checkpoint: replayed by the source, must vanish
    t.writer.write("c");
    await t.checkpoint(2); // pre-committed, but checkpoint 2 never completes; then the process dies (no close)
    expect(hiddenFiles(dir)).toHaveLength(2);

    const r = await startSubtask<string>(FileSink.forLines(dir), { blobs: [blob], attempt: 1 });
    expect(committedLines(dir)).toEqual(["a"]);
    expect(hiddenFiles(dir)).toEqual([]);
    expect(r.logs.join("\n")).toMatch(/removed 1 uncommitted part file/);
    r.writer.write("b");
    await r.checkpoint(2);
    await r.writer.notifyCheckpointComplete(2);
    expect(committedLines(dir)).toEqual(["a", "b"]);
    expect(withoutRunIds(committedFiles(dir))).toEqual(["part-files-0-<run>-0", "part-files-0-<run>-1"]);
  });

  it("a restore after the commit commits nothing twice (commit is idempotent)", async () => {
    const dir = tempDir();
    const t = await startSubtask<string>(FileSink.forLines(dir), {});
    t.writer.write("a");
    const blob = await t.checkpoint(1);
    await t.writer.notifyCheckpointComplete(1);
    await startSubtask<string>(FileSink.forLines(dir), { blobs: [blob], attempt: 1 });
    await startSubtask<string>(FileSink.forLines(dir), { blobs: [blob], attempt: 2 });
    expect(committedLines(dir)).toEqual(["a"]);
  });

  it("rescale 2 → 1: the one new subtask commits the pending transactions of both and cleans both's leftovers", async () => {
    const dir = tempDir();
    const sink = FileSink.forLines<string>(dir);
    const s0 = await startSubtask(sink, { subtask: 0, parallelism: 2 });
    const s1 = await startSubtask(sink, { subtask: 1, parallelism: 2 });
    s0.writer.write("a0");
    s1.writer.write("a1");
    const blobs = [await s0.checkpoint(1), await s1.checkpoint(1)];
    s0.writer.write("late0");
    s1.writer.write("late1");
    const [assigned] = redistributeOperatorState(blobs, 1);
    const r = await startSubtask(FileSink.forLines<string>(dir), { blobs: assigned!, attempt: 1 });
    expect(committedLines(dir)).toEqual(["a0", "a1"]);
    expect(hiddenFiles(dir)).toEqual([]);
    r.writer.write("b");
    await r.checkpoint(2);
    await r.writer.notifyCheckpointComplete(2);
    expect(withoutRunIds(committedFiles(dir))).toEqual(["part-files-0-<run>-0", "part-files-0-<run>-1", "part-files-1-<run>-0"]);
    expect(readPart(dir, "part-files-0-<run>-1")).toBe("b\n");
  });

  it("rescale 1 → 2 → 1 → 2 commits everything once and never reuses a part name", async () => {
    const dir = tempDir();
    const sink = FileSink.forLines<string>(dir);
    const run = async (blobs: Uint8Array[] | undefined, p: number, attempt: number, id: number, prefix: string) => {
      const assigned = blobs ? redistributeOperatorState(blobs, p) : Array.from({ length: p }, () => undefined);
      const subtasks = await Promise.all(assigned.map((b, i) => startSubtask(sink, { subtask: i, parallelism: p, blobs: b, attempt })));
      subtasks.forEach((s, i) => s.writer.write(`${prefix}${i}`));
      const out = await Promise.all(subtasks.map((s) => s.checkpoint(id)));
      subtasks.forEach((s, i) => s.writer.write(`lost${prefix}${i}`)); // crash before the notification
      return out;
    };
    const c1 = await run(undefined, 1, 0, 1, "a");
    const c2 = await run(c1, 2, 1, 2, "b");
    const c3 = await run(c2, 1, 2, 3, "c");
    const c4 = await run(c3, 2, 3, 4, "d");
    await Promise.all(redistributeOperatorState(c4, 2).map((b, i) => startSubtask(sink, { subtask: i, parallelism: 2, blobs: b, attempt: 4 })));
    expect(committedLines(dir)).toEqual(["a0", "b0", "b1", "c0", "d0", "d1"]);
    expect(withoutRunIds(committedFiles(dir))).toEqual(
      ["0-<run>-0", "0-<run>-1", "0-<run>-2", "0-<run>-3", "1-<run>-0", "1-<run>-1"].map((n) => `part-files-${n}`),
    );
    expect(hiddenFiles(dir)).toEqual([]);
  });

  it("warns once when a transaction stays uncommitted beyond the warning ratio of its timeout", async () => {
    const dir = tempDir();
    const clock = new ManualClock(0);
    const sink = FileSink.forLines<string>(dir, { transactionTimeoutMs: 1_000, timeoutWarningRatio: 0.5 });
    const t = await startSubtask(sink, { clock });
    t.writer.write("a");
    clock.advance(499);
    expect(t.logs).toEqual([]);
    await t.checkpoint(1); // pending: still counts until committed
    clock.advance(1);
    expect(t.logs).toHaveLength(1);
    expect(t.logs[0]).toMatch(/not committed after 500 ms \(0.5 of the transaction timeout of 1000 ms\)/);
    await t.writer.notifyCheckpointComplete(1);
    clock.advance(10_000);
    expect(t.logs).toHaveLength(2); // the transaction begun at the barrier (t=499) is the second one
    await t.writer.close?.();
    expect(clock.pendingTimers()).toBe(0);
  });

  it("rejects timeout settings that cannot work", () => {
    expect(() => FileSink.forLines("x", { transactionTimeoutMs: 0 })).toThrow(InvalidTransactionTimeoutError);
    expect(() => FileSink.forLines("x", { transactionTimeoutMs: 10, timeoutWarningRatio: 1.5 })).toThrow(/timeoutWarningRatio must be in \(0, 1\]/);
  });

  it("leaves no file behind for a transaction without records", async () => {
    const dir = tempDir();
    const t = await startSubtask<string>(FileSink.forLines(dir), {});
    await t.checkpoint(1);
    await t.writer.notifyCheckpointComplete(1);
    await t.writer.close?.();
    expect(existsSync(dir) ? committedFiles(dir).concat(hiddenFiles(dir)) : []).toEqual([]);
  });
});
