/**
 * Plain-TypeScript oracles of the table operators of `src/table/runtime/`
 * (Top-N, deduplication, window TVFs, window Top-N and deduplication): the
 * batch result over the input, computed directly, and the random inputs the
 * suites feed both the engine and the oracle.
 */
import { compareForSort, sqlNotDistinct } from "../../src/table/types/sql-compare.ts";
import type { SqlValue } from "../../src/table/types/sql-value.ts";
import { sqlValueKey } from "../../src/table/types/sql-value-key.ts";
import type { Row } from "../../src/table/data/row.ts";
import type { SortKey } from "../../src/table/runtime/sort-spec.ts";
import type { WindowSpec } from "../../src/table/runtime/window-spec.ts";
import type { WindowRankSpec } from "../../src/table/runtime/window-rank.ts";
import { randomInt } from "../../src/util/seeded-random.ts";

/** The rows of a retract changelog that are present at its end (fields only). */
export function presentRows(changelog: readonly Row[]): SqlValue[][] {
  const rows: SqlValue[][] = [];
  for (const r of changelog) {
    if (r.kind === "+I" || r.kind === "+U") rows.push(r.fields);
    else {
      const i = rows.findIndex((x) => sqlNotDistinct(x, r.fields));
      if (i < 0) throw new Error("the generated changelog retracts a missing row");
      rows.splice(i, 1);
    }
  }
  return rows;
}

function orderOf(orderBy: readonly SortKey[]) {
  return (a: readonly SqlValue[], b: readonly SqlValue[]): number => {
    for (const k of orderBy) {
      const x = a[k.field]!;
      const y = b[k.field]!;
      if (x === null && y === null) continue;
      if (x === null) return k.nullsFirst ? -1 : 1;
      if (y === null) return k.nullsFirst ? 1 : -1;
      const c = compareForSort(x, y);
      if (c !== 0) return k.descending ? -c : c;
    }
    return 0;
  };
}

function groupBy(rows: readonly SqlValue[][], keyOf: (r: readonly SqlValue[]) => string): SqlValue[][][] {
  const groups = new Map<string, SqlValue[][]>();
  for (const r of rows) {
    const k = keyOf(r);
    const g = groups.get(k);
    if (g === undefined) groups.set(k, [r]);
    else g.push(r);
  }
  return [...groups.values()];
}

/** What a Top-N spec says, for the oracle. */
export interface TopNQuery {
  partitionKeys: readonly number[];
  orderBy: readonly SortKey[];
  rankType: "ROW_NUMBER" | "RANK" | "DENSE_RANK";
  rankStart: number;
  rankEnd: number;
  outputRankNumber: boolean;
}

/**
 * The batch Top-N: per partition, the rows ranked `rankStart..rankEnd` by the
 * definition of each ranking function (ROW_NUMBER ties are in input order).
 */
export function topNOracle(rows: readonly SqlValue[][], q: TopNQuery): SqlValue[][] {
  const cmp = orderOf(q.orderBy);
  const out: SqlValue[][] = [];
  for (const group of groupBy(rows, (r) => sqlValueKey(q.partitionKeys.map((p) => r[p]!)))) {
    const sorted = [...group].sort(cmp);
    sorted.forEach((r, i) => {
      let rank = i + 1;
      if (q.rankType === "RANK") rank = 1 + sorted.filter((x) => cmp(x, r) < 0).length;
      if (q.rankType === "DENSE_RANK") rank = 1 + new Set(sorted.filter((x) => cmp(x, r) < 0).map((x) => sqlValueKey(q.orderBy.map((k) => x[k.field]!)))).size;
      if (rank >= q.rankStart && rank <= q.rankEnd) out.push(q.outputRankNumber ? [...r, BigInt(rank)] : [...r]);
    });
  }
  return out;
}

/**
 * A random retract changelog of `[category, id, score]` rows: inserts of new
 * rows (unique BIGINT ids, categories and scores from small ranges with
 * NULLs), deletes and updates (`-U`/`+U`) of present rows.
 */
