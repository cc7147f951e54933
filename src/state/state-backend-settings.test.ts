import { describe, expect, it } from "vitest";
import { parseStateBackendName, stateBackendNote } from "./state-backend-settings.ts";

describe("state backend names", () => {
  it("Weir's names and Flink's: hashmap is heap; rocksdb is disk, with a note that the disk backend is lmdb-based", () => {
    expect(parseStateBackendName("heap", "--state-backend")).toBe("heap");
    expect(parseStateBackendName(" HashMap ", "--state-backend")).toBe("heap");
    expect(parseStateBackendName("rocksdb", "--state-backend")).toBe("disk");
    expect(stateBackendNote("RocksDB")).toMatch(/^state backend 'rocksdb' \(Flink's name\): Weir runs its disk backend, which keeps state on local disk in lmdb, not RocksDB/);
    expect(stateBackendNote("disk")).toBeUndefined();
    expect(stateBackendNote("hashmap")).toBeUndefined();
  });

  it("an unknown name: the nearest one and every valid name", () => {
    expect(() => parseStateBackendName("dsik", "--state-backend")).toThrow(
      "--state-backend: unknown state backend 'dsik' (did you mean 'disk'?); available: heap, disk (or Flink's names hashmap, rocksdb)",
    );
    expect(() => parseStateBackendName("memory", "setStateBackend")).toThrow("setStateBackend: unknown state backend 'memory'; available:");
  });
});
