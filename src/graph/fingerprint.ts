/**
 * A hash of everything about a job graph that must be identical in every
 * thread and between a checkpoint and the job restoring it: vertices, chained
 * operators (uid, type, parallelism), and edges with their partitioning.
 */
import { createHash } from "node:crypto";
import type { JobGraph } from "./job-graph.ts";

/** The canonical, closure-free description of a job graph. */
export function describeJobGraph(graph: JobGraph): unknown {
  return graph.vertices.map((v) => ({
    id: v.id,
    p: v.parallelism,
    maxP: v.maxParallelism,
    ops: v.nodes.map((n) => [n.uid, n.type, n.name]),
    in: v.inputs.map((e) => [e.source, e.partitioning, e.inputIndex, e.sideTag ?? null, e.inputSide]),
  }));
}

/** sha256 (hex, 16 chars) of the graph description. */
export function fingerprintJobGraph(graph: JobGraph): string {
  return createHash("sha256").update(JSON.stringify(describeJobGraph(graph))).digest("hex").slice(0, 16);
}
