/**
 * Errors of the disk backend's store: a corrupt or unopenable store, a
 * corrupt value and a key too long for LMDB each fail with an error naming
 * the store's file or directory and the operator — never an empty state.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { open } from "lmdb";
import { describe, expect, it } from "vitest";
import { tempDirs } from "../../../test/support/temp-dirs.ts";
import { ValueStateDescriptor } from "../descriptors.ts";
import { DiskStateStoreError, UnsupportedKeyError } from "../errors.ts";
import { keyGroupOf } from "../key-groups.ts";
import { entryKey } from "./disk-key-codec.ts";
import { DiskKeyedStateBackend, type DiskKeyedStateBackendOptions } from "./disk-keyed-state-backend.ts";

const dirs = tempDirs("weir-disk-errors-");
const count = new ValueStateDescriptor<number>("count", 0);

const backend = (localDirectory: string, opts: Partial<DiskKeyedStateBackendOptions> = {}): DiskKeyedStateBackend =>
  new DiskKeyedStateBackend({ operatorUid: "counter", maxParallelism: 128, keyGroupRange: [0, 127], localDirectory, keepLocal: true, ...opts });

/** A kept store with key "a" → 1 and a valid marker; returns the marker. */
async function keptStore(dir: string) {
  const b = backend(dir);
  b.setCurrentKey("a");
  b.getState(count).update(1);
  const snap = b.snapshot(1);
  await snap.serialize(); // its flush wrote the marker
  b.dispose();
  return snap.local;
}

describe("disk store errors", () => {
  it("a corrupt store file: an error naming the file and the operator", async () => {
    const dir = join(dirs(), "counter-0");
    await keptStore(dir);
    writeFileSync(join(dir, "data.mdb"), Buffer.alloc(64 * 1024, 0x5a));
    expect(() => backend(dir)).toThrow(DiskStateStoreError);
    expect(() => backend(dir)).toThrow(new RegExp(`keyed state store of operator 'counter' at ${dir}: cannot open the store file ${join(dir, "data.mdb")}`));
  });

  it("a corrupt value: reading it fails naming the file, state and key", async () => {
    const dir = join(dirs(), "counter-0");
    const local = await keptStore(dir);
    const db = open<Uint8Array, Uint8Array>({ path: dir, keyEncoding: "binary", encoding: "binary" });
    db.putSync(entryKey(keyGroupOf("a", 128), 1, "a")!, Buffer.from([0x92, 0x01])); // an array of two that ends after one element
    db.close();
    const b = backend(dir);
    b.restoreLocal(local);
    b.setCurrentKey("a");
    expect(() => b.getState(count).value()).toThrow(DiskStateStoreError);
    expect(() => b.getState(count).value()).toThrow(
      new RegExp(`operator 'counter' at ${dir}: the store file ${join(dir, "data.mdb")} is corrupt: the value of state 'count' at key 'a'`),
    );
    b.dispose();
  });

  it("a directory that cannot be created: an error naming it", () => {
    const parent = join(dirs(), "a-file");
    writeFileSync(parent, "not a directory");
    expect(() => backend(join(parent, "counter-0"))).toThrow(new RegExp(`operator 'counter' at ${join(parent, "counter-0")}: cannot open the store file`));
  });

  it("a directory with other files is never deleted: an error naming it and a file in it", () => {
    const dir = dirs();
    writeFileSync(join(dir, "precious.txt"), "user data");
    expect(() => backend(dir, { keepLocal: false })).toThrow(
      new RegExp(`operator 'counter' at ${dir}: the directory holds other files than a state store \\(precious.txt\\); it is not deleted`),
    );
    expect(readFileSync(join(dir, "precious.txt"), "utf8")).toBe("user data");
  });

  it("a key longer than LMDB allows: an unsupported-key error naming the operator", () => {
    const b = backend(join(dirs(), "counter-0"));
    b.setCurrentKey("x".repeat(3000));
    expect(() => b.getState(count).value()).toThrow(UnsupportedKeyError);
    expect(() => b.getState(count).value()).toThrow(/in operator 'counter': got a key longer than 1970 bytes/);
    b.dispose();
  });

  it("using the backend after dispose: an error naming the store", () => {
    const b = backend(join(dirs(), "counter-0"), { keepLocal: false });
    const s = b.getState(count);
    b.dispose();
    b.setCurrentKey("a");
    expect(() => s.value()).toThrow(/the store is closed \(the backend was disposed\)/);
  });
});
