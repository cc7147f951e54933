/**
 * The 32-hex id of a vertex, as Flink's JobVertexID: derived from the uid of
 * the vertex's head operator, so it is the same in every run, every worker and
 * after a restore (REST paths and metric labels use it).
 */
import { createHash } from "node:crypto";
import type { JobVertex } from "./job-graph.ts";

/**
 * @example
 * ```ts
 * vertexHexId(graph.vertices[0]!); // "5c4e0d1b9a7f3e2d8c6b4a0918273645"
 * ```
 */
export function vertexHexId(vertex: JobVertex): string {
  return createHash("sha256").update(`weir-vertex:${vertex.nodes[0]!.uid}`).digest("hex").slice(0, 32);
}
