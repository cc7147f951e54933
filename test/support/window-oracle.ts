/**
 * A straightforward, independent model of event-time windows with the default
 * event-time trigger, allowed lateness and a late-data side output, for oracle
 * tests: records are processed one by one in the order the (parallelism-1)
 * source emits them, each after the punctuated watermark its own arrival
 * produced (see `punctuatedWatermarks`). Results are `key|start|end|ids`.
 */
import { WatermarkStrategy } from "../../src/time/watermark-strategy.ts";

/** A test record. */
export interface Ev {
  readonly id: number;
  readonly key: string;
  readonly ts: number;
  /** The watermark this record's arrival produces (see `embeddedWatermarks`). */
  readonly wm: number;
}

/** Window kinds the model knows (tumbling and sliding windows shifted by `offset` ms, 0 when absent). */
export type WindowKind =
  | { type: "tumbling"; size: number; offset?: number }
  | { type: "sliding"; size: number; slide: number; offset?: number }
  | { type: "session"; gap: number };

interface Pane {
  start: number;
  end: number;
  ids: number[];
  fired: boolean;
}

/** Watermarks emitted on every event: `max timestamp seen - bound - 1`, so which records are late is decided by the order alone. */
export function punctuatedWatermarks(bound: number): WatermarkStrategy<Ev> {
  return WatermarkStrategy.forGenerator<Ev>(() => {
    let max = Number.NEGATIVE_INFINITY;
    return {
      onEvent: (_e, ts, out) => {
        max = Math.max(max, ts);
        out.emitWatermark(max - bound - 1);
      },
      onPeriodicEmit: () => {},
    };
  }).withTimestampAssigner((e) => e.ts);
}

const floorTo = (t: number, size: number) => t - (((t % size) + size) % size);

/** The model's results (every firing) and late (side output) records. */
export function windowOracle(events: readonly Ev[], kind: WindowKind, bound: number, lateness: number): { results: string[]; late: number[] } {
  const panes = new Map<string, Pane[]>(); // per key
  const results: string[] = [];
  const late: number[] = [];
  let wm = Number.NEGATIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  const emit = (key: string, p: Pane) => results.push(`${key}|${p.start}|${p.end}|${[...p.ids].sort((a, b) => a - b).join(",")}`);
  const advance = (to: number) => {
    if (to <= wm) return;
    wm = to;
    for (const [key, list] of panes) {
      for (const p of list) if (!p.fired && p.end - 1 <= wm) (p.fired = true), emit(key, p);
      panes.set(key, list.filter((p) => p.end - 1 + lateness > wm));
    }
  };
  for (const e of [...events, null]) {
    if (e === null) {
      advance(Number.POSITIVE_INFINITY);
      break;
    }
    max = Math.max(max, e.ts);
    advance(max - bound - 1);
    const list = panes.get(e.key) ?? [];
    panes.set(e.key, list);
    let accepted = false;
    if (kind.type === "session") {
      let w = { start: e.ts, end: e.ts + kind.gap };
      const overlapping = list.filter((p) => p.start <= w.end && p.end >= w.start);
      if (overlapping.length === 0 && w.end - 1 + lateness <= wm) {
        // late: no in-flight session takes it
      } else {
        accepted = true;
        for (const p of overlapping) w = { start: Math.min(w.start, p.start), end: Math.max(w.end, p.end) };
        const merged: Pane = { ...w, ids: [...overlapping.flatMap((p) => p.ids), e.id], fired: false };
        const single = overlapping.length === 1 && overlapping[0]!.start === w.start && overlapping[0]!.end === w.end;
        if (single) merged.fired = overlapping[0]!.fired;
        panes.set(e.key, [...list.filter((p) => !overlapping.includes(p)), merged]);
        if (w.end - 1 <= wm) (merged.fired = true), emit(e.key, merged);
      }
    } else {
      const size = kind.size;
      const slide = kind.type === "sliding" ? kind.slide : kind.size;
      const offset = kind.offset ?? 0;
      for (let start = floorTo(e.ts - offset, slide) + offset; start > e.ts - size; start -= slide) {
        const end = start + size;
        if (end - 1 + lateness <= wm) continue;
        accepted = true;
        let p = list.find((x) => x.start === start);
        if (!p) list.push((p = { start, end, ids: [], fired: false }));
        p.ids.push(e.id);
        if (end - 1 <= wm) (p.fired = true), emit(e.key, p);
      }
    }
    if (!accepted && e.ts + lateness <= wm) late.push(e.id);
  }
  return { results: results.sort(), late: late.sort((a, b) => a - b) };
}

/** Seeded out-of-order events: time advances ~10 ms per event with up to `disorder` ms of jitter; a `lateShare` of them are 1–3 s behind; each carries the watermark of a `bound` ms out-of-orderness. */
export function randomEvents(random: () => number, n: number, keys: number, disorder: number, lateShare: number, bound: number): Ev[] {
  return Array.from({ length: n }, (_, i) => {
    let ts = 100_000 + i * 10 - Math.floor(random() * disorder);
    if (random() < lateShare) ts -= 1000 + Math.floor(random() * 2000);
    return { id: i, key: `k${Math.floor(random() * keys)}`, ts };
  }).map(withWatermark(bound));
}

/** Adds to each record the watermark `max timestamp so far - bound - 1` (what `punctuatedWatermarks(bound)` emits on it). */
function withWatermark(bound: number): (e: Omit<Ev, "wm">) => Ev {
  let max = Number.NEGATIVE_INFINITY;
  return (e) => {
    max = Math.max(max, e.ts);
    return { ...e, wm: max - bound - 1 };
  };
}

/**
 * Emits the watermark carried by each record: the same watermarks as
 * `punctuatedWatermarks`, but also after a restore replays from the middle of the
 * stream (a generator's running maximum is not checkpointed, as in Flink).
 */
export function embeddedWatermarks(): WatermarkStrategy<Ev> {
  return WatermarkStrategy.forGenerator<Ev>(() => ({
    onEvent: (e, _ts, out) => out.emitWatermark(e.wm),
    onPeriodicEmit: () => {},
  })).withTimestampAssigner((e) => e.ts);
}
