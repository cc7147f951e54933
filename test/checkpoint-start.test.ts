/**
 * Periodic checkpoints start only once every task of the attempt has restored
 * its state and runs (as Flink triggers only when all tasks are RUNNING):
 * otherwise the first checkpoint's duration holds the start-up of the slowest
 * task, and its barriers wait in the channels of tasks not yet running.
 */
import { expect, it } from "vitest";
import { build } from "./fixtures/checkpoint-start-job.ts";

it("triggers no checkpoint before every task runs (1 worker thread)", async () => {
  const result = await build(1).execute("checkpoint-start");
  const running = Math.max(...result.getCollected<number>("opened"));
  const completed = result.checkpoints!.history.completed;
  expect(completed.length).toBeGreaterThan(0);
  const first = completed[0]!;
  expect(first.triggeredAt, `triggered ${running - first.triggeredAt} ms before the last sink opened; took ${first.durationMs} ms`).toBeGreaterThanOrEqual(running);
});
