/**
 * `COUNT(*)` and `COUNT(x)`: the number of rows (the caller passes only the
 * rows that count: all for `COUNT(*)`, those with non-NULL arguments
 * otherwise). The result is a BIGINT (a bigint), or a number when the
 * planner typed it as a smaller integer.
 */
import type { LogicalType } from "../../types/logical-type.ts";
import type { AggFunction } from "./agg-function.ts";

/**
 * `COUNT` with result type `resultType`.
 *
 * @example
 * ```ts
 * const f = countAgg({ kind: "bigint", nullable: false });
 * const counts = new Map<string, ValueCount>();
 * f.getValue(f.add(f.create(), "x", counts), counts); // 1n
 * ```
 */
export function countAgg(resultType: LogicalType): AggFunction<number> {
  const big = resultType.kind === "bigint";
  return {
    usesCounts: false,
    create: () => 0,
    add: (n) => n + 1,
    retract: (n) => n - 1,
    merge: (n, _c, m) => n + m,
    getValue: (n) => (big ? BigInt(n) : n),
  };
}
