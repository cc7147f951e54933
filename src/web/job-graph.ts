/**
 * `<weir-job-graph>`: the job graph, one box per vertex placed by
 * graph-layout.ts, with its operators (the chain), parallelism, records per
 * second in and out, backpressure, busy time and low watermark; the arrows say
 * how records are shipped. The numbers change with every refresh, the layout
 * only when the graph does.
 *
 * @example
 * ```ts
 * html`<weir-job-graph .plan=${jobPlan(details)} .stats=${statsByVertex}></weir-job-graph>`;
 * ```
 */
import { html, svg, nothing } from "lit";
import { formatPercent, formatRate, formatWatermark } from "./format.ts";
import { layoutGraph, type GraphLayout } from "./graph-layout.ts";
import { splitChangelogMode, type PlanArrow, type PlanVertex } from "./job-plan.ts";
import { LightElement } from "./light-element.ts";
import type { VertexStats } from "./vertex-stats.ts";

/** Box geometry: fixed width, one line per operator (at most MAX_OPERATORS) and four lines of numbers. */
const WIDTH = 300;
const LINE = 17;
const PADDING = 10;
const MAX_OPERATORS = 8;
const METRIC_LINES = 4;

export class JobGraph extends LightElement {
  static override properties = { plan: { attribute: false }, stats: { attribute: false } };
  declare plan: { vertices: readonly PlanVertex[]; arrows: readonly PlanArrow[] } | undefined;
  declare stats: ReadonlyMap<string, VertexStats> | undefined;
  private layout: GraphLayout | undefined;
  private layoutKey = "";

  override render(): unknown {
    if (!this.plan) return html`<p class="muted">Loading the job graph…</p>`;
    const layout = this.layoutFor(this.plan);
    const byId = new Map(this.plan.vertices.map((v) => [v.id, v]));
    return html`<div class="graph" style="width:${layout.width}px;height:${layout.height}px">
      <svg class="graph-edges" width=${layout.width} height=${layout.height}>
        <defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"></path></marker></defs>
        ${layout.edges.map(
          (e) => svg`<polyline class="graph-edge" points=${e.points.map((p) => `${p.x},${p.y}`).join(" ")} marker-end="url(#arrow)"></polyline>
            ${e.label ? svg`<text class="graph-edge-label" x=${e.labelAt.x} y=${e.labelAt.y - 4} text-anchor="middle">${e.label}</text>` : nothing}`,
        )}
      </svg>
      ${layout.nodes.map((n) => {
        const v = byId.get(n.id)!;
        return this.box(v, n.x, n.y, n.height, this.stats?.get(v.id));
      })}
    </div>`;
  }

  private box(v: PlanVertex, x: number, y: number, height: number, s: VertexStats | undefined): unknown {
    const shown = v.operators.slice(0, MAX_OPERATORS);
    const hidden = v.operators.length - shown.length;
    const level = s?.level ?? (s?.backPressure === undefined ? "" : s.backPressure > 0.5 ? "high" : s.backPressure > 0.1 ? "low" : "ok");
    return html`<div class="graph-node bp-${level || "unknown"}" data-vertex-id=${v.id} title=${v.name}
      style="left:${x}px;top:${y}px;width:${WIDTH}px;height:${height}px">
      <ol class="graph-operators">
        ${shown.map((op) => {
          const { operator, mode } = splitChangelogMode(op);
          return html`<li title=${op}><span class="operator">${operator}</span>${mode ? html`<span class="changelog-mode" title="changelog mode">${mode}</span>` : nothing}</li>`;
        })}
        ${hidden > 0 ? html`<li class="muted">+ ${hidden} more</li>` : nothing}
      </ol>
      <div class="graph-metrics">
        <div>parallelism <b>${v.parallelism}</b></div>
        <div>in <b class="rate-in">${formatRate(s?.inPerSecond)}</b> · out <b class="rate-out">${formatRate(s?.outPerSecond)}</b></div>
        <div>backpressure <b class="backpressure">${formatPercent(s?.backPressure)}</b> · busy <b class="busy">${formatPercent(s?.busy)}</b></div>
        <div>watermark <b class="watermark">${formatWatermark(s?.watermark)}</b></div>
      </div>
    </div>`;
  }

  private layoutFor(plan: { vertices: readonly PlanVertex[]; arrows: readonly PlanArrow[] }): GraphLayout {
    const key = JSON.stringify([plan.vertices.map((v) => [v.id, v.operators.length]), plan.arrows]);
    if (!this.layout || key !== this.layoutKey) {
      const boxes = plan.vertices.map((v) => ({
        id: v.id,
        width: WIDTH,
        height: 2 * PADDING + LINE * (Math.min(v.operators.length, MAX_OPERATORS + 1) + METRIC_LINES) + 6,
      }));
      this.layout = layoutGraph(boxes, plan.arrows);
      this.layoutKey = key;
    }
    return this.layout;
  }
}
