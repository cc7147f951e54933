import { describe, expect, it } from "vitest";
import { ManualClock } from "../../util/clock.ts";
import { BarrierProtocolError } from "./barrier-protocol-error.ts";
import { END, TestGate, barrier, cancel, rec } from "./test-gate.ts";

const gate = (channels: number, mode: "at-least-once" | "at-most-once" = "at-least-once") =>
  new TestGate(mode, channels, new ManualClock(0));

describe("barrier tracker (at-least-once, at-most-once)", () => {
  it("never blocks and triggers when the last channel delivers the barrier", () => {
    const g = gate(3)
      .push(0, barrier(1), rec("a1"), rec("a2"))
      .push(1, rec("b1"), rec("b2"), rec("b3"), barrier(1))
      .push(2, barrier(1), rec("c1"));
    while (g.step()) expect(g.blocked()).toEqual([]);
    // Records behind barrier 1 on channels 0 and 2 pass before the trigger: no alignment.
    expect(g.log).toEqual(["b1", "a1", "b2", "c1", "a2", "b3", "T1"]);
    expect(g.triggers).toEqual([{ id: 1, alignmentMs: 0 }]);
  });

  it("behaves the same in at-most-once mode", () => {
    const g = gate(2, "at-most-once").push(0, barrier(1), rec("a")).push(1, rec("b"), barrier(1));
    g.drain();
    expect(g.log).toEqual(["b", "a", "T1"]); // "a" follows barrier 1 yet is read before the trigger
  });

  it("tracks several checkpoints at once and triggers each when complete", () => {
    const g = gate(2).push(0, barrier(1), barrier(2), barrier(3));
    g.drain();
    expect(g.handler.pendingCheckpointId()).toBe(3);
    g.push(1, barrier(1), barrier(2)).drain();
    expect(g.log).toEqual(["T1", "T2"]);
    expect(g.handler.pendingCheckpointId()).toBe(3);
  });

  it("aborts older incomplete checkpoints when a newer one triggers, and ignores their late barriers", () => {
    const g = gate(2).push(0, barrier(1), barrier(2)).push(1, barrier(2));
    g.drain();
    expect(g.log).toEqual(["A1", "T2"]);
    expect(g.aborts[0]!.reason).toContain("newer checkpoint 2");
    g.push(1, barrier(1), barrier(2)).drain();
    expect(g.log).toEqual(["A1", "T2"]);
    expect(g.handler.pendingCheckpointId()).toBe(-1);
  });

  it("aborts a checkpoint on its cancel marker, once, and never triggers it", () => {
    const g = gate(3).push(0, barrier(4)).push(1, cancel(4)).push(2, cancel(4));
    g.drain();
    expect(g.log).toEqual(["A4"]);
    expect(g.aborts[0]!.reason).toContain("cancel marker for checkpoint 4 arrived on input channel 1");
    g.push(0, barrier(5)).push(1, barrier(5)).push(2, barrier(5)).drain();
    expect(g.log).toEqual(["A4", "T5"]);
  });

  it("counts an ended channel for every checkpoint in flight", () => {
    const g = gate(3).push(0, barrier(1), barrier(2)).push(1, barrier(1), barrier(2));
    g.drain();
    expect(g.log).toEqual([]);
    g.push(2, rec("c"), END).drain();
    expect(g.log).toEqual(["c", "T1", "T2"]);
    g.push(0, barrier(3)).push(1, barrier(3)).drain();
    expect(g.log).toEqual(["c", "T1", "T2", "T3"]);
  });

  it("forgets a checkpoint the coordinator aborted, in flight or not yet seen, and never triggers it", () => {
    const g = gate(2).push(0, barrier(1), rec("a"));
    g.drain();
    g.abortByCoordinator(1).abortByCoordinator(2);
    expect(g.handler.pendingCheckpointId()).toBe(-1);
    g.push(1, barrier(1), barrier(2), rec("b")).push(0, barrier(2), cancel(3)).drain();
    expect(g.log).toEqual(["a", "X1", "X2", "A3", "b"]);
    g.push(0, barrier(4)).push(1, barrier(4)).drain();
    expect(g.log).toEqual(["a", "X1", "X2", "A3", "b", "T4"]);
  });

  it("rejects a second marker of one checkpoint on one channel", () => {
    const g = gate(2).push(0, barrier(1));
    g.drain();
    expect(() => g.handler.processBarrier(0, barrier(1))).toThrow(BarrierProtocolError);
  });
});
