/**
 * StreamGraph → JobGraph: resolves parallelism and partitioning, checks uids,
 * and chains operators into vertices (tasks). A node is chained to its
 * predecessor when it has exactly one input, the edge is `forward` between
 * equal parallelisms and carries the main output (not a side output), and both
 * allow chaining — whatever the predecessor's other consumers (Flink's rule).
 * A chain is therefore a tree rooted at its head: an operator may feed several
 * chained operators and, beside them, edges to other vertices. Within a chain
 * records move by plain function calls.
 */
import { StreamGraph, type KeySelector, type Partitioning, type StreamNode } from "./stream-graph.ts";

/** A resolved edge between two vertices. */
export interface JobEdge {
  /** Producing vertex. */
  readonly source: string;
  /** Stream node inside the source chain that produces the edge (any member of the chain's tree). */
  readonly sourceNode: number;
  /** Consuming vertex. */
  readonly target: string;
  /** Stream node inside the target chain that consumes the edge (its head). */
  readonly targetNode: number;
  readonly partitioning: Partitioning;
  readonly keySelector?: KeySelector;
  /** The side output the edge carries, or undefined for the main output. */
  readonly sideTag?: string;
  /** Input of a two-input operator the edge feeds. */
  readonly inputSide: 0 | 1;
  /** Key groups of the consuming vertex (hash partitioning). */
  readonly targetMaxParallelism: number;
  /** Position of the edge among the target's inputs (order of `inputs` of the node). */
  readonly inputIndex: number;
  /** The consuming node leaves its records alone (`StreamNode.isolatesInput`). */
  readonly targetIsolatesInput: boolean;
}

/** A chain of operators that runs as one task per parallel subtask. */
export interface JobVertex {
  /** `v<headNodeId>`. */
  readonly id: string;
  /** Chained nodes in topological order, head first: a tree, each member after the one it is chained to (`chainPredecessors`). */
  readonly nodes: readonly StreamNode[];
  readonly parallelism: number;
  readonly maxParallelism: number;
  readonly isSource: boolean;
  /** Consumers of one record share it (`ExecutionConfig.enableObjectReuse`): no copies at fan-out. */
  readonly objectReuse: boolean;
  readonly inputs: readonly JobEdge[];
  readonly outputs: readonly JobEdge[];
}

/** The deployable dataflow. */
export interface JobGraph {
  readonly name: string;
  /** Vertices in topological order. */
  readonly vertices: readonly JobVertex[];
}

/** Thrown when the job's shape is invalid (duplicate uid, bad parallelism…). */
export class InvalidJobError extends Error {
  override name = "InvalidJobError";
}

