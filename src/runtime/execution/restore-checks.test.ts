import { describe, expect, it } from "vitest";
import { buildJobGraph } from "../../graph/job-graph.ts";
import { StreamGraph } from "../../graph/stream-graph.ts";
import type { CompletedCheckpoint } from "../../checkpoint/types.ts";
import { checkRestoredState, generatedUidWarning } from "./restore-checks.ts";

function graph(uids: (string | undefined)[]) {
  const g = new StreamGraph();
  const src = g.add({ type: "source", name: "Src", inputs: [], isSource: true, chainable: true, createOperator: () => ({}), uid: uids[0] });
  g.add({ type: "keyed-process", name: "Count", inputs: [{ from: src.id, partitioning: "hash", keySelector: (x) => x }], isSource: false, chainable: true, createOperator: () => ({}), keySelector: (x) => x, uid: uids[1] });
  return buildJobGraph(g, "job", { parallelism: 1, maxParallelism: 128 });
}

const restore = (uids: string[]): CompletedCheckpoint => ({
  version: 1,
  jobName: "job",
  checkpointId: 7,
  timestamp: 0,
  completedAt: 0,
  savepoint: true,
  graphFingerprint: "x",
  directory: "/sp",
  states: uids.map((operatorUid) => ({ operatorUid, subtaskIndex: 0, parallelism: 1, maxParallelism: 128, handle: { kind: "inline", data: new Uint8Array(), size: 0, crc: 0 } })),
});

describe("restore checks", () => {
  it("accepts state of the job's operators; refuses others naming them, unless allowed", () => {
    const g = graph(["src", "count"]);
    expect(checkRestoredState(g, restore(["src", "count"]), false)).toBeUndefined();
    expect(() => checkRestoredState(g, restore(["src", "old-count"]), false)).toThrow(
      /savepoint 7 \(\/sp\) has state for operator uid 'old-count'.*--allow-non-restored-state/,
    );
    expect(checkRestoredState(g, restore(["src", "old-count"]), true)).toMatch(/skipping state of 'old-count' from savepoint 7/);
  });

  it("warns about stateful operators whose uid is generated", () => {
    expect(generatedUidWarning(graph(["src", "count"]))).toBeUndefined();
    expect(generatedUidWarning(graph(["src", undefined]))).toMatch(/operators without a uid: 'Count' \(keyed-process-1\)/);
  });
});
