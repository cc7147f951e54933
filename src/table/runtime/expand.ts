/**
 * Expand, for `GROUPING SETS`, `ROLLUP` and `CUBE` (Flink's `Expand`): a
 * stateless flatMap that copies each row once per grouping set, with the
 * group keys outside the set set to NULL and a trailing `$e` BIGINT, the
 * expand id: one bit per group key, the first key the most significant, set
 * when the key is NULLed. The aggregation that follows groups by the keys and
 * `$e`, so a NULL of the data and a NULL of a rolled-up key stay apart. Row
 * kinds pass through.
 */
import type { OperatorNaming } from "./operator-naming.ts";
import type { Collector } from "../../core/collector.ts";
import type { DataStream } from "../../api/data-stream.ts";
import type { Row } from "../data/row.ts";
import { bigintOf, type BigintValue } from "../types/bigint-value.ts";

/** A planned expand. */
export interface ExpandSpec {
  /** Each grouping set: the input positions it groups by (a subset of `groupKeys`). */
  groupingSets: readonly (readonly number[])[];
  /** Every group key's input position, in `GROUP BY` order. */
  groupKeys: readonly number[];
}

/**
 * The expand id of `groupingSet` (Flink's `ExpandUtil.genExpandId`).
 *
 * @example
 * ```ts
 * expandId([0, 1], [0]); // 1: the second key is NULLed
 * expandId([0, 1], []);  // 3
 * ```
 */
export function expandId(groupKeys: readonly number[], groupingSet: readonly number[]): BigintValue {
  let id = 0n;
  for (const k of groupKeys) id = (id << 1n) | (groupingSet.includes(k) ? 0n : 1n);
  return bigintOf(id);
}

/**
 * Expands `input` by `spec`, one operator named by `naming`.
 *
 * @example
 * ```ts
 * // GROUP BY ROLLUP (supplier_id, rating): keys at 0 and 1
 * const expanded = expand(rows, { groupingSets: [[0, 1], [0], []], groupKeys: [0, 1] }, { uid: "expand", name: "Expand" });
 * ```
 */
export function expand(input: DataStream<Row>, spec: ExpandSpec, naming: OperatorNaming): DataStream<Row> {
  const copies = spec.groupingSets.map((set) => ({
    nulled: spec.groupKeys.filter((k) => !set.includes(k)),
    id: expandId(spec.groupKeys, set),
  }));
  return input
    .flatMap((row: Row, out: Collector<Row>) => {
      for (const c of copies) {
        const fields = [...row.fields, c.id];
        for (const k of c.nulled) fields[k] = null;
        out.collect({ kind: row.kind, fields });
      }
    })
    .uid(naming.uid)
    .name(naming.name);
}