/** Builds the JobGraph of a stream graph with the given defaults. */
export function buildJobGraph(
  graph: StreamGraph,
  name: string,
  defaults: { parallelism: number; maxParallelism: number; objectReuse?: boolean },
): JobGraph {
  if (graph.nodes.length === 0) throw new InvalidJobError("the job has no operators: add a source and a sink before execute()");
  const parallelism = new Map<number, number>();
  const seenUids = new Map<string, StreamNode>();
  for (const n of graph.nodes) {
    const other = seenUids.get(n.uid);
    if (other) throw new InvalidJobError(`operators '${other.name}' and '${n.name}' have the same uid '${n.uid}'; uids must be unique`);
    seenUids.set(n.uid, n);
    const p = n.parallelism ?? defaults.parallelism;
    const maxP = n.maxParallelism ?? defaults.maxParallelism;
    if (!Number.isInteger(p) || p < 1) throw new InvalidJobError(`operator '${n.name}' has parallelism ${p}; it must be a whole number ≥ 1`);
    if (p > maxP) throw new InvalidJobError(`operator '${n.name}' has parallelism ${p} above its max parallelism ${maxP}`);
    parallelism.set(n.id, p);
  }
  const partitioningOf = (n: StreamNode, e: { from: number; partitioning: Partitioning }): Partitioning =>
    e.partitioning === "forward" && parallelism.get(e.from) !== parallelism.get(n.id) ? "rebalance" : e.partitioning;

  // chaining
  const chainHead = new Map<number, number>();
  for (const n of graph.nodes) {
    const e = n.inputs.length === 1 ? n.inputs[0] : undefined;
    const pred = e ? graph.node(e.from) : undefined;
    const chain =
      e !== undefined &&
      pred !== undefined &&
      n.chainable &&
      pred.chainable &&
      partitioningOf(n, e) === "forward" &&
      e.sideTag === undefined;
    chainHead.set(n.id, chain ? chainHead.get(pred!.id)! : n.id);
  }
  const members = new Map<number, StreamNode[]>();
  for (const n of graph.nodes) {
    const h = chainHead.get(n.id)!;
    if (!members.has(h)) members.set(h, []);
    members.get(h)!.push(n);
  }
  const vid = (nodeId: number) => `v${chainHead.get(nodeId)}`;
  const edges: JobEdge[] = [];
  for (const n of graph.nodes) {
    if (chainHead.get(n.id) !== n.id) continue;
    n.inputs.forEach((e, inputIndex) =>
      edges.push({
        source: vid(e.from),
        sourceNode: e.from,
        target: vid(n.id),
        targetNode: n.id,
        partitioning: partitioningOf(n, e),
        keySelector: e.keySelector,
        sideTag: e.sideTag,
        inputSide: e.inputSide ?? 0,
        targetMaxParallelism: n.maxParallelism ?? defaults.maxParallelism,
        inputIndex,
        targetIsolatesInput: n.isolatesInput === true,
      }),
    );
  }
  const vertices: JobVertex[] = [];
  for (const [head, nodes] of members) {
    const h = graph.node(head);
    vertices.push({
      id: `v${head}`,
      nodes,
      parallelism: parallelism.get(head)!,
      maxParallelism: h.maxParallelism ?? defaults.maxParallelism,
      isSource: h.isSource,
      objectReuse: defaults.objectReuse ?? false,
      inputs: edges.filter((e) => e.target === `v${head}`),
      outputs: edges.filter((e) => e.source === `v${head}`),
    });
  }
  return { name, vertices };
}

/**
 * Whether every consumer of an output of member `nodeId` of `vertex` leaves its records alone
 * (`StreamNode.isolatesInput`): the targets of the output's edges and, for the main output (`sideTag`
 * undefined), the members chained to it. Such consumers share each record: no copies at the fan-out.
 *
 * @example
 * ```ts
 * // a Calc's rows to an interval join (an edge) and a local window aggregation (chained), both isolating
 * consumersIsolate(vertex, calcNodeId, undefined); // true
 * ```
 */
export function consumersIsolate(vertex: JobVertex, nodeId: number, sideTag: string | undefined): boolean {
  const preds = chainPredecessors(vertex);
  const chained = sideTag !== undefined ? [] : vertex.nodes.filter((_, j) => preds[j]! >= 0 && vertex.nodes[preds[j]!]!.id === nodeId);
  return chained.every((n) => n.isolatesInput === true) && vertex.outputs.every((e) => e.sourceNode !== nodeId || e.sideTag !== sideTag || e.targetIsolatesInput);
}

/**
 * For each member of `vertex.nodes`, the index of the member it is chained to (the one whose
 * output it takes by call); -1 for the head.
 *
 * @example
 * ```ts
 * // source → filter persons, source → filter auctions, all chained
 * chainPredecessors(vertex); // [-1, 0, 0]
 * ```
 */
export function chainPredecessors(vertex: JobVertex): number[] {
  const index = new Map(vertex.nodes.map((n, i) => [n.id, i]));
  return vertex.nodes.map((n, i) => (i === 0 ? -1 : index.get(n.inputs[0]!.from)!));
}
