import { describe, expect, it } from "vitest";
import { decideTrigger, type TriggerFacts } from "./trigger-decision.ts";

const facts = (over: Partial<TriggerFacts> = {}): TriggerFacts => ({
  now: 1000,
  periodic: true,
  inFlight: 0,
  maxConcurrent: 1,
  lastEndedAt: undefined,
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

  it("makes a periodic trigger wait for a slot", () => {
    expect(decideTrigger(facts({ inFlight: 1 }))).toEqual({ kind: "wait-slot" });
    expect(decideTrigger(facts({ inFlight: 2, maxConcurrent: 2, lastEndedAt: 990, minPauseMs: 100 }))).toEqual({ kind: "wait-slot" });
  });

  it("delays a periodic trigger until the min pause after the end of the last checkpoint has passed", () => {
    expect(decideTrigger(facts({ lastEndedAt: 950, minPauseMs: 200 }))).toEqual({ kind: "wait-pause", delayMs: 150 });
    expect(decideTrigger(facts({ lastEndedAt: 800, minPauseMs: 200 }))).toEqual({ kind: "trigger" });
  });

  it("triggers a requested checkpoint at once, whatever is in flight and however recent the last one", () => {
    expect(decideTrigger(facts({ periodic: false, inFlight: 1 }))).toEqual({ kind: "trigger" });
    expect(decideTrigger(facts({ periodic: false, inFlight: 5, maxConcurrent: 2 }))).toEqual({ kind: "trigger" });
    expect(decideTrigger(facts({ periodic: false, lastEndedAt: 999, minPauseMs: 10_000 }))).toEqual({ kind: "trigger" });
  });

  it("rejects after shutdown or once a task finished, periodic or not", () => {
    for (const periodic of [true, false]) {
      expect(decideTrigger(facts({ periodic, shutDown: true }))).toEqual({ kind: "reject", reason: "shutdown" });
      expect(decideTrigger(facts({ periodic, someTaskFinished: true }))).toEqual({ kind: "reject", reason: "finished-tasks" });
    }
  });
});
