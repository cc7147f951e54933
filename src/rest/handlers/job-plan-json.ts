/**
 * The `plan` of `/jobs/:jid` in Flink's shape: one node per vertex (chain of
 * operators) with its parallelism, description and inputs (the edges: source
 * vertex and ship strategy). Each node also lists its chained operators
 * (`operators`: uid, name, type and description; a SQL operator's description
 * ends with its changelog mode), which Flink's plan does not have.
 */
import type { JobClient } from "../../deploy/job-client.ts";
import type { Partitioning } from "../../graph/stream-graph.ts";
import { vertexHexId } from "../../graph/vertex-hex-id.ts";
import { vertexName } from "../../graph/vertex-name.ts";
import type { StreamNode } from "../../graph/stream-graph.ts";

const SHIP_STRATEGY: Readonly<Record<Partitioning, string>> = {
  forward: "FORWARD",
  rebalance: "REBALANCE",
  hash: "HASH",
  broadcast: "BROADCAST",
};

/** `Source: name` for a source, `Sink: name` for a sink, else the operator's name (as in `vertexName`). */
function operatorDisplayName(node: StreamNode): string {
  if (node.isSource && !node.name.startsWith("Source: ")) return `Source: ${node.name}`;
  if (node.type === "sink" && !node.name.startsWith("Sink: ")) return `Sink: ${node.name}`;
  return node.name;
}

/** The plan of `job`. */
export function jobPlanJson(job: JobClient): object {
  const graph = job.getJobGraph();
  const hexOf = new Map(graph.vertices.map((v) => [v.id, vertexHexId(v)]));
  return {
    jid: job.getJobId(),
    name: job.jobName,
    type: "STREAMING",
    nodes: graph.vertices.map((v) => ({
      id: hexOf.get(v.id)!,
      parallelism: v.parallelism,
      operator: "",
      operator_strategy: "",
      description: v.nodes.map((n) => n.description ?? operatorDisplayName(n)).join("<br/>"),
      inputs: v.inputs.map((e, num) => ({
        num,
        id: hexOf.get(e.source)!,
        ship_strategy: SHIP_STRATEGY[e.partitioning],
        exchange: "pipelined_bounded",
        ...(e.sideTag === undefined ? {} : { side_output: e.sideTag }),
      })),
      optimizer_properties: {},
      name: vertexName(v),
      operators: v.nodes.map((n) => ({
        id: n.uid,
        name: operatorDisplayName(n),
        type: n.type,
        ...(n.description === undefined ? {} : { description: n.description }),
      })),
    })),
  };
}
