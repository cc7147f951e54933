import { describe, expect, it } from "vitest";
import { ListStateDescriptor } from "../descriptors.ts";
import { StateKindMismatchError, StateRestoreError, StateSerializationError } from "../errors.ts";
import { OperatorStateBackend } from "./operator-state-backend.ts";

const offsets = new ListStateDescriptor<number>("offsets");

describe("OperatorStateBackend", () => {
  it("keeps list state and snapshots it synchronously: later writes are not in the snapshot", async () => {
    const ops = new OperatorStateBackend({ operatorUid: "src" });
    const l = ops.getListState(offsets);
    l.addAll([1, 2]);
    const snap = ops.snapshot(1);
    l.add(3);
    l.update([9]);
    const restored = new OperatorStateBackend({ operatorUid: "src" });
    restored.restore([await snap.serialize()]);
    snap.release();
    expect(restored.getListState(offsets).get()).toEqual([1, 2]);
    expect(l.get()).toEqual([9]);
  });

  it("refuses a name used both as split list and union list", () => {
    const ops = new OperatorStateBackend({ operatorUid: "src" });
    ops.getListState(offsets);
    expect(() => ops.getUnionListState(offsets)).toThrow(StateKindMismatchError);
    expect(() => ops.getUnionListState(offsets)).toThrow(/'offsets' in operator 'src' is already registered as split-list/);
  });

  it("rejects serialize when an element is not plain data, naming operator and state", async () => {
    const ops = new OperatorStateBackend({ operatorUid: "src" });
    ops.getListState(new ListStateDescriptor<unknown>("handles")).add({ close: () => undefined });
    const snap = ops.snapshot(1);
    await expect(snap.serialize()).rejects.toThrow(StateSerializationError);
    await expect(snap.serialize()).rejects.toThrow(
      /value of state 'handles' in operator 'src' contains a function at \[0\]\.close/,
    );
  });

  it("reports a corrupt blob with the operator uid", () => {
    const ops = new OperatorStateBackend({ operatorUid: "src" });
    expect(() => ops.restore([new Uint8Array([1, 2, 3])])).toThrow(StateRestoreError);
    expect(() => ops.restore([new Uint8Array([1, 2, 3])])).toThrow(/cannot restore state of operator 'src': operator-state blob #0 is not/);
  });
});
