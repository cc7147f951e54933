import { describe, expect, it } from "vitest";
import { buildJobGraph, chainPredecessors } from "./job-graph.ts";
import { StreamGraph, type StreamEdge } from "./stream-graph.ts";
import { chainName, vertexName } from "./vertex-name.ts";

const op = () => ({});

/** Adds a one-input node `uid` fed by `from` (forward unless `edge` says otherwise). */
function add(g: StreamGraph, uid: string, from: number, extra: { edge?: Partial<StreamEdge>; parallelism?: number; chainable?: boolean } = {}) {
  const input: StreamEdge = { from, partitioning: "forward", ...extra.edge };
  return g.add({ type: "map", name: uid, uid, inputs: [input], isSource: false, chainable: extra.chainable ?? true, createOperator: op, ...(extra.parallelism ? { parallelism: extra.parallelism } : {}) });
}

function source(g: StreamGraph) {
  return g.add({ type: "source", name: "src", uid: "src", inputs: [], isSource: true, chainable: true, createOperator: op });
}

const uids = (nodes: readonly { uid: string }[]) => nodes.map((n) => n.uid);

describe("chaining", () => {
  it("chains every forward consumer of a node with several consumers: a tree in topological order, head first", () => {
    const g = new StreamGraph();
    const src = source(g);
    const persons = add(g, "persons", src.id);
    const auctions = add(g, "auctions", src.id);
    const p2 = add(g, "p2", persons.id);
    const a2 = add(g, "a2", auctions.id);
    const key = (x: unknown) => x;
    const join = g.add({
      type: "co-group", name: "join", uid: "join", isSource: false, chainable: true, createOperator: op,
      inputs: [{ from: p2.id, partitioning: "hash", keySelector: key }, { from: a2.id, partitioning: "hash", keySelector: key, inputSide: 1 }],
    });
    const graph = buildJobGraph(g, "q8", { parallelism: 2, maxParallelism: 128 });
    expect(graph.vertices.map((v) => uids(v.nodes))).toEqual([["src", "persons", "auctions", "p2", "a2"], ["join"]]);
    const [chain, joinVertex] = graph.vertices;
    expect(chainPredecessors(chain!)).toEqual([-1, 0, 0, 1, 2]);
    expect(vertexName(chain!)).toBe("Source: src -> (persons -> p2, auctions -> a2)");
    expect(chainName(chain!, (n) => n.uid.toUpperCase())).toBe("SRC -> (PERSONS -> P2, AUCTIONS -> A2)");
    // each edge leaves from the member that produces it
    expect(chain!.outputs.map((e) => [e.sourceNode, e.target, e.inputSide])).toEqual([
      [p2.id, joinVertex!.id, 0],
      [a2.id, joinVertex!.id, 1],
    ]);
    expect(joinVertex!.inputs.map((e) => e.targetNode)).toEqual([join.id, join.id]);
  });

  it("a member with chained consumers may also have edges to other vertices (another parallelism, a keyBy)", () => {
    const g = new StreamGraph();
    const src = source(g);
    const chained = add(g, "chained", src.id);
    const wider = add(g, "wider", src.id, { parallelism: 3 });
    const keyed = add(g, "keyed", src.id, { edge: { partitioning: "hash", keySelector: (x) => x } });
    const graph = buildJobGraph(g, "j", { parallelism: 2, maxParallelism: 128 });
    expect(graph.vertices.map((v) => uids(v.nodes))).toEqual([["src", "chained"], ["wider"], ["keyed"]]);
    expect(graph.vertices[0]!.outputs.map((e) => [e.sourceNode, e.partitioning])).toEqual([
      [src.id, "rebalance"],
      [src.id, "hash"],
    ]);
    expect(graph.vertices[0]!.outputs.map((e) => e.targetNode)).toEqual([wider.id, keyed.id]);
    expect(chainPredecessors(graph.vertices[0]!)).toEqual([-1, 0]);
    expect(graph.vertices[0]!.nodes[1]!.id).toBe(chained.id);
  });

  it("does not chain a side output, a node that disables chaining, or a node after one", () => {
    const g = new StreamGraph();
    const src = source(g);
    add(g, "main", src.id);
    add(g, "side", src.id, { edge: { sideTag: "late" } });
    const alone = add(g, "alone", src.id, { chainable: false });
    add(g, "after", alone.id);
    const graph = buildJobGraph(g, "j", { parallelism: 1, maxParallelism: 128 });
    expect(graph.vertices.map((v) => uids(v.nodes))).toEqual([["src", "main"], ["side"], ["alone"], ["after"]]);
    const side = graph.vertices[0]!.outputs.find((e) => e.sideTag === "late")!;
    expect(side.sourceNode).toBe(src.id);
  });

  it("a line is chained as before: each member chained to the one before it", () => {
    const g = new StreamGraph();
    const src = source(g);
    const a = add(g, "a", src.id);
    add(g, "b", a.id);
    const graph = buildJobGraph(g, "j", { parallelism: 4, maxParallelism: 128 });
    expect(graph.vertices.map((v) => uids(v.nodes))).toEqual([["src", "a", "b"]]);
    expect(chainPredecessors(graph.vertices[0]!)).toEqual([-1, 0, 1]);
    expect(vertexName(graph.vertices[0]!)).toBe("Source: src -> a -> b");
  });
});
