/**
 * The name of a vertex as Flink shows it: its chained operators joined by
 * " -> ", sources prefixed "Source: " and sinks "Sink: " (metric scopes,
 * the REST API and the dashboard). Where an operator feeds several chained
 * operators, their branches follow it in parentheses, as Flink names them.
 */
import { chainPredecessors, type JobVertex } from "./job-graph.ts";
import type { StreamNode } from "./stream-graph.ts";

/**
 * @example
 * ```ts
 * vertexName(graph.vertices[0]!); // "Source: numbers -> Map -> Sink: out"
 * // a source whose two filters are chained to it: "Source: nexmark -> (persons -> person, auctions -> auction)"
 * ```
 */
export function vertexName(vertex: JobVertex): string {
  return chainName(vertex, label);
}

/**
 * The chain of `vertex` with each operator as `label` gives it: " -> " between an operator and the one
 * chained to it, the branches of a fan-out in parentheses.
 *
 * @example
 * ```ts
 * chainName(vertex, (n) => n.name); // "nexmark -> (persons -> person, auctions -> auction)"
 * ```
 */
export function chainName(vertex: JobVertex, label: (node: StreamNode) => string): string {
  const preds = chainPredecessors(vertex);
  const from = (i: number): string => {
    const next = vertex.nodes.flatMap((_, j) => (preds[j] === i ? [from(j)] : []));
    const me = label(vertex.nodes[i]!);
    if (next.length === 0) return me;
    return next.length === 1 ? `${me} -> ${next[0]}` : `${me} -> (${next.join(", ")})`;
  };
  return from(0);
}

function label(n: StreamNode): string {
  if (n.isSource && !n.name.startsWith("Source: ")) return `Source: ${n.name}`;
  return n.type === "sink" && !n.name.startsWith("Sink: ") ? `Sink: ${n.name}` : n.name;
}
