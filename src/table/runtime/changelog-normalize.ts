/**
 * An upsert stream made a full changelog, as Flink's `ChangelogNormalize`
 * after an upsert source: per key, the last row is kept in state; a new row
 * (`+I` or `+U`) is `+I` for a key without one and `-U[previous]` `+U[row]`
 * otherwise (nothing when it equals the previous row); a `-D` (which may
 * carry only the key, as a Kafka tombstone does) is `-D[previous]`, or
 * nothing for a key without a row.
 */
import type { DataStream } from "../../api/data-stream.ts";
import type { Collector } from "../../core/collector.ts";
import { KeyedProcessFunction, type KeyedProcessContext } from "../../core/process-function.ts";
import { ValueStateDescriptor, type ValueState } from "../../state/index.ts";
import type { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import { sqlValueKey } from "../types/sql-value-key.ts";
import type { SqlValue } from "../types/sql-value.ts";
import type { OperatorNaming } from "./operator-naming.ts";
import { rowKeySelector } from "./row-key.ts";

/**
 * Normalizes the upsert stream `input` keyed by the positions `keys`.
 *
 * @example
 * ```ts
 * const changelog = changelogNormalize(upserts, [0], { uid: "normalize-users", name: "ChangelogNormalize(key=[id])" });
 * ```
 */
export function changelogNormalize(input: DataStream<Row>, keys: readonly number[], naming: OperatorNaming): DataStream<Row> {
  return input.keyBy(rowKeySelector(keys)).process(new ChangelogNormalizeFunction()).uid(naming.uid).name(naming.name);
}

class ChangelogNormalizeFunction extends KeyedProcessFunction<string, Row, Row> {
  private last!: ValueState<SqlValue[]>;

  override open(): void {
    this.last = this.getRuntimeContext().getState(new ValueStateDescriptor<SqlValue[]>("changelog-normalize-last-row"));
  }

  processElement(row: Row, _ctx: KeyedProcessContext<string>, out: Collector<Row>): void {
    const previous = this.last.value();
    if (row.kind === RowKind.DELETE || row.kind === RowKind.UPDATE_BEFORE) {
      if (previous === undefined) return;
      this.last.clear();
      out.collect({ kind: RowKind.DELETE, fields: previous });
      return;
    }
    if (previous === undefined) {
      this.last.update(row.fields);
      out.collect({ kind: RowKind.INSERT, fields: [...row.fields] });
      return;
    }
    if (sqlValueKey(previous) === sqlValueKey(row.fields)) return;
    this.last.update(row.fields);
    out.collect({ kind: RowKind.UPDATE_BEFORE, fields: previous });
    out.collect({ kind: RowKind.UPDATE_AFTER, fields: [...row.fields] });
  }
}
