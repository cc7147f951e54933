import { describe, expect, it } from "vitest";
import type { Deployment } from "../../runtime/execution/deployment.ts";
import { attemptOf, EarlyMessages } from "./early-messages.ts";
import type { ToWorker } from "./worker-protocol.ts";

const deployment = (attempt: number) => ({ jobId: "j", jobName: "job", attempt }) as unknown as Deployment;
const barrier = { checkpointId: 4, timestamp: 0, kind: "checkpoint" } as never;

describe("EarlyMessages", () => {
  it("hands out what came before the task manager existed, in order", () => {
    const early = new EarlyMessages();
    const ms: ToWorker[] = [
      { type: "deploy", deployment: deployment(0) },
      { type: "trigger", attempt: 0, taskId: "t", barrier },
      { type: "resume-sources", attempt: 0 },
    ];
    for (const m of ms) early.add(m);
    expect(early.drain()).toEqual(ms);
    expect(early.drain()).toEqual([]);
  });

  it("drops every message of an attempt cancelled before it started, so only the next attempt's deployment runs", () => {
    const early = new EarlyMessages();
    early.add({ type: "deploy", deployment: deployment(2) });
    early.add({ type: "trigger", attempt: 2, taskId: "t", barrier });
    early.add({ type: "relink", peer: 1, link: {} as never });
    early.cancel(2);
    early.add({ type: "deploy", deployment: deployment(3) });
    expect(early.drain().map((m) => [m.type, attemptOf(m)])).toEqual([
      ["relink", undefined],
      ["deploy", 3],
    ]);
  });

  it("keeps the messages of other attempts when one is cancelled", () => {
    const early = new EarlyMessages();
    early.add({ type: "deploy", deployment: deployment(5) });
    early.cancel(4);
    expect(early.drain().map(attemptOf)).toEqual([5]);
  });
});
