/**
 * The state backends the recovery suites run against: every keyed state
 * kind, window, timer and SQL operator must behave the same on each
 * (a conformance matrix). `apply` configures a job's environment; the
 * incremental cases need a filesystem checkpoint storage, in a fresh
 * directory per call.
 */
import type { StreamExecutionEnvironment } from "../../src/index.ts";
import { tempDirs } from "./temp-dirs.ts";

export interface StateBackendCase {
  readonly name: string;
  apply(env: StreamExecutionEnvironment): void;
}

/** Heap with full checkpoints in memory (the default), heap with incremental checkpoints on disk, the disk backend. */
export function stateBackendCases(): readonly StateBackendCase[] {
  const dir = tempDirs("weir-backend-");
  return [
    { name: "heap, full checkpoints", apply: () => {} },
    {
      name: "heap, incremental checkpoints",
      apply: (env) => {
        env.setStateBackend("heap");
        env.getCheckpointConfig().enableIncrementalCheckpointing(true).setCheckpointStorage(dir()).setNumRetainedCheckpoints(2);
      },
    },
    {
      name: "disk, incremental checkpoints",
      apply: (env) => {
        env.setStateBackend("disk", { cacheEntries: 64 }); // a small cache: most reads and writes go to the store
        env.getCheckpointConfig().setCheckpointStorage(dir()).setNumRetainedCheckpoints(2);
      },
    },
  ];
}
