import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { buildJobGraph } from "../../graph/job-graph.ts";
import { systemClock } from "../../util/clock.ts";
import type { Deployment, TaskManagerEvents } from "./deployment.ts";
import { planExecution } from "./execution-plan.ts";
import { localTaskManager } from "./local-task-manager.ts";

/** A job that runs until it is cancelled (a sequence far longer than the test), planned for one thread. */
function longJob() {
  const env = StreamExecutionEnvironment.getExecutionEnvironment();
  env.setParallelism(1);
  env.fromSequence(1, Number.MAX_SAFE_INTEGER).filter((n) => n < 0).print();
  const plan = planExecution(buildJobGraph(env.graph.attached(), "long", { parallelism: 1, maxParallelism: 128, objectReuse: false }), 1);
  const deployment = (attempt: number): Deployment => ({
    jobId: "0".repeat(32),
    jobName: "long",
    attempt,
    checkpointing: { ...env.checkpointSettings(), intervalMs: 0 },
    restore: null,
    batchSize: 64,
    autoWatermarkIntervalMs: 0,
  });
  return { plan, deployment };
}

describe("TaskManager", () => {
  it("refuses to deploy an attempt while the tasks of the one before still run, and deploys it once they were cancelled", async () => {
    const { plan, deployment } = longJob();
    const failed: string[] = [];
    const events = { acknowledge() {}, decline() {}, running() {}, endOfData() {}, finished() {}, failed: (_a: number, t: string, e: { message: string }) => failed.push(`${t}: ${e.message}`), fatal() {}, watermark() {} } as TaskManagerEvents;
    const tm = localTaskManager(plan, events, systemClock);
    tm.deploy(deployment(0));
    expect(() => tm.deploy(deployment(1))).toThrow(/attempt 1 was deployed while 1 task\(s\) of attempt 0 still run \(it was not cancelled first\)/);
    await tm.cancel(0);
    tm.deploy(deployment(1));
    await tm.cancel(1);
    expect(failed).toEqual([]);
  });
});
