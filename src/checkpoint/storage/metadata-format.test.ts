import { describe, expect, it } from "vitest";
import { crc32 } from "../../util/crc32.ts";
import { CheckpointVersionError, CorruptCheckpointError } from "./errors.ts";
import { decodeMetadata, encodeMetadata } from "./metadata-format.ts";
import { completedCheckpoint } from "./test-checkpoints.ts";

const PATH = "/ckpt/chk-3/_metadata";
const data = new Uint8Array([0, 1, 2, 255]);
const checkpoint = completedCheckpoint(3, [
  { uid: "counts", subtask: 0, handle: { kind: "file", path: "counts-0.state", size: 10, crc: 0xdeadbeef } },
  { uid: "src", subtask: 1, handle: { kind: "inline", data, size: 4, crc: crc32(data) } },
]);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const bytes = (s: string) => new TextEncoder().encode(s);

function reason(input: Uint8Array): string {
  try {
    decodeMetadata(input, PATH);
  } catch (error) {
    expect(error).toBeInstanceOf(CorruptCheckpointError);
    expect((error as CorruptCheckpointError).path).toBe(PATH);
    expect((error as Error).message).toContain(PATH);
    return (error as CorruptCheckpointError).reason;
  }
  throw new Error("decoded without error");
}

describe("metadata format", () => {
  it("round-trips a checkpoint, inline bytes included, without the directory", () => {
    const encoded = encodeMetadata({ ...checkpoint, directory: "/somewhere" });
    expect(text(encoded)).toMatch(/^WEIR-CHECKPOINT 1 [0-9a-f]{8} \d+\n\{/);
    expect(text(encoded)).not.toContain("/somewhere");
    const decoded = decodeMetadata(encoded, PATH);
    expect(decoded).toEqual(checkpoint);
    expect(decoded.states[1]!.handle).toMatchObject({ kind: "inline", data: new Uint8Array([0, 1, 2, 255]) });
  });

  it("detects every kind of damage", () => {
    const good = encodeMetadata(checkpoint);
    const flipped = good.slice();
    flipped[good.length - 5]! ^= 0x01;
    expect(reason(flipped)).toMatch(/checksum mismatch/);
    expect(reason(good.subarray(0, good.length - 1))).toMatch(/truncated/);
    expect(reason(new Uint8Array(0))).toBe("empty file");
    expect(reason(bytes("PK\u0003\u0004 zip file"))).toMatch(/not a Weir checkpoint metadata file/);
    expect(reason(bytes("WEIR-CHECKPOINT 1 garbage"))).toMatch(/malformed header/);
    expect(reason(bytes("WEIR-CHECKPOINT 0 00000000 0\n"))).toMatch(/unknown format version 0/);
  });

  it("rejects a body with a valid checksum that is not a checkpoint", () => {
    const wrap = (body: string) => {
      const b = bytes(body);
      return bytes(`WEIR-CHECKPOINT 1 ${crc32(b).toString(16).padStart(8, "0")} ${b.length}\n${body}`);
    };
    expect(reason(wrap("{not json"))).toMatch(/not valid JSON/);
    expect(reason(wrap("[]"))).toMatch(/not an object/);
    const escaping = {
      ...checkpoint,
      states: [{ ...checkpoint.states[0]!, handle: { kind: "file", path: "../../etc/passwd", size: 1, crc: 1 } }],
    };
    expect(reason(wrap(JSON.stringify(escaping)))).toMatch(/states\[0\]: file handle path "..\/..\/etc\/passwd" is not a plain file name/);
    expect(reason(wrap(JSON.stringify({ ...checkpoint, checkpointId: "3" })))).toMatch(/checkpointId/);
  });

  it("round-trips the shared state chain of incremental states; metadata without one decodes without one", () => {
    const chain = [
      { path: "../shared/counts-0-1-0123456789ab.state", size: 1000, crc: 0xffffffff, checkpointId: 1 },
      { path: "../shared/counts-0-3-00000000ffff.state", size: 12, crc: 0, checkpointId: 3 },
    ];
    const incremental = completedCheckpoint(3, [
      { uid: "counts", subtask: 0, handle: { kind: "file", path: "counts-0.state", size: 10, crc: 1 }, shared: chain },
      { uid: "counts", subtask: 1, handle: { kind: "file", path: "counts-1.state", size: 10, crc: 2 }, shared: [] },
    ]);
    const decoded = decodeMetadata(encodeMetadata(incremental), PATH);
    expect(decoded).toEqual(incremental);
    expect(decoded.states[0]!.shared).toEqual(chain);
    const savepointForm = { ...incremental, states: [{ ...incremental.states[0]!, shared: [{ ...chain[0]!, path: "shared/counts-0-1-0123456789ab.state" }] }] };
    expect(decodeMetadata(encodeMetadata(savepointForm), PATH)).toEqual(savepointForm);
    const old = decodeMetadata(encodeMetadata(checkpoint), PATH);
    expect(old.states.every((s) => !("shared" in s))).toBe(true);
  });

  it("rejects a malformed shared state chain, naming the state and the ref", () => {
    const wrap = (shared: unknown) => {
      const b = bytes(JSON.stringify({ ...checkpoint, states: [{ ...checkpoint.states[0]!, shared }] }));
      return bytes(`WEIR-CHECKPOINT 1 ${crc32(b).toString(16).padStart(8, "0")} ${b.length}\n${new TextDecoder().decode(b)}`);
    };
    const ref = { path: "../shared/a-0-1-0123456789ab.state", size: 1, crc: 1, checkpointId: 1 };
    expect(reason(wrap({}))).toMatch(/states\[0\]: shared is not an array/);
    expect(reason(wrap([ref, "x"]))).toMatch(/states\[0\]: shared\[1\]: not an object/);
    expect(reason(wrap([{ ...ref, crc: 2 ** 32 }]))).toMatch(/shared\[0\]: no valid size and crc/);
    expect(reason(wrap([{ ...ref, checkpointId: 0 }]))).toMatch(/shared\[0\]: checkpointId is not a positive integer/);
    for (const path of ["../../etc/passwd", "/abs/shared/a", "../shared/../chk-1/_metadata", "a.state", 7]) {
      expect(reason(wrap([{ ...ref, path }]))).toContain(`shared[0]: path ${JSON.stringify(path)} is not ../shared/<file> or shared/<file>`);
    }
  });

  it("refuses a newer format version with a clear error", () => {
    const encoded = text(encodeMetadata(checkpoint)).replace(/^WEIR-CHECKPOINT 1 /, "WEIR-CHECKPOINT 2 ");
    expect(() => decodeMetadata(bytes(encoded), PATH)).toThrow(CheckpointVersionError);
    expect(() => decodeMetadata(bytes(encoded), PATH)).toThrow(/written by a newer Weir \(format version 2; this Weir reads up to version 1\)/);
  });
});
