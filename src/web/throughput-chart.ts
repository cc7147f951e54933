/**
 * `<weir-throughput-chart>`: records per second of each vertex over time, a
 * line per vertex drawn by uPlot (canvas), as wide as the page.
 *
 * @example
 * ```ts
 * html`<weir-throughput-chart .series=${history.series()}></weir-throughput-chart>`;
 * ```
 */
import { html, nothing } from "lit";
import uPlot from "uplot";
import { formatCount } from "./format.ts";
import { LightElement } from "./light-element.ts";
import type { ThroughputSeries } from "./throughput-history.ts";

const COLORS = ["#2563eb", "#dc2626", "#16a34a", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#65a30d"];
const HEIGHT = 240;
/** Samples before the chart is drawn (uPlot spans a lone point's time axis over years). */
const MIN_SAMPLES = 2;

export class ThroughputChart extends LightElement {
  static override properties = { series: { attribute: false } };
  declare series: ThroughputSeries | undefined;
  private plot: uPlot | undefined;
  private labels = "";
  private resize: ResizeObserver | undefined;

  override render(): unknown {
    const sampled = (this.series?.x.length ?? 0) >= MIN_SAMPLES;
    return html`<div class="chart" ?hidden=${!sampled}></div>${sampled ? nothing : html`<p class="muted">Sampling the throughput…</p>`}`;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.resize = new ResizeObserver(() => this.plot?.setSize({ width: this.chartWidth(), height: HEIGHT }));
    this.resize.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.resize?.disconnect();
    this.plot?.destroy();
    this.plot = undefined;
  }

  protected override updated(): void {
    const s = this.series;
    if (!s || s.x.length < MIN_SAMPLES) return;
    const data = [s.x, ...s.ys] as unknown as uPlot.AlignedData;
    const labels = s.labels.join("\n");
    if (this.plot && labels === this.labels) {
      this.plot.setData(data);
      return;
    }
    this.plot?.destroy();
    this.labels = labels;
    this.plot = new uPlot(
      {
        width: this.chartWidth(),
        height: HEIGHT,
        series: [{}, ...s.labels.map((label, i) => ({ label, stroke: COLORS[i % COLORS.length], width: 2, value: (_: uPlot, v: number | null) => (v === null ? "–" : `${formatCount(v)}/s`) }))],
        axes: [{}, { label: "records/s", size: 60, values: (_: uPlot, ticks: number[]) => ticks.map((t) => formatCount(t)) }],
        scales: {
          // at least a minute wide: a first sample alone would otherwise span years
          x: { time: true, range: (_: uPlot, min: number, max: number) => [Math.min(min, max - 60), max] },
          y: { range: (_: uPlot, _min: number, max: number) => [0, Math.max(1, max * 1.1)] },
        },
      },
      data,
      this.querySelector<HTMLElement>(".chart")!,
    );
  }

  private chartWidth(): number {
    return Math.max(320, this.clientWidth || 800);
  }
}
