import { describe, expect, it } from "vitest";
import { decideTrigger, type TriggerFacts } from "./trigger-decision.ts";

const facts = (over: Partial<TriggerFacts> = {}): TriggerFacts => ({
  now: 1000,
  periodic: true,
  inFlight: 0,
  maxConcurrent: 1,
  lastCompletedAt: undefined,
  minPauseMs: 0,
  someTaskFinished: false,
  shutDown: false,
  ...over,
});

describe("decideTrigger", () => {
  it("triggers when nothing holds it back", () => {
    expect(decideTrigger(facts())).toEqual({ kind: "trigger" });
    expect(decideTrigger(facts({ inFlight: 1, maxConcurrent: 2 }))).toEqual({ kind: "trigger" });
  });

  it("makes a periodic trigger wait for a slot and rejects a manual one", () => {
    expect(decideTrigger(facts({ inFlight: 1 }))).toEqual({ kind: "wait-slot" });
    expect(decideTrigger(facts({ inFlight: 1, periodic: false }))).toEqual({ kind: "reject", reason: "too-many-concurrent" });
  });

  it("delays a periodic trigger until the min pause after the last completion has passed", () => {
    expect(decideTrigger(facts({ lastCompletedAt: 950, minPauseMs: 200 }))).toEqual({ kind: "wait-pause", delayMs: 150 });
    expect(decideTrigger(facts({ lastCompletedAt: 800, minPauseMs: 200 }))).toEqual({ kind: "trigger" });
    expect(decideTrigger(facts({ lastCompletedAt: 950, minPauseMs: 200, periodic: false }))).toEqual({ kind: "trigger" });
  });

  it("rejects after shutdown or once a task finished", () => {
    expect(decideTrigger(facts({ shutDown: true }))).toEqual({ kind: "reject", reason: "shutdown" });
    expect(decideTrigger(facts({ someTaskFinished: true }))).toEqual({ kind: "reject", reason: "finished-tasks" });
  });
});
