/**
 * A job's graph as the dashboard draws it: one box per vertex (a chain of
 * operators run as one task) with its operators, and one arrow per input with
 * how records are shipped (FORWARD, HASH, REBALANCE, …). The operators come
 * from the plan node's description when the server gives one (for SQL jobs the
 * plan's operators with their changelog modes), else from the vertex name
 * ("Source: numbers -> Map -> Sink: out", Flink's chained name).
 *
 * @example
 * ```ts
 * const { vertices, arrows } = jobPlan(details);
 * vertices[0].operators; // ["Source: numbers", "Map"]
 * ```
 */
import type { JobDetails, JobPlan } from "./rest-types.ts";

/** A vertex as drawn. */
export interface PlanVertex {
  readonly id: string;
  readonly name: string;
  readonly parallelism: number;
  readonly operators: readonly string[];
  /** Whether another vertex reads this one (a sink has none). */
  readonly hasOutputs: boolean;
}

/** An arrow from the vertex `from` into `to`. */
export interface PlanArrow {
  readonly from: string;
  readonly to: string;
  readonly label: string;
}

/** The vertices and arrows of job `details`. */
export function jobPlan(details: JobDetails): { vertices: PlanVertex[]; arrows: PlanArrow[] } {
  const plan = parsePlan(details.plan);
  const nodes = new Map((plan?.nodes ?? []).map((n) => [n.id, n]));
  const arrows: PlanArrow[] = [];
  for (const n of plan?.nodes ?? [])
    for (const input of n.inputs ?? []) arrows.push({ from: input.id, to: n.id, label: input.ship_strategy ?? "" });
  const readFrom = new Set(arrows.map((a) => a.from));
  const vertices = details.vertices.map((v) => {
    const description = nodes.get(v.id)?.description;
    const fromPlan = description ? descriptionLines(description) : [];
    return {
      id: v.id,
      name: v.name,
      parallelism: v.parallelism,
      operators: fromPlan.length > 0 ? fromPlan : v.name.split(" -> "),
      hasOutputs: readFrom.has(v.id),
    };
  });
  return { vertices, arrows };
}

function parsePlan(plan: JobPlan | string | undefined): JobPlan | undefined {
  if (typeof plan !== "string") return plan;
  try {
    return JSON.parse(plan) as JobPlan;
  } catch {
    return undefined;
  }
}

const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&#39;": "'", "&nbsp;": " " };

/** A plan description (Flink writes HTML: lines split by `<br/>`) as lines of plain text. */
export function descriptionLines(description: string): string[] {
  return description
    .split(/<br\s*\/?>|\n/i)
    .map((line) => line.replace(/<[^>]*>/g, "").replace(/&(lt|gt|amp|quot|#39|nbsp);/g, (e) => ENTITIES[e] ?? e).trimEnd())
    .filter((line) => line.trim() !== "");
}

/** A SQL operator's description ends with its changelog mode (`…, changelogMode=[I,UB,UA]`): shown apart, never cut off. */
export function splitChangelogMode(line: string): { operator: string; mode?: string } {
  const m = /^(.*?),? ?changelogMode=\[([^\]]*)\]\s*$/.exec(line);
  return m ? { operator: m[1]!, mode: m[2]! } : { operator: line };
}
