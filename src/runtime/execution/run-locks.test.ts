import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { CheckpointSettings } from "../../checkpoint/types.ts";
import { runDirectories } from "./run-locks.ts";

const base: CheckpointSettings = {
  intervalMs: 100,
  mode: "exactly-once",
  timeoutMs: 600_000,
  minPauseMs: 0,
  maxConcurrent: 1,
  tolerableFailures: 0,
  retained: 1,
  storage: { type: "jobmanager" },
};

describe("runDirectories: what a run locks", () => {
  it("the filesystem checkpoint directory, then the disk backend's local directory", () => {
    expect(runDirectories({ ...base, storage: { type: "filesystem", directory: "ck" }, stateBackend: { type: "disk", incremental: true, localDirectory: "ck.local" } })).toEqual([
      { what: "checkpoint directory", directory: resolve("ck") },
      { what: "local state directory", directory: resolve("ck.local") },
    ]);
    expect(runDirectories({ ...base, storage: { type: "filesystem", directory: "ck" }, stateBackend: { type: "heap", incremental: false } })).toEqual([
      { what: "checkpoint directory", directory: resolve("ck") },
    ]);
  });

  it("nothing for in-memory checkpoints with the heap backend; the local directory alone with the disk backend", () => {
    expect(runDirectories(base)).toEqual([]);
    expect(runDirectories({ ...base, stateBackend: { type: "disk", incremental: false, localDirectory: "/tmp/state" } })).toEqual([
      { what: "local state directory", directory: "/tmp/state" },
    ]);
    expect(runDirectories({ ...base, stateBackend: { type: "disk", incremental: false } })).toEqual([]); // a temporary directory of its own
  });

  it("one lock when the local directory is the checkpoint directory", () => {
    expect(runDirectories({ ...base, storage: { type: "filesystem", directory: "ck" }, stateBackend: { type: "disk", incremental: true, localDirectory: "./ck" } })).toHaveLength(1);
  });

  it("no lock on an s3:// checkpoint directory (an object store has none to take over safely); a local state directory still", () => {
    expect(runDirectories({ ...base, storage: { type: "filesystem", directory: "s3://bucket/ck" }, stateBackend: { type: "heap", incremental: false } })).toEqual([]);
    expect(runDirectories({ ...base, storage: { type: "filesystem", directory: "s3://bucket/ck" }, stateBackend: { type: "disk", incremental: true, localDirectory: "/tmp/state" } })).toEqual([
      { what: "local state directory", directory: "/tmp/state" },
    ]);
  });
});
