import { describe, expect, it } from "vitest";
import { MaxWatermarks } from "./source-watermarks.ts";
import type { Row } from "../data/row.ts";
import type { SqlValue } from "../types/sql-value.ts";

function emitted<R>(g: MaxWatermarks<R>): number[] {
  const out: number[] = [];
  g.onPeriodicEmit({ emitWatermark: (w: number) => out.push(w), markIdle: () => {}, markActive: () => {} } as never);
  return out;
}

const row = (...fields: SqlValue[]): Row => ({ kind: "+I", fields });

describe("MaxWatermarks", () => {
  it("takes a one-row record's rowtime from its timestamp when the WATERMARK reads only the rowtime", () => {
    const fromRows = (f: SqlValue[]) => (typeof f[0] === "number" ? f[0] - 4_000 : null);
    const g = new MaxWatermarks<Row>(fromRows, (r) => [r], (t) => (typeof t === "number" ? t - 4_000 : null));
    g.onEvent(row(999_999), 10_000); // the timestamp is the row's rowtime: the fields are not read again
    expect(emitted(g)).toEqual([6_000]);
    g.onEvent(row(null), Number.MIN_SAFE_INTEGER); // a row without a rowtime: NULL, no watermark
    g.onEvent(row(5_000), 5_000);
    expect(emitted(g)).toEqual([6_000]);
  });

  it("reads a record that is one row as that row", () => {
    const g = new MaxWatermarks<Row>((f) => (typeof f[0] === "number" ? f[0] - 1 : null), undefined);
    g.onEvent(row(10), 10);
    g.onEvent(row(null), Number.MIN_SAFE_INTEGER);
    g.onEvent(row(5), 5);
    expect(emitted(g)).toEqual([9]);
    const fromRowtime = new MaxWatermarks<Row>(() => 0, undefined, (t) => (typeof t === "number" ? t - 4_000 : null));
    fromRowtime.onEvent(row(999_999), 10_000); // the timestamp is the row's rowtime: the fields are not read again
    fromRowtime.onEvent(row(null), Number.MIN_SAFE_INTEGER);
    expect(emitted(fromRowtime)).toEqual([6_000]);
  });

  it("computes a WATERMARK that grows with the rowtime once per periodic emit, of the largest rowtime", () => {
    const calls: SqlValue[] = [];
    const ofRowtime = (t: SqlValue) => (calls.push(t), typeof t === "number" ? t - 4_000 : null);
    const g = new MaxWatermarks<Row>(() => 0, undefined, ofRowtime, true);
    expect(emitted(g)).toEqual([]);
    g.onEvent(row(10_000), 10_000);
    g.onEvent(row(null), Number.MIN_SAFE_INTEGER); // no rowtime: no watermark
    g.onEvent(row(30_000), 30_000);
    g.onEvent(row(20_000), 20_000);
    expect(calls).toEqual([]);
    expect(emitted(g)).toEqual([26_000]);
    expect(calls).toEqual([30_000]);
    g.onEvent(row(25_000), 25_000); // later, but not larger: the watermark stays
    expect(emitted(g)).toEqual([26_000]);
    g.onEvent(row(31_000), 31_000);
    expect(emitted(g)).toEqual([27_000]);
  });

  it("computes the WATERMARK over each row of a record of several rows", () => {
    const g = new MaxWatermarks<Row[]>((f) => (f[0] as number) - 1, (rs) => rs, () => {
      throw new Error("not for records of several rows");
    });
    g.onEvent([row(10), row(30), row(20)], 20);
    expect(emitted(g)).toEqual([29]);
  });
});
