import { describe, expect, it } from "vitest";
import { markTaskActive, readTaskActivity, shareTaskActivity, TASK_ACTIVITY_BYTES } from "./task-activity.ts";

describe("task activity", () => {
  it("publishes the heartbeat and the task that ran last, and nothing after it is unshared", () => {
    const buffer = new SharedArrayBuffer(TASK_ACTIVITY_BYTES);
    const epoch = Date.now() - 5_000;
    expect(readTaskActivity(buffer, epoch)).toEqual({ lastBeatAt: epoch, activeTask: undefined });
    const unshare = shareTaskActivity(buffer, epoch);
    const first = readTaskActivity(buffer, epoch);
    expect(first.lastBeatAt).toBeGreaterThanOrEqual(epoch + 5_000);
    markTaskActive(0);
    expect(readTaskActivity(buffer, epoch).activeTask).toBe(0);
    markTaskActive(3);
    expect(readTaskActivity(buffer, epoch).activeTask).toBe(3);
    unshare();
    markTaskActive(7);
    expect(readTaskActivity(buffer, epoch).activeTask).toBe(3);
  });
});
