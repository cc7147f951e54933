import { describe, expect, it } from "vitest";
import { formatDuration, progressLineText, progressLogText, summaryText, type JobSnapshot } from "./job-report.ts";

const at = (seconds: number, recordsIn: number, recordsOut: number, more: Partial<JobSnapshot> = {}): JobSnapshot => ({
  status: "RUNNING",
  recordsIn,
  recordsOut,
  checkpoints: 0,
  restarts: 0,
  at: seconds * 1000,
  ...more,
});

describe("job report texts", () => {
  it("progress: rates over the interval (never negative after a restart reset the counts), the last checkpoint", () => {
    const prev = at(10, 5_000, 4_000);
    const cur = at(12, 8_000, 4_500, { checkpoints: 3, lastCheckpoint: { id: 7, durationMs: 12 }, restarts: 1 });
    expect(progressLineText("orders", prev, cur)).toBe("[orders] RUNNING  in 1.5k/s  out 250/s  checkpoint 7 (12 ms)  restarts 1");
    expect(progressLogText(prev, cur)).toBe("progress: RUNNING, 8000 records in (1.5k/s), 4500 out (250/s), checkpoint 7 (12 ms), 1 restart");
    expect(progressLineText("orders", cur, at(13, 100, 0))).toBe("[orders] RUNNING  in 0/s  out 0/s  no checkpoint yet  restarts 0");
  });

  it("summary: outcome, duration, records, checkpoints, restarts (of the last attempt after a restart) and the exit code", () => {
    expect(summaryText("tiny", "finished", 0, 1_234, at(0, 100, 50, { checkpoints: 1 }))).toBe(
      "job 'tiny' finished in 1.2 s: 100 records in, 50 out, 1 checkpoint, 0 restarts; exit 0",
    );
    expect(summaryText("tiny", "failed", 1, 7_000, at(0, 3, 0, { restarts: 3 }))).toBe(
      "job 'tiny' failed after 7.0 s: 3 records in, 0 out, 0 checkpoints, 3 restarts (records and checkpoints of the last attempt); exit 1",
    );
    expect(summaryText("t", "stopped", 0, 500, at(0, 1, 1))).toMatch(/^job 't' stopped with a savepoint after 0\.5 s: /);
    expect(summaryText("t", "cancelled", 130, 500, at(0, 1, 1))).toMatch(/^job 't' was cancelled after 0\.5 s: .*; exit 130$/);
  });

  it("durations", () => {
    expect(formatDuration(59_949)).toBe("59.9 s");
    expect(formatDuration(192_000)).toBe("3 min 12 s");
    expect(formatDuration(2 * 3_600_000 + 5 * 60_000)).toBe("2 h 05 min");
  });
});
