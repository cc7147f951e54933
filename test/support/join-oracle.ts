/**
 * The oracle of the SQL join tests: the batch join of two tables computed by
 * a plain nested loop (SQL `=` on the keys, the residual condition true), and
 * the inputs to feed it: random changelogs of each side, and one ordered
 * stream of left and right rows split into the two inputs of a join, for
 * golden changelogs whose order must not depend on scheduling.
 */
import { WatermarkStrategy, type DataStream, type StreamExecutionEnvironment } from "../../src/index.ts";
import { MultisetTable, sortRows } from "../../src/table/data/changelog.ts";
import type { Row } from "../../src/table/data/row.ts";
import type { RowKind } from "../../src/table/data/row-kind.ts";
import type { JoinSpec } from "../../src/table/runtime/join-spec.ts";
import type { SqlValue } from "../../src/table/types/sql-value.ts";
import { sqlValueKey } from "../../src/table/types/sql-value-key.ts";
import { throttledSequence } from "../fixtures/throttled-sequence-source.ts";
import { FailOnce } from "./fail-once.ts";

/** Whether `l` and `r` match: every key equal and non-NULL (or both NULL for a null-safe key), the condition true. */
export function pairMatches(spec: JoinSpec, l: readonly SqlValue[], r: readonly SqlValue[]): boolean {
  for (let i = 0; i < spec.leftKeys.length; i++) {
    const a = l[spec.leftKeys[i]!]!;
    const b = r[spec.rightKeys[i]!]!;
    if (spec.nullSafeKeys?.[i] === true && a === null && b === null) continue;
    if (a === null || b === null || sqlValueKey(a) !== sqlValueKey(b)) return false;
  }
  return spec.condition === undefined || spec.condition([...l, ...r]) === true;
}

/** The batch join of the multisets `lefts` and `rights` (each row once per copy), sorted; `matches` overrides the pair test. */
export function nestedLoopJoin(
  spec: JoinSpec,
  lefts: readonly SqlValue[][],
  rights: readonly SqlValue[][],
  matches: (l: readonly SqlValue[], r: readonly SqlValue[]) => boolean = (l, r) => pairMatches(spec, l, r),
): Row[] {
  const out: Row[] = [];
  const nullsL: SqlValue[] = new Array<SqlValue>(spec.leftArity).fill(null);
  const nullsR: SqlValue[] = new Array<SqlValue>(spec.rightArity).fill(null);
  const rightMatched = rights.map(() => false);
  for (const l of lefts) {
    let any = false;
    rights.forEach((r, j) => {
      if (!matches(l, r)) return;
      any = true;
      rightMatched[j] = true;
      if (spec.joinType !== "SEMI" && spec.joinType !== "ANTI") out.push({ kind: "+I", fields: [...l, ...r] });
    });
    if (spec.joinType === "SEMI" && any) out.push({ kind: "+I", fields: [...l] });
    if (spec.joinType === "ANTI" && !any) out.push({ kind: "+I", fields: [...l] });
    if (!any && (spec.joinType === "LEFT" || spec.joinType === "FULL")) out.push({ kind: "+I", fields: [...l, ...nullsR] });
  }
  if (spec.joinType === "RIGHT" || spec.joinType === "FULL")
    rights.forEach((r, j) => {
      if (!rightMatched[j]) out.push({ kind: "+I", fields: [...nullsL, ...r] });
    });
  return sortRows(out);
}

/** The changelog folded (throws on a retraction of a row it does not hold), sorted. */
export function folded(changelog: readonly Row[]): Row[] {
  return new MultisetTable().applyAll(changelog).sortedRows();
}

/** The rows a changelog leaves, each once per copy. */
export function finalRows(changelog: readonly Row[]): SqlValue[][] {
  return folded(changelog).map((r) => r.fields);
}

/**
 * A valid random changelog of `n` entries: new rows (`+I`, or `+U` after a
 * `-U`) from `newRow`, retractions (`-D`, or `-U` then `+U`) of rows it holds.
 */
