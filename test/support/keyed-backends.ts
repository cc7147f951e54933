/**
 * The keyed state backends a conformance suite runs against: `heap` and
 * `disk` (LMDB under a temporary directory, with a small cache so that
 * evictions happen in every test). Each test file that calls
 * {@link keyedBackendKinds} gets its backends disposed after each test and
 * its directories removed after the file.
 *
 * @example
 * ```ts
 * describe.each(keyedBackendKinds())("$name backend", ({ make }) => {
 *   it("counts", () => { const b = make(); ... });
 * });
 * ```
 */
import { join } from "node:path";
import { afterEach } from "vitest";
import { DiskKeyedStateBackend } from "../../src/state/disk/disk-keyed-state-backend.ts";
import { HeapKeyedStateBackend } from "../../src/state/heap/heap-keyed-state-backend.ts";
import type { KeyedStateBackend } from "../../src/state/keyed-state-backend.ts";
import { tempDirs } from "./temp-dirs.ts";

/** Options a conformance test may set; the rest default to one full-range subtask of max parallelism 128. */
export interface TestBackendOptions {
  readonly operatorUid?: string;
  readonly maxParallelism?: number;
  readonly keyGroupRange?: readonly [number, number];
  readonly trackChanges?: boolean;
}

/** One backend kind: its name and a maker of fresh backends. */
export interface KeyedBackendKind {
  readonly name: "heap" | "disk";
  readonly make: (opts?: TestBackendOptions) => KeyedStateBackend;
}

/** Cache size of the disk backends made here: small, so tests with a few hundred keys evict. */
export const TEST_DISK_CACHE_ENTRIES = 64;

/** The backend kinds (call once per test file, at its top level). */
export function keyedBackendKinds(): KeyedBackendKind[] {
  const dir = tempDirs("weir-keyed-backends-");
  const made: KeyedStateBackend[] = [];
  let n = 0;
  let root: string | undefined;
  afterEach(() => {
    for (const b of made.splice(0)) b.dispose();
  });
  const base = (opts: TestBackendOptions) => {
    const maxParallelism = opts.maxParallelism ?? 128;
    return {
      operatorUid: opts.operatorUid ?? "op",
      maxParallelism,
      keyGroupRange: opts.keyGroupRange ?? ([0, maxParallelism - 1] as const),
      trackChanges: opts.trackChanges,
    };
  };
  const track = <B extends KeyedStateBackend>(b: B): B => {
    made.push(b);
    return b;
  };
  return [
    { name: "heap", make: (opts = {}) => track(new HeapKeyedStateBackend(base(opts))) },
    {
      name: "disk",
      make: (opts = {}) =>
        track(new DiskKeyedStateBackend({ ...base(opts), localDirectory: join((root ??= dir()), `b${n++}`), cacheEntries: TEST_DISK_CACHE_ENTRIES })),
    },
  ];
}
