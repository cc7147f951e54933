import { describe, expect, it } from "vitest";
import { aggCall, BIGINT, decimalType, DOUBLE, INT, STRING } from "../../../../test/support/agg-calls.ts";
import type { LogicalType } from "../../types/logical-type.ts";
import { parseDecimal } from "../../types/decimal.ts";
import type { SqlValue } from "../../types/sql-value.ts";
import type { AggregateCall } from "../aggregate-call.ts";
import { Aggregates } from "./accumulator-set.ts";
import { callAggregator } from "./call-aggregator.ts";
import type { ValueCount } from "./value-counts.ts";

const dec = (s: string) => parseDecimal(s)!;
const TINYINT: LogicalType = { kind: "tinyint", nullable: true };

/** Folds `ops` (values to add, or ["-", value] to retract) through the call over one-field rows; the result. */
function fold(call: AggregateCall, ops: readonly (SqlValue | ["-", SqlValue])[], retractable = true): SqlValue {
  const agg = callAggregator(call, { retractable });
  const counts = new Map<string, ValueCount>();
  let acc = agg.create();
  for (const op of ops) {
    if (Array.isArray(op) && op[0] === "-") acc = agg.retract(acc, [op[1]!], counts);
    else acc = agg.accumulate(acc, [op as SqlValue], counts);
  }
  return agg.getValue(acc, counts);
}

describe("SUM / SUM0", () => {
  it("wraps INT, TINYINT and BIGINT around as Java does", () => {
    expect(fold(aggCall("SUM", [[0, INT]]), [2147483647, 1])).toBe(-2147483648);
    expect(fold(aggCall("SUM", [[0, TINYINT]]), [127, 2])).toBe(-127);
    expect(fold(aggCall("SUM", [[0, BIGINT]]), [2n ** 63n - 1n, 2n])).toBe(-(2n ** 63n) + 1n);
    // wrapped and retracted back: exact
    expect(fold(aggCall("SUM", [[0, INT]]), [2147483647, 5, ["-", 2147483647]])).toBe(5);
  });

  it("keeps DECIMAL exact at the argument's scale; NULL beyond 38 digits", () => {
    expect(fold(aggCall("SUM", [[0, decimalType(10, 2)]]), [dec("0.10"), dec("0.20")])).toEqual(dec("0.30"));
    const big = dec("99999999999999999999999999999999999.999"); // 38 digits
    expect(fold(aggCall("SUM", [[0, decimalType(38, 3)]]), [big, dec("0.001")])).toBeNull();
  });

  it("is NULL without non-NULL values (also after retracting them all); SUM0 is a typed zero", () => {
    expect(fold(aggCall("SUM", [[0, INT]]), [null, 3, ["-", 3]])).toBeNull();
    expect(fold(aggCall("SUM0", [[0, INT]]), [null])).toBe(0);
    expect(fold(aggCall("SUM0", [[0, BIGINT]]), [])).toBe(0);
    expect(fold(aggCall("SUM0", [[0, decimalType(5, 2)]]), [])).toEqual(dec("0.00"));
    expect(fold(aggCall("SUM", [[0, DOUBLE]]), [0.5, 0.25])).toBe(0.75);
  });
});

describe("AVG", () => {
  it("of an integer type truncates toward zero; of DECIMAL rounds HALF_UP to max(6, s) digits; of DOUBLE divides", () => {
    expect(fold(aggCall("AVG", [[0, INT]]), [-3, -4])).toBe(-3);
    expect(fold(aggCall("AVG", [[0, BIGINT]]), [2n ** 62n, 2n ** 62n, 1n])).toBe((2n ** 63n + 1n) / 3n);
    expect(fold(aggCall("AVG", [[0, decimalType(5, 2)]]), [dec("1.00"), dec("1.00"), dec("0.01")])).toEqual(dec("0.670000"));
    expect(fold(aggCall("AVG", [[0, DOUBLE]]), [1, 2, null])).toBe(1.5);
    expect(fold(aggCall("AVG", [[0, INT]]), [null])).toBeNull();
  });
});