export function randomChangelog(random: () => number, n: number, newRow: () => SqlValue[]): Row[] {
  const held: SqlValue[][] = [];
  const out: Row[] = [];
  while (out.length < n) {
    const p = random();
    if (held.length > 0 && p < 0.3) {
      const i = Math.floor(random() * held.length);
      const [row] = held.splice(i, 1);
      if (p < 0.15) out.push({ kind: "-D", fields: row! });
      else {
        const next = newRow();
        held.push(next);
        out.push({ kind: "-U", fields: row! }, { kind: "+U", fields: next });
      }
    } else {
      const row = newRow();
      held.push(row);
      out.push({ kind: "+I", fields: row });
    }
  }
  return out;
}

/** A row of the left or the right input of a join, or (`W`) a watermark of both, in the order of one input sequence. */
export type SideRow =
  | { readonly side: "L" | "R"; readonly kind?: RowKind; readonly fields: SqlValue[] }
  | { readonly side: "W"; readonly watermark: number };

/**
 * The two inputs of a join from one sequence, one row every `pauseMs`: the
 * join sees the rows in sequence order (a row reaches it before the next is
 * read), so a golden changelog does not depend on scheduling. A `W` entry
 * emits its watermark on both inputs (there are no other watermarks but the
 * final one). With `limit`, rows are read only up to `limit()` (a test moves it
 * on); `onRead` is called for each row read. The operators have uids, so a
 * savepoint of such a job restores into another.
 */
export function sequencedInputs(
  env: StreamExecutionEnvironment,
  rows: readonly SideRow[],
  pauseMs = 15,
  read: { readonly limit?: () => number; readonly onRead?: () => void } = {},
): { left: DataStream<Row>; right: DataStream<Row> } {
  const { limit, onRead } = read;
  const events = env
    .fromSource(throttledSequence(0, rows.length - 1, 1, pauseMs, 0, limit), WatermarkStrategy.noWatermarks(), "sequence")
    .uid("sequence")
    .setParallelism(1)
    .map((i: number) => {
      onRead?.();
      return rows[i]!;
    })
    .uid("rows")
    .setParallelism(1)
    .assignTimestampsAndWatermarks(
      WatermarkStrategy.forGenerator<SideRow>(() => ({
        onEvent: (r, _ts, out) => {
          if (r.side === "W") out.emitWatermark(r.watermark);
        },
        onPeriodicEmit: () => {},
      })).withTimestampAssigner(() => 0),
    )
    .uid("watermarks")
    .setParallelism(1);
  const side = (s: "L" | "R") =>
    events
      .filter((r) => r.side === s)
      .uid(`${s}-only`)
      .setParallelism(1)
      .map((r): Row => (r.side === "W" ? { kind: "+I", fields: [] } : { kind: r.kind ?? "+I", fields: r.fields }))
      .uid(`${s}-rows`)
      .setParallelism(1);
  return { left: side("L"), right: side("R") };
}

/**
 * One input of a join read slowly (10 rows every 2 ms, so checkpoints and
 * watermarks happen amid it), with event time from the row field `timeField`
 * and watermarks `bound` ms behind; with `failAt` >= 0 it fails once there (see FailOnce).
 */
export function throttledSide(env: StreamExecutionEnvironment, name: string, rows: readonly Row[], timeField: number, bound: number, failAt = -1): DataStream<Row> {
  const failOnce = new FailOnce(rows, failAt);
  const numbers = env.fromSource(throttledSequence(0, rows.length - 1, 10, 2, 0, failOnce.sourceLimit), WatermarkStrategy.noWatermarks(), name).uid(name).setParallelism(1);
  return (failAt >= 0 ? numbers.map(failOnce) : numbers.map((i: number) => rows[i]!))
    .uid(`${name}-rows`)
    .setParallelism(1)
    .assignTimestampsAndWatermarks(WatermarkStrategy.forBoundedOutOfOrderness<Row>(bound).withTimestampAssigner((r) => r.fields[timeField] as number))
    .uid(`${name}-ts`)
    .setParallelism(1);
}