export function randomChangelog(random: () => number, n: number): Row[] {
  const present: SqlValue[][] = [];
  const out: Row[] = [];
  const categories = ["a", "b", "c", null];
  let id = 0n;
  const fresh = (): SqlValue[] => [categories[randomInt(random, 0, 3)]!, id++, random() < 0.1 ? null : randomInt(random, 0, 9)];
  while (out.length < n) {
    const p = random();
    if (present.length === 0 || p < 0.6) {
      const r = fresh();
      present.push(r);
      out.push({ kind: "+I", fields: r });
      continue;
    }
    const i = randomInt(random, 0, present.length - 1);
    const old = present[i]!;
    if (p < 0.8) {
      present.splice(i, 1);
      out.push({ kind: "-D", fields: old });
    } else {
      const r: SqlValue[] = [old[0]!, old[1]!, random() < 0.1 ? null : randomInt(random, 0, 9)];
      present[i] = r;
      out.push({ kind: "-U", fields: old }, { kind: "+U", fields: r });
    }
  }
  return out;
}

/** An event of the windowed suites: `[key, id, price, ts]`. */
export type WindowEvent = [string, bigint, number, number];

/**
 * Random events: keys `k0…`, unique ids, prices from a small range (ties), times
 * increasing with jitter so some are out of order by up to `disorder` ms.
 */
export function randomWindowEvents(random: () => number, n: number, keys: number, disorder: number): WindowEvent[] {
  const out: WindowEvent[] = [];
  let t = 1_000;
  for (let i = 0; i < n; i++) {
    t += randomInt(random, 0, 20);
    out.push([`k${randomInt(random, 0, keys - 1)}`, BigInt(i), randomInt(random, 0, 5), t - randomInt(random, 0, disorder)]);
  }
  return out;
}

/** The watermark each event is judged by: the largest `max time so far - bound - 1` of the events before it. */
export function watermarksBefore(events: readonly WindowEvent[], bound: number): number[] {
  const out: number[] = [];
  let max = Number.NEGATIVE_INFINITY;
  for (const e of events) {
    out.push(max - bound - 1);
    max = Math.max(max, e[3]);
  }
  return out;
}

function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

/** The windows `[start, end)` of a tumbling, hopping or cumulating spec containing `t` (by enumeration). */
export function windowsContaining(w: Exclude<WindowSpec, { kind: "session" }>, t: number): [number, number][] {
  const out: [number, number][] = [];
  if (w.kind === "tumble") {
    const s = w.offset + floorDiv(t - w.offset, w.size) * w.size;
    out.push([s, s + w.size]);
  } else if (w.kind === "hop") {
    const k = floorDiv(t - w.offset, w.slide);
    for (let j = k - Math.ceil(w.size / w.slide) - 1; j <= k + 1; j++) {
      const s = w.offset + j * w.slide;
      if (s <= t && t < s + w.size) out.push([s, s + w.size]);
    }
  } else {
    const s = w.offset + floorDiv(t - w.offset, w.maxSize) * w.maxSize;
    for (let e = s + w.step; e <= s + w.maxSize; e += w.step) if (t < e) out.push([s, e]);
  }
  return out;
}

/** The rows a window TVF gives for `events` (fields + start, end, end - 1). */
export function windowTvfOracle(events: readonly WindowEvent[], w: WindowSpec, bound: number): SqlValue[][] {
  if (w.kind !== "session") return events.flatMap((e) => windowsContaining(w, e[3]).map(([s, x]) => [...e, s, x, x - 1]));
  const wms = watermarksBefore(events, bound);
  const open = new Map<string, { start: number; last: number; rows: WindowEvent[] }[]>();
  const out: SqlValue[][] = [];
  const fire = (key: string, upTo: number) => {
    const sessions = open.get(key) ?? [];
    for (const s of sessions.filter((x) => x.last + w.gap - 1 <= upTo)) for (const e of s.rows) out.push([...e, s.start, s.last + w.gap, s.last + w.gap - 1]);
    open.set(key, sessions.filter((x) => x.last + w.gap - 1 > upTo));
  };
  events.forEach((e, i) => {
    const key = sqlValueKey(w.partitionKeys.map((p) => e[p]!));
    for (const k of open.keys()) fire(k, wms[i]!);
    const sessions = open.get(key) ?? [];
    const touching = sessions.filter((s) => s.start <= e[3] + w.gap && s.last + w.gap >= e[3]);
    const merged = {
      start: Math.min(e[3], ...touching.map((s) => s.start)),
      last: Math.max(e[3], ...touching.map((s) => s.last)),
      rows: [...touching.flatMap((s) => s.rows), e],
    };
    if (merged.last + w.gap - 1 <= wms[i]!) return;
    open.set(key, [...sessions.filter((s) => !touching.includes(s)), merged]);
  });
  for (const k of open.keys()) fire(k, Number.POSITIVE_INFINITY);
  return out;
}

