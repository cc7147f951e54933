/**
 * The keyed job of the in-process incremental-checkpoint suites: events with
 * a key, a running count and sum per key in a ValueState, every record
 * emitting `key:count:sum` — and the output a failure-free run gives.
 */
import { ValueStateDescriptor, type Collector, type RuntimeContext, type ValueState } from "../../src/index.ts";

/** One input event. */
export interface TotalsEvent {
  readonly id: number;
  readonly key: number;
}

/** A running count and sum per key; every record emits `key:count:sum` (for `keyBy(e => e.key).process(...)`). */
export const runningTotals = {
  totals: undefined as ValueState<{ n: number; sum: number }> | undefined,
  open(ctx: RuntimeContext) {
    this.totals = ctx.getState(new ValueStateDescriptor<{ n: number; sum: number }>("totals"));
  },
  processElement(e: TotalsEvent, _ctx: unknown, out: Collector<string>) {
    const t = this.totals!.value() ?? { n: 0, sum: 0 };
    t.n++;
    t.sum += e.id;
    this.totals!.update(t);
    out.collect(`${e.key}:${t.n}:${t.sum}`);
  },
};

/** The lines a failure-free run emits for `events` (in input order per key), sorted. */
export function expectedRunningTotals(events: readonly TotalsEvent[]): string[] {
  const expected: string[] = [];
  const totals = new Map<number, { n: number; sum: number }>();
  for (const e of events) {
    const t = totals.get(e.key) ?? { n: 0, sum: 0 };
    t.n++;
    t.sum += e.id;
    totals.set(e.key, t);
    expected.push(`${e.key}:${t.n}:${t.sum}`);
  }
  return expected.sort();
}
