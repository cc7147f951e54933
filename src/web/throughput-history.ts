/**
 * Records per second of each vertex over time, as the dashboard sampled them
 * (one sample per refresh, the last MAX_SAMPLES kept): a source's or an inner
 * vertex's records out, a sink's records in. The chart draws it.
 *
 * @example
 * ```ts
 * const history = new ThroughputHistory();
 * history.add(Date.now(), [{ label: "Source: numbers out", value: 1200 }]);
 * history.series(); // { labels: ["Source: numbers out"], x: [<seconds>], ys: [[1200]] }
 * ```
 */

/** Samples kept: ten minutes at one refresh a second. */
const MAX_SAMPLES = 600;

/** Series for the chart: x in seconds since the epoch (uPlot's time axis), one y list per label (null: not measured). */
export interface ThroughputSeries {
  readonly labels: readonly string[];
  readonly x: readonly number[];
  readonly ys: readonly (readonly (number | null)[])[];
}

export class ThroughputHistory {
  private readonly x: number[] = [];
  private readonly ys = new Map<string, (number | null)[]>();

  /** Adds one sample taken at `atMs`; a label seen for the first time gets nulls before it. */
  add(atMs: number, values: readonly { readonly label: string; readonly value: number | undefined }[]): void {
    this.x.push(atMs / 1000);
    for (const { label, value } of values) {
      if (!this.ys.has(label)) this.ys.set(label, new Array<number | null>(this.x.length - 1).fill(null));
      this.ys.get(label)!.push(value ?? null);
    }
    for (const ys of this.ys.values()) if (ys.length < this.x.length) ys.push(null);
    if (this.x.length > MAX_SAMPLES) {
      this.x.shift();
      for (const ys of this.ys.values()) ys.shift();
    }
  }

  /** The samples so far. */
  series(): ThroughputSeries {
    return { labels: [...this.ys.keys()], x: [...this.x], ys: [...this.ys.values()].map((ys) => [...ys]) };
  }
}
