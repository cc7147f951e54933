/**
 * The name of a vertex as Flink shows it: its chained operators joined by
 * " -> ", sources prefixed "Source: " and sinks "Sink: " (metric scopes,
 * the REST API and the dashboard).
 */
import type { JobVertex } from "./job-graph.ts";

/**
 * @example
 * ```ts
 * vertexName(graph.vertices[0]!); // "Source: numbers -> Map -> Sink: out"
 * ```
 */
export function vertexName(vertex: JobVertex): string {
  return vertex.nodes
    .map((n) => (n.isSource && !n.name.startsWith("Source: ") ? `Source: ${n.name}` : n.type === "sink" && !n.name.startsWith("Sink: ") ? `Sink: ${n.name}` : n.name))
    .join(" -> ");
}