describe("MIN / MAX", () => {
  it("retract through the multiset, falling back to the next value when the extreme's last copy goes", () => {
    expect(fold(aggCall("MIN", [[0, INT]]), [5, 1, 1, 3, ["-", 1], ["-", 1]])).toBe(3);
    expect(fold(aggCall("MAX", [[0, STRING]]), ["b", "a", ["-", "b"]])).toBe("a");
    expect(fold(aggCall("MAX", [[0, INT]]), [4, ["-", 4]])).toBeNull();
    // 1.5 and 1.50 are one value of the multiset
    expect(fold(aggCall("MAX", [[0, decimalType(5, 2)]]), [dec("1.50"), dec("1.5"), dec("0.5"), ["-", dec("1.50")]])).toEqual(dec("1.50"));
  });

  it("compare strings by code point, as Flink", () => {
    expect(fold(aggCall("MAX", [[0, STRING]]), ["\uffff", "😀"])).toBe("😀");
  });

  it("insert-only keeps the extreme alone and merges", () => {
    const aggs = new Aggregates([aggCall("MIN", [[0, INT]]), aggCall("MAX", [[0, INT]])], { retractable: false });
    const a = aggs.create();
    const b = aggs.create();
    aggs.accumulate(a, [4]);
    aggs.accumulate(b, [9]);
    aggs.accumulate(b, [2]);
    expect(a.counts).toEqual([null, null]);
    aggs.merge(a, b);
    expect(aggs.values(a)).toEqual([2, 9]);
  });
});

describe("DISTINCT, FILTER, NULLs", () => {
  it("COUNT(DISTINCT x) counts each value once and forgets it with its last copy", () => {
    const call = aggCall("COUNT", [[0, STRING]], { distinct: true });
    expect(fold(call, ["a", "a", "b", null])).toBe(2);
    expect(fold(call, ["a", "a", "b", ["-", "a"]])).toBe(2);
    expect(fold(call, ["a", "a", "b", ["-", "a"], ["-", "a"]])).toBe(1);
    expect(fold(aggCall("SUM", [[0, INT]], { distinct: true }), [2, 2, 3])).toBe(5);
  });

  it("merges distinct value counts without counting a value twice", () => {
    const aggs = new Aggregates([aggCall("COUNT", [[0, STRING]], { distinct: true }), aggCall("LISTAGG", [[0, STRING]], { distinct: true })], { retractable: false });
    const a = aggs.create();
    const b = aggs.create();
    for (const v of ["x", "y"]) aggs.accumulate(a, [v]);
    for (const v of ["y", "z", "z"]) aggs.accumulate(b, [v]);
    aggs.merge(a, b);
    expect(aggs.values(a)).toEqual([3, "x,y,z"]);
  });

  it("COUNT(*) counts NULL rows, COUNT(x) does not; FILTER counts only rows whose condition is TRUE", () => {
    const rows: SqlValue[][] = [[1, true], [null, true], [2, false], [3, null]];
    const calls = [aggCall("COUNT", []), aggCall("COUNT", [[0, INT]]), aggCall("SUM", [[0, INT]], { filterArg: 1 }), aggCall("COUNT", [], { filterArg: 1 })];
    const results = (retracted: SqlValue[][]) =>
      calls.map((c) => {
        const agg = callAggregator(c, { retractable: true });
        const counts = new Map<string, ValueCount>();
        let acc = agg.create();
        for (const r of rows) acc = agg.accumulate(acc, r, counts);
        for (const r of retracted) acc = agg.retract(acc, r, counts);
        return agg.getValue(acc, counts);
      });
    expect(results([])).toEqual([4, 3, 1, 2]);
    expect(results([[1, true]])).toEqual([3, 2, null, 1]);
  });
});

describe("LISTAGG, FIRST_VALUE, LAST_VALUE", () => {
  it("LISTAGG joins in order with ',' by default, skips NULLs, retracts the first occurrence", () => {
    expect(fold(aggCall("LISTAGG", [[0, STRING]]), ["a", null, "b", "a"])).toBe("a,b,a");
    expect(fold(aggCall("LISTAGG", [[0, STRING]], { separator: "-" }), ["a", "b", "a", ["-", "a"]])).toBe("b-a");
    expect(fold(aggCall("LISTAGG", [[0, STRING]]), [["-", "a"]])).toBeNull();
  });

  it("FIRST_VALUE and LAST_VALUE skip NULLs and survive retraction", () => {
    expect(fold(aggCall("FIRST_VALUE", [[0, INT]]), [null, 1, 2, 3, ["-", 1]])).toBe(2);
    expect(fold(aggCall("LAST_VALUE", [[0, INT]]), [1, 2, 3, null, ["-", 3]])).toBe(2);
    expect(fold(aggCall("FIRST_VALUE", [[0, INT]]), [null, 7, 8], false)).toBe(7);
    expect(fold(aggCall("LAST_VALUE", [[0, INT]]), [7, 8, null], false)).toBe(8);
  });
});
