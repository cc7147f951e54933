import { describe, expect, it } from "vitest";
import { buildJobGraph } from "../../graph/job-graph.ts";
import { StreamGraph } from "../../graph/stream-graph.ts";
import { planExecution } from "./execution-plan.ts";

/**
 * source (p) → map (p, not chained: a forward edge between two vertices) → keyBy → count (p)
 * → sink (1, a rebalance edge), and a side branch: map → filter (p, forward, a second consumer of the map).
 */
function graph(p: number) {
  const g = new StreamGraph();
  const op = () => ({});
  const src = g.add({ type: "source", name: "Src", inputs: [], isSource: true, chainable: true, createOperator: op, uid: "src" });
  const map = g.add({ type: "map", name: "Map", inputs: [{ from: src.id, partitioning: "forward" }], isSource: false, chainable: false, createOperator: op, uid: "map" });
  const key = (x: unknown) => x;
  const count = g.add({ type: "keyed-process", name: "Count", inputs: [{ from: map.id, partitioning: "hash", keySelector: key }], isSource: false, chainable: true, createOperator: op, keySelector: key, uid: "count" });
  g.add({ type: "sink", name: "Sink", parallelism: 1, inputs: [{ from: count.id, partitioning: "forward" }], isSource: false, chainable: true, createOperator: op, uid: "sink" });
  g.add({ type: "filter", name: "Filter", inputs: [{ from: map.id, partitioning: "forward" }], isSource: false, chainable: true, createOperator: op, uid: "filter" });
  return buildJobGraph(g, "job", { parallelism: p, maxParallelism: 128 });
}

describe("planExecution", () => {
  it("keeps every forward channel within one worker, for any parallelism and worker count", () => {
    for (const p of [1, 2, 3, 4, 5])
      for (const workers of [1, 2, 3, 4]) {
        const plan = planExecution(graph(p), workers);
        const forward = plan.channels.filter((c) => c.edge.partitioning === "forward");
        expect(forward.length, `p ${p}, ${workers} workers`).toBe(2 * p);
        for (const c of forward) expect(c.to.worker, `${c.from.taskId} → ${c.to.taskId}, p ${p}, ${workers} workers`).toBe(c.from.worker);
      }
  });

  it("spreads the subtasks of each vertex evenly, and small vertices over the workers", () => {
    const plan = planExecution(graph(3), 2);
    const workersOf = (uid: string) => plan.tasks.filter((t) => t.vertex.nodes[0]!.uid === uid).map((t) => t.worker);
    expect(workersOf("src")).toEqual([0, 1, 0]);
    expect(workersOf("map")).toEqual([0, 1, 0]);
    expect(workersOf("count")).toEqual([1, 0, 1]);
    expect(workersOf("sink")).toEqual([0]);
    expect(workersOf("filter")).toEqual([0, 1, 0]);
  });

  it("runs everything on worker 0 with one worker", () => {
    expect(new Set(planExecution(graph(4), 1).tasks.map((t) => t.worker))).toEqual(new Set([0]));
  });
});