/** The TVF rows (`[key, id, price, ts, start, end, time]`) a windowed operator keeps: those whose window had not fired when they arrived. */
export function onTimeWindowRows(events: readonly WindowEvent[], w: Exclude<WindowSpec, { kind: "session" }>, bound: number): SqlValue[][] {
  const wms = watermarksBefore(events, bound);
  return events.flatMap((e, i) => windowsContaining(w, e[3]).filter(([, x]) => x - 1 > wms[i]!).map(([s, x]) => [...e, s, x, x - 1]));
}

/** A window Top-N over `randomWindowEvents` rows through a window TVF: the two highest prices per window, numbered. */
export const TOP2_BY_PRICE: WindowRankSpec = {
  partitionKeys: [],
  orderBy: [{ field: 2, descending: true, nullsFirst: false }],
  rankType: "ROW_NUMBER",
  rankStart: 1,
  rankEnd: 2,
  outputRankNumber: true,
  windowStartField: 4,
  windowEndField: 5,
};

/** Randomized window Top-N cases over `randomWindowEvents`: a name, the window TVF, the Top-N (each ranking function, each sliced window). */
export const WINDOW_TOP_N_CASES: readonly (readonly [string, Exclude<WindowSpec, { kind: "session" }>, WindowRankSpec])[] = [
  [
    "ROW_NUMBER top 3 per key, tumbling",
    { kind: "tumble", timeField: 3, size: 100, offset: 0 },
    { ...TOP2_BY_PRICE, partitionKeys: [0], rankEnd: 3, orderBy: [...TOP2_BY_PRICE.orderBy, { field: 1, descending: false, nullsFirst: false }] },
  ],
  [
    "RANK ranks 2..3 without the number, hopping",
    { kind: "hop", timeField: 3, size: 120, slide: 40, offset: 0 },
    { ...TOP2_BY_PRICE, rankType: "RANK", rankStart: 2, rankEnd: 3, outputRankNumber: false },
  ],
  [
    "DENSE_RANK top 2 per key, cumulating with an offset",
    { kind: "cumulate", timeField: 3, maxSize: 150, step: 50, offset: -20 },
    { ...TOP2_BY_PRICE, partitionKeys: [0], rankType: "DENSE_RANK", orderBy: [{ field: 2, descending: false, nullsFirst: true }] },
  ],
];

/** The batch window Top-N over on-time TVF rows: a Top-N partitioned by the keys and the window (fields 4, 5). */
export function windowTopNOracle(rows: readonly SqlValue[][], q: TopNQuery): SqlValue[][] {
  return topNOracle(rows, { ...q, partitionKeys: [...q.partitionKeys, 4, 5] });
}

/**
 * The batch deduplication: per key the first row (the smallest time, the
 * earliest arrival among ties) or the last (the largest time, the latest
 * arrival among ties); without a time field, by arrival alone.
 */
export function dedupOracle(rows: readonly SqlValue[][], keys: readonly number[], keepLast: boolean, timeField?: number): SqlValue[][] {
  return groupBy(rows, (r) => sqlValueKey(keys.map((p) => r[p]!))).map((group) => {
    let best = group[0]!;
    for (const r of group.slice(1)) {
      const c = timeField === undefined ? 1 : compareForSort(r[timeField]!, best[timeField]!);
      if (keepLast ? c >= 0 : c < 0) best = r;
    }
    return best;
  });
}

/** The batch window deduplication over on-time TVF rows: {@link dedupOracle} per key and window (fields 4, 5). */
export function windowDedupOracle(rows: readonly SqlValue[][], keys: readonly number[], keepLast: boolean, timeField: number): SqlValue[][] {
  return dedupOracle(rows, [...keys, 4, 5], keepLast, timeField);
}
