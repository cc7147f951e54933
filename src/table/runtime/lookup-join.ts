/**
 * The lookup join (`JOIN t FOR SYSTEM_TIME AS OF l.proc_time ON …`, Flink's
 * `LookupJoinOperator` with a full cache): each row of the left input joins
 * the rows of the table `t` whose lookup key equals the row's key, as the
 * table is when the job reads it. Each parallel instance reads the whole
 * table when it opens (also after a restart) and keeps it in memory by key;
 * the table is not re-read while the job runs.
 *
 * The left row's kind passes through: an insert joins as inserts, a
 * retraction retracts what its insert joined (the table does not change
 * between the two), so the output has the left input's changelog mode. A
 * NULL key matches nothing; a LEFT join pads the rows without a match with
 * NULLs. Rows are not keyed or buffered: the operator keeps no state.
 */
import type { DataStream, SingleOutputStreamOperator } from "../../api/data-stream.ts";
import type { Collector } from "../../core/collector.ts";
import { ProcessFunction, type ProcessContext } from "../../core/process-function.ts";
import type { Row } from "../data/row.ts";
import type { Evaluator } from "../expr/bound-expr.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { sqlValueKey } from "../types/sql-value-key.ts";
import { joinedFields } from "./join-spec.ts";
import type { OperatorNaming } from "./operator-naming.ts";

/** A planned lookup join. */
export interface LookupJoinSpec {
  joinType: "INNER" | "LEFT";
  /** The lookup key of a left row: one value per lookup column, already of the column's type. */
  keys: readonly Evaluator[];
  /** Positions of the lookup columns in the table's rows. */
  lookupKeys: readonly number[];
  rightArity: number;
  /** The rest of the join condition, over a left row's fields followed by a table row's. */
  condition?: Evaluator;
  /** Reads the table's rows (inserts only). */
  load(): Promise<readonly Row[]>;
}

/** The key text of `values`, or undefined when one is NULL (it then matches nothing). */
function keyOf(values: readonly SqlValue[]): string | undefined {
  let key = "";
  for (const v of values) {
    if (v === null) return undefined;
    key += sqlValueKey(v) + "\u0001";
  }
  return key;
}

class LookupJoinFunction extends ProcessFunction<Row, Row> {
  private byKey = new Map<string, SqlValue[][]>();

  constructor(private readonly spec: LookupJoinSpec) {
    super();
  }

  async open(): Promise<void> {
    const byKey = new Map<string, SqlValue[][]>();
    for (const row of await this.spec.load()) {
      const key = keyOf(this.spec.lookupKeys.map((p) => row.fields[p] ?? null));
      if (key === undefined) continue;
      let rows = byKey.get(key);
      if (rows === undefined) byKey.set(key, (rows = []));
      rows.push(row.fields);
    }
    this.byKey = byKey;
  }

  processElement(row: Row, _ctx: ProcessContext, out: Collector<Row>): void {
    const { keys, condition, rightArity, joinType } = this.spec;
    const left = row.fields;
    const key = keyOf(keys.map((k) => k(left)));
    let matched = false;
    for (const right of (key === undefined ? undefined : this.byKey.get(key)) ?? []) {
      const fields = joinedFields(left, left.length, right, rightArity);
      if (condition !== undefined && condition(fields) !== true) continue;
      matched = true;
      out.collect({ kind: row.kind, fields });
    }
    if (!matched && joinType === "LEFT") out.collect({ kind: row.kind, fields: joinedFields(left, left.length, null, rightArity) });
  }
}

/**
 * Joins each row of `input` with the rows of a table looked up by key.
 *
 * @example
 * ```ts
 * // SELECT * FROM bids b JOIN rates FOR SYSTEM_TIME AS OF b.proc_time AS r ON b.currency = r.currency
 * lookupJoin(bids, { joinType: "INNER", keys: [(f) => f[2]!], lookupKeys: [0], rightArity: 2, load: () => readRates() }, naming);
 * ```
 */
export function lookupJoin(input: DataStream<Row>, spec: LookupJoinSpec, naming: OperatorNaming): SingleOutputStreamOperator<Row> {
  return input.process(new LookupJoinFunction(spec)).uid(naming.uid).name(naming.name);
}
