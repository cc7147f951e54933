/**
 * `<weir-job-page>`: one job: its name, state, times and actions, and four
 * tabs: the overview (the job graph with live numbers per vertex, and the
 * throughput over time), checkpoints, exceptions and configuration. The
 * overview refreshes every second.
 *
 * @example
 * ```ts
 * html`<weir-job-page jid=${jid} tab="checkpoints"></weir-job-page>`;
 * ```
 */
import { html, nothing } from "lit";
import { getJson } from "./api.ts";
import { formatDuration, formatTime } from "./format.ts";
import { jobPlan, type PlanArrow, type PlanVertex } from "./job-plan.ts";
import { LightElement } from "./light-element.ts";
import { Poll } from "./poll.ts";
import type { JobDetails } from "./rest-types.ts";
import { ThroughputHistory } from "./throughput-history.ts";
import { loadVertexStats, type VertexStats } from "./vertex-stats.ts";

/** The tabs of a job page: hash route `#/jobs/<jid>/<tab>`. */
export const TABS = ["overview", "checkpoints", "exceptions", "configuration"] as const;
export type Tab = (typeof TABS)[number];

const REFRESH_MS = 1000;

interface Snapshot {
  readonly details: JobDetails;
  readonly plan: { vertices: PlanVertex[]; arrows: PlanArrow[] };
  readonly stats: ReadonlyMap<string, VertexStats>;
}

export class JobPage extends LightElement {
  static override properties = { jid: {}, tab: {} };
  declare jid: string;
  declare tab: Tab;
  private history = new ThroughputHistory();
  private readonly job = new Poll(this, () => this.load(), REFRESH_MS);

  private async load(): Promise<Snapshot> {
    const details = await getJson<JobDetails>(`jobs/${this.jid}`);
    const plan = jobPlan(details);
    const stats = new Map<string, VertexStats>();
    if (this.tab === "overview" && details.state === "RUNNING") {
      const loaded = await Promise.all(plan.vertices.map((v) => loadVertexStats(this.jid, v.id)));
      plan.vertices.forEach((v, i) => stats.set(v.id, loaded[i]!));
      const seen = new Map<string, number>();
      this.history.add(
        Date.now(),
        plan.vertices.map((v) => {
          const s = stats.get(v.id)!;
          const name = shortName(v);
          // two vertices of one name (two sources of one table) get a line each
          const n = (seen.get(name) ?? 0) + 1;
          seen.set(name, n);
          const label = `${n > 1 ? `${name} #${n}` : name} ${v.hasOutputs ? "out" : "in"}`;
          return { label, value: v.hasOutputs ? s.outPerSecond : s.inPerSecond };
        }),
      );
    }
    return { details, plan, stats };
  }

  protected override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has("jid") && changed.get("jid") !== undefined) {
      this.history = new ThroughputHistory();
      void this.job.refresh();
    }
  }

  override render(): unknown {
    const snap = this.job.value;
    if (!snap) return html`<p class="muted">${this.job.error ?? "Loading the job…"}</p>`;
    const d = snap.details;
    return html`<header class="job-header">
        <h2>
          <span class="job-name">${d.name}</span> <span class="state state-${d.state.toLowerCase()}">${d.state}</span>
          ${this.job.error ? html`<span class="muted">(last known)</span>` : nothing}
        </h2>
        <p class="muted">
          <code class="job-id">${d.jid}</code> · started ${formatTime(d["start-time"])} · running for
          ${formatDuration(d.duration ?? (d.now ?? Date.now()) - d["start-time"])}
          ${d["end-time"] && d["end-time"] > 0 ? html` · ended ${formatTime(d["end-time"])}` : nothing}
        </p>
        ${this.job.error ? html`<p class="error">${this.job.error}</p>` : nothing}
        <weir-job-actions jid=${this.jid} state=${d.state}></weir-job-actions>
      </header>
      <nav class="tabs">
        ${TABS.map((t) => html`<a href="#/jobs/${this.jid}/${t}" class=${t === this.tab ? "active" : ""} id="tab-${t}">${t}</a>`)}
      </nav>
      ${this.tabContent(snap)}`;
  }

  private tabContent(snap: Snapshot): unknown {
    switch (this.tab) {
      case "checkpoints":
        return html`<weir-checkpoints jid=${this.jid} .vertices=${snap.details.vertices}></weir-checkpoints>`;
      case "exceptions":
        return html`<weir-exceptions jid=${this.jid}></weir-exceptions>`;
      case "configuration":
        return html`<weir-job-config jid=${this.jid}></weir-job-config>`;
      default:
        return html`<section class="overview">
          <h3>Job graph</h3>
          <div class="graph-scroll"><weir-job-graph .plan=${snap.plan} .stats=${snap.stats}></weir-job-graph></div>
          <h3>Throughput (records/s)</h3>
          <weir-throughput-chart .series=${this.history.series()}></weir-throughput-chart>
        </section>`;
    }
  }
}

/** Characters of a vertex name in the chart's legend. */
const LEGEND_NAME = 40;

/** A vertex's first operator (a chain is named after all of them), cut short enough for a chart legend. */
function shortName(v: PlanVertex): string {
  const first = v.name.split(" -> ")[0]!;
  const cut = first.length > LEGEND_NAME ? `${first.slice(0, LEGEND_NAME - 1)}…` : first;
  return v.name.includes(" -> ") || cut !== first ? `${cut} …`.replace("… …", "…") : cut;
}
