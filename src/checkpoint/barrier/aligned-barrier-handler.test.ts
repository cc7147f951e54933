import { describe, expect, it } from "vitest";
import { ManualClock } from "../../util/clock.ts";
import { BarrierProtocolError } from "./barrier-protocol-error.ts";
import { END, TestGate, barrier, cancel, rec } from "./test-gate.ts";

const gate = (channels: number, clock = new ManualClock(0)) => new TestGate("exactly-once", channels, clock);

describe("aligned barrier handler (exactly-once)", () => {
  it("blocks a channel after its barrier and reads its later records only after the trigger", () => {
    const g = gate(2)
      .push(0, rec("a1"), barrier(1), rec("a2"))
      .push(1, rec("b1"), rec("b2"), barrier(1), rec("b3"));
    const blockedAfterEachStep: number[][] = [];
    while (g.step()) blockedAfterEachStep.push(g.blocked());

    expect(g.log).toEqual(["a1", "b1", "b2", "T1", "a2", "b3"]);
    // a1, b1, B1@0 (blocks 0), b2, B1@1 (trigger, unblock), a2, b3
    expect(blockedAfterEachStep).toEqual([[], [], [0], [0], [], [], []]);
    expect(g.handler.pendingCheckpointId()).toBe(-1);
  });

  it("reports the checkpoint being aligned", () => {
    const g = gate(3).push(1, barrier(4));
    g.drain();
    expect(g.handler.pendingCheckpointId()).toBe(4);
    expect(g.blocked()).toEqual([1]);
    g.push(0, barrier(4)).drain();
    expect(g.blocked()).toEqual([0, 1]);
    g.push(2, barrier(4)).drain();
    expect(g.log).toEqual(["T4"]);
    expect(g.blocked()).toEqual([]);
  });

  it("measures alignment time from the first barrier to the last with the injected clock", () => {
    const clock = new ManualClock(1_000);
    const g = gate(3, clock);
    clock.advance(5);
    g.push(0, barrier(1)).drain();
    clock.advance(30);
    g.push(2, barrier(1)).drain();
    clock.advance(12);
    g.push(1, barrier(1)).drain();
    expect(g.triggers).toEqual([{ id: 1, alignmentMs: 42 }]);
  });

  it("triggers at once with alignmentMs 0 on a single channel", () => {
    const clock = new ManualClock(7);
    const g = gate(1, clock).push(0, rec("x"), barrier(1), rec("y"));
    g.step();
    g.step();
    expect(g.log).toEqual(["x", "T1"]);
    expect(g.triggers).toEqual([{ id: 1, alignmentMs: 0 }]);
    expect(g.blocked()).toEqual([]);
  });

  it("aborts a pending alignment when a newer barrier arrives, then aligns the newer one", () => {
    const g = gate(3).push(0, barrier(1), rec("a-after-1"));
    g.drain();
    expect(g.blocked()).toEqual([0]);

    g.push(1, barrier(2), rec("b-after-2")).drain();
    // B2 on channel 1 aborts 1 and unblocks channel 0, whose record is then read.
    expect(g.log).toEqual(["A1", "a-after-1"]);
    expect(g.aborts[0]!.reason).toContain("newer checkpoint 2");
    expect(g.blocked()).toEqual([1]);
    expect(g.handler.pendingCheckpointId()).toBe(2);

    // Late barrier 1 on channel 2 is stale; barrier 2 on 0 and 2 completes the alignment.
    g.push(2, barrier(1), barrier(2)).push(0, barrier(2)).drain();
    expect(g.log).toEqual(["A1", "a-after-1", "T2", "b-after-2"]);
    expect(g.aborts).toHaveLength(1);
  });

  it("ignores stale barriers: of a completed checkpoint, of an aborted one, and older ones", () => {
    const g = gate(2).push(0, barrier(3)).push(1, barrier(3));
    g.drain();
    expect(g.log).toEqual(["T3"]);
    g.push(0, barrier(3), barrier(2), rec("a")).drain();
    expect(g.blocked()).toEqual([]);
    expect(g.handler.pendingCheckpointId()).toBe(-1);

    g.push(1, cancel(4)).drain();
    g.push(0, barrier(4), rec("b")).drain();
    expect(g.log).toEqual(["T3", "a", "A4", "b"]);
    expect(g.blocked()).toEqual([]);
  });

  it("aborts the aligning checkpoint on its cancel marker and unblocks every channel", () => {
    const g = gate(3).push(0, barrier(5), rec("a")).push(1, barrier(5), rec("b"));
    g.drain();
    expect(g.blocked()).toEqual([0, 1]);
    g.push(2, cancel(5), rec("c")).drain();
    expect(g.log).toEqual(["A5", "a", "b", "c"]);
    expect(g.aborts[0]!.reason).toContain("cancel marker for checkpoint 5");
    expect(g.blocked()).toEqual([]);
    expect(g.handler.pendingCheckpointId()).toBe(-1);
  });

  it("on a cancel marker of a newer checkpoint aborts the older alignment and the newer id, once", () => {
    const g = gate(3).push(0, barrier(1), rec("a"));
    g.drain();
    g.push(1, cancel(2)).push(2, cancel(2)).drain();
    expect(g.aborts.map((a) => a.id)).toEqual([1, 2]);
    expect(g.aborts[0]!.reason).toContain("newer checkpoint 2");
    expect(g.log).toEqual(["A1", "A2", "a"]);
    // Later barriers and markers of 2 are ignored.
    g.push(0, barrier(2), rec("a2"), cancel(2)).drain();
    expect(g.log).toEqual(["A1", "A2", "a", "a2"]);
    expect(g.blocked()).toEqual([]);
  });

  it("counts an ended channel as aligned: end-of-input completes the alignment", () => {
    const g = gate(3).push(0, barrier(1), rec("a")).push(1, barrier(1), rec("b"));
    g.drain();
    expect(g.blocked()).toEqual([0, 1]);
    g.push(2, rec("c"), END).drain();
    expect(g.log).toEqual(["c", "T1", "a", "b"]);
  });

  it("aligns later checkpoints over the channels that have not ended", () => {
    const clock = new ManualClock(0);
    const g = gate(2, clock).push(1, rec("b"), END);
    g.drain();
    clock.advance(10);
    g.push(0, barrier(1), rec("a")).drain();
    expect(g.log).toEqual(["b", "T1", "a"]);
    expect(g.triggers).toEqual([{ id: 1, alignmentMs: 0 }]);
  });

  it("releases the alignment of a checkpoint the coordinator aborted: records flow before its barriers arrive", () => {
    const g = gate(3).push(0, barrier(1), rec("a1"), rec("a2"));
    g.drain();
    expect(g.blocked()).toEqual([0]);
    g.abortByCoordinator(7); // not the one aligning: channel 0 stays blocked
    expect(g.blocked()).toEqual([0]);

    g.abortByCoordinator(1);
    expect(g.blocked()).toEqual([]);
    expect(g.handler.pendingCheckpointId()).toBe(-1);
    g.drain();
    expect(g.log).toEqual(["X7", "X1", "a1", "a2"]);

    // The late barriers of 1 start no new alignment and trigger nothing.
    g.push(1, rec("b1"), barrier(1), rec("b2")).push(2, barrier(1), rec("c1"));
    while (g.step()) expect(g.blocked()).toEqual([]);
    expect(g.log).toEqual(["X7", "X1", "a1", "a2", "b1", "c1", "b2"]);
    expect(g.aborts).toEqual([]);
  });

  it("ignores the barriers and cancel markers of a checkpoint aborted before any of them arrived", () => {
    const g = gate(2).abortByCoordinator(2);
    g.push(0, rec("a1"), barrier(2), rec("a2")).push(1, rec("b1"), cancel(2), rec("b2"));
    while (g.step()) expect(g.blocked()).toEqual([]);
    expect(g.log).toEqual(["X2", "a1", "b1", "a2", "b2"]);
    g.push(0, barrier(3)).push(1, barrier(3)).drain();
    expect(g.log).toEqual(["X2", "a1", "b1", "a2", "b2", "T3"]);
  });

  it("an abort of a newer checkpoint does not disturb the alignment of an older one", () => {
    const g = gate(2).push(0, barrier(1), rec("a"));
    g.drain();
    g.abortByCoordinator(2);
    expect(g.blocked()).toEqual([0]);
    g.push(1, barrier(1), barrier(2)).push(0, barrier(2)).drain();
    expect(g.log).toEqual(["X2", "T1", "a"]);
    expect(g.blocked()).toEqual([]);
  });

  it("rejects elements from a blocked or ended channel and channels out of range", () => {
    const g = gate(2).push(0, barrier(1), END);
    g.drain();
    expect(() => g.handler.processBarrier(0, barrier(1))).toThrow(BarrierProtocolError);
    expect(() => g.handler.processEndOfInput(0)).toThrow(/blocked for the alignment of checkpoint 1/);
    expect(() => g.handler.processBarrier(2, barrier(1))).toThrow(/out of range/);
    g.push(1, END).drain();
    expect(g.log).toEqual(["T1"]);
    expect(() => g.handler.processCancel(1, cancel(2))).toThrow(/after end-of-input/);
  });
});
