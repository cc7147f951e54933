import { describe, expect, it } from "vitest";
import { CheckpointStatsTracker, STATS_HISTORY_LIMIT, type CompletedCheckpointStats } from "./checkpoint-stats.ts";

const completed = (checkpointId: number): CompletedCheckpointStats => ({
  checkpointId,
  savepoint: false,
  triggeredAt: checkpointId * 10,
  completedAt: checkpointId * 10 + 5,
  durationMs: 5,
  stateSize: 100,
  checkpointedSize: 100,
  maxAlignmentMs: 1,
  maxSyncMs: 1,
  maxAsyncMs: 1,
  acks: [],
  subtasks: 1,
});

describe("CheckpointStatsTracker", () => {
  it("relocate: a completed checkpoint (a savepoint once written) shows at its new location, in the history and as the last", () => {
    const tracker = new CheckpointStatsTracker();
    tracker.recordCompleted({ ...completed(1), location: "/c/chk-1" });
    tracker.recordCompleted({ ...completed(2), savepoint: true, location: "/c/chk-2" });
    tracker.relocate(2, "/s/savepoint-2");
    tracker.relocate(7, "/nowhere");
    const stats = tracker.snapshot(0, 0);
    expect(stats.history.completed.map((c) => c.location)).toEqual(["/c/chk-1", "/s/savepoint-2"]);
    expect(stats.lastCompleted!.location).toBe("/s/savepoint-2");
  });

  it("keeps only the last STATS_HISTORY_LIMIT entries, oldest first, and counts them all", () => {
    const tracker = new CheckpointStatsTracker();
    for (let id = 1; id <= STATS_HISTORY_LIMIT + 5; id++) {
      tracker.recordTriggered();
      tracker.recordCompleted(completed(id));
    }
    const stats = tracker.snapshot(0, 0);
    expect(stats.counts.completed).toBe(STATS_HISTORY_LIMIT + 5);
    expect(stats.history.completed).toHaveLength(STATS_HISTORY_LIMIT);
    expect(stats.history.completed[0]!.checkpointId).toBe(6);
    expect(stats.lastCompleted!.checkpointId).toBe(STATS_HISTORY_LIMIT + 5);
  });

  it("separates failures from other aborts and returns copies", () => {
    const tracker = new CheckpointStatsTracker();
    const base = { savepoint: false, triggeredAt: 0, failedAt: 1, message: "m", acks: [], subtasks: 1 };
    tracker.recordFailed({ ...base, checkpointId: 1, reason: "expired", isFailure: true });
    tracker.recordFailed({ ...base, checkpointId: 2, reason: "subsumed", isFailure: false });
    const stats = tracker.snapshot(1, 1);
    expect(stats.counts).toMatchObject({ failed: 1, aborted: 1, inProgress: 1 });
    expect(stats.history.failed.map((f) => f.reason)).toEqual(["expired", "subsumed"]);
    tracker.recordFailed({ ...base, checkpointId: 3, reason: "declined", isFailure: true });
    expect(stats.history.failed).toHaveLength(2);
  });
});
