/**
 * The live numbers of one vertex that the job graph shows: records per second
 * in and out (summed over subtasks), backpressure and busy time (the worst
 * subtask), and the low watermark (the lowest input watermark of its subtasks).
 * Each comes from its own REST call; one that fails leaves its number out.
 *
 * @example
 * ```ts
 * const stats = await loadVertexStats(jid, vertex.id);
 * formatRate(stats.outPerSecond);
 * ```
 */
import { getJson } from "./api.ts";
import { aggregate, lowestValue, metricList } from "./metric-values.ts";
import type { AggregatedMetric, Metric, VertexBackPressure } from "./rest-types.ts";

/** What the graph shows of a vertex; a number is undefined when the server did not give it. */
export interface VertexStats {
  readonly inPerSecond?: number;
  readonly outPerSecond?: number;
  /** Share of time the busiest-blocked subtask was back-pressured, 0..1. */
  readonly backPressure?: number;
  /** Share of time the busiest subtask was busy, 0..1. */
  readonly busy?: number;
  /** Flink's level: ok (≤ 10 %), low (≤ 50 %), high. */
  readonly level?: string;
  readonly watermark?: number;
}

const RATES = ["numRecordsInPerSecond", "numRecordsOutPerSecond", "backPressuredTimeMsPerSecond", "busyTimeMsPerSecond"];

/** Loads the numbers of vertex `vid` of job `jid`. */
export async function loadVertexStats(jid: string, vid: string): Promise<VertexStats> {
  const base = `jobs/${jid}/vertices/${vid}`;
  const [rates, pressure, watermarks] = await Promise.allSettled([
    getJson<unknown>(`${base}/subtasks/metrics?get=${RATES.join(",")}&agg=sum,max`),
    getJson<VertexBackPressure>(`${base}/backpressure`),
    getJson<unknown>(`${base}/watermarks`),
  ]);
  const agg = rates.status === "fulfilled" ? metricList<AggregatedMetric>(rates.value) : [];
  const bp = pressure.status === "fulfilled" ? pressure.value : undefined;
  const wm = watermarks.status === "fulfilled" ? metricList<Metric>(watermarks.value) : [];
  const bpTime = aggregate(agg, "backPressuredTimeMsPerSecond", "max");
  const busyTime = aggregate(agg, "busyTimeMsPerSecond", "max");
  const ratios = (bp?.subtasks ?? []).map((s) => s.ratio).filter((r): r is number => typeof r === "number");
  return {
    inPerSecond: aggregate(agg, "numRecordsInPerSecond", "sum"),
    outPerSecond: aggregate(agg, "numRecordsOutPerSecond", "sum"),
    backPressure: ratios.length > 0 ? Math.max(...ratios) : bpTime === undefined ? undefined : bpTime / 1000,
    busy: busyTime === undefined ? maxOf(bp?.subtasks?.map((s) => s.busyRatio)) : busyTime / 1000,
    level: bp?.["backpressure-level"],
    watermark: lowestValue(wm, "currentInputWatermark"),
  };
}

function maxOf(values: readonly (number | undefined)[] | undefined): number | undefined {
  const known = (values ?? []).filter((v): v is number => typeof v === "number");
  return known.length === 0 ? undefined : Math.max(...known);
}
