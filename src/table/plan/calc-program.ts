/**
 * A chain of stateless plan nodes (filters and projections, Flink's Calc)
 * generated as one JavaScript function over a row's fields (as Flink generates
 * code for its Calcs, see `expr-writer.ts`): one operator instead of
 * one per node, no `Row` between them, and only the values that a later
 * step or the output reads are computed (as Flink merges its Calcs and drops
 * the unused expressions). Each step reads the values of the step below; a
 * projection makes a new array, a filter passes its input on. A projection
 * that mostly passes its input's columns on (a table's computed columns, a
 * view) makes no array when the projection above it can read those columns
 * of its input instead (see `mergeProjections`).
 */
import type { SqlValue } from "../types/sql-value.ts";
import type { PlanExpr } from "./rel-node.ts";
import { ExprWriter, PARAMETER_SCOPE, type Scope } from "../expr/expr-writer.ts";
import type { RecordColumns } from "../connectors/dynamic-table-factory.ts";

/** One node of a chain: `WHERE condition`, or a `SELECT` list. */
export type CalcStep = { readonly kind: "filter"; readonly condition: PlanExpr } | { readonly kind: "project"; readonly exprs: readonly PlanExpr[] };

/** The output fields of a row, or undefined when a filter drops it. */
export type CalcProgram = (fields: SqlValue[]) => SqlValue[] | undefined;

function readsOf(e: PlanExpr, width: number): readonly number[] {
  return e.reads ?? Array.from({ length: width }, (_, i) => i);
}

/**
 * Compiles `steps` (the lowest first) over input rows of `inputWidth` fields.
 * The fields it returns are a new array whenever a projection is among the steps
 * (else the input's own array), never shared with the input.
 *
 * @example
 * ```ts
 * const calc = compileCalc([{ kind: "filter", condition: cond }, { kind: "project", exprs }], 4);
 * const out = calc(row.fields); // undefined when `cond` is not TRUE
 * ```
 */
export function compileCalc(chain: readonly CalcStep[], inputWidth: number): CalcProgram;
/**
 * Compiles `steps` over a source's records instead of rows (see `TableSourceRecords`): `records.columns`
 * reads each value the steps need from the record; the output fields are a new array.
 *
 * @example
 * ```ts
 * const calc = compileCalc(steps, 4, { columns: source.records.columns });
 * const out = calc(event); // undefined when a filter drops its row
 * ```
 */
export function compileCalc(chain: readonly CalcStep[], inputWidth: number, records: RecordScope): (record: unknown) => SqlValue[] | undefined;
export function compileCalc(chain: readonly CalcStep[], inputWidth: number, records?: RecordScope): CalcProgram {
  const steps = mergeProjections(chain);
  // the width of each step's input, bottom up
  const widths: number[] = [];
  let w = inputWidth;
  for (const s of steps) {
    widths.push(w);
    if (s.kind === "project") w = s.exprs.length;
  }
  // the output fields read of each step, top down: every field of the last one
  const live: Set<number>[] = new Array(steps.length);
  let needed = new Set(Array.from({ length: w }, (_, i) => i));
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i]!;
    live[i] = needed;
    const below = new Set<number>();
    if (s.kind === "filter") {
      for (const f of needed) below.add(f);
      for (const f of readsOf(s.condition, widths[i]!)) below.add(f);
    } else for (const f of needed) for (const r of readsOf(s.exprs[f]!, widths[i]!)) below.add(r);
    needed = below;
  }
  return generateCalc(steps, live, records === undefined ? PARAMETER_SCOPE : recordScope(records, inputWidth, "f"));
}

/**
 * A source's records as the input of generated code (see `TableSourceRecords`): how it reads their values, and
 * which of them the job reads (the others NULL, as the source's rows would have them: projection push-down).
 */
export interface RecordScope {
  readonly columns: RecordColumns;
  /** The columns the job reads (all without it). */
  readonly projection?: readonly number[];
  /** The fields read of ROW columns of which the job reads only some. */
  readonly nested?: ReadonlyMap<number, readonly number[]>;
}

/**
 * The scope of code over a record of a row of `width` columns, in variable `record`.
 *
 * @example
 * ```ts
 * const w = new ExprWriter();
 * const rowtimeOf = w.compile("r", [`return ${w.write(rowtime, recordScope({ columns }, 4, "r"))};`]);
 * ```
 */
export function recordScope(records: RecordScope, width: number, record: string): Scope {
  const { columns, projection, nested } = records;
  const read = projection === undefined ? undefined : new Set(projection);
  const field = (i: number) => (read?.has(i) === false ? "null" : columns.column(i, record, nested?.get(i)));
  return {
    field,
    array: () => `[${Array.from({ length: width }, (_, i) => field(i)).join(", ")}]`,
    rowField: (i, j) => (read?.has(i) === false ? "null" : columns.rowField(i, j, record)),
  };
}

/**
 * One function for the whole chain (see `expr-writer.ts`); a projection below the last one leaves its
 * live values in local variables (an array only when an evaluator called as it is reads them).
 */
function generateCalc(steps: readonly CalcStep[], live: readonly Set<number>[], input: Scope): CalcProgram {
  const w = new ExprWriter();
  const body: string[] = [];
  const arrays: { at: number; text: string }[] = []; // arrays made of local variables, inserted where their values are known
  let scope: Scope = input;
  steps.forEach((s, i) => {
    const last = i === steps.length - 1;
    if (s.kind === "filter") {
      body.push(`if (${w.write(s.condition.eval, scope)} !== true) return undefined;`);
      if (last) body.push(`return ${scope.array()};`);
      return;
    }
    if (last) {
      body.push(`return [${s.exprs.map((e) => w.write(e.eval, scope)).join(", ")}];`);
      return;
    }
    const computed = [...live[i]!].sort((a, b) => a - b);
    for (const j of computed) body.push(`const v${i}_${j} = ${w.write(s.exprs[j]!.eval, scope)};`);
    const at = body.length;
    const values = new Set(computed);
    const width = s.exprs.length;
    let made: string | undefined;
    scope = {
      field: (j) => (values.has(j) ? `v${i}_${j}` : "null"), // as the array of the projection has it
      array: () => {
        if (made === undefined) {
          made = `r${i}`;
          arrays.push({ at, text: `const ${made} = [${Array.from({ length: width }, (_, j) => (values.has(j) ? `v${i}_${j}` : "null")).join(", ")}];` });
        }
        return made;
      },
    };
  });
  for (const a of arrays.sort((x, y) => y.at - x.at)) body.splice(a.at, 0, a.text);
  return w.compile<CalcProgram>("f", body);
}

/**
 * Merges each projection into the projection above it (over filters between them) when the upper one can be
 * computed from the lower one's input: each of its expressions is a column of the lower one (then it becomes
 * that column's expression), or reads only columns that the lower one passes on at the same position; so do the
 * filters between. A column the lower one computes is then computed by at most one expression, once per row as
 * before, and only for the rows that the filters keep.
 */
function mergeProjections(chain: readonly CalcStep[]): CalcStep[] {
  const steps = [...chain];
  for (let i = 0; i < steps.length; i++) {
    const lower = steps[i]!;
    if (lower.kind !== "project") continue;
    let j = i + 1;
    while (j < steps.length && steps[j]!.kind === "filter") j++;
    const upper = steps[j];
    if (upper === undefined || upper.kind !== "project") continue;
    const passed = (f: number) => lower.exprs[f]?.inputRef === f;
    const filtersRead = steps.slice(i + 1, j).every((s) => s.kind === "filter" && s.condition.reads !== undefined && s.condition.reads.every(passed));
    if (!filtersRead) continue;
    const used = new Set<number>();
    let mergeable = true;
    const exprs = upper.exprs.map((e) => {
      if (e.inputRef !== undefined) {
        const below = lower.exprs[e.inputRef]!;
        if (!passed(e.inputRef)) {
          if (used.has(e.inputRef)) mergeable = false;
          used.add(e.inputRef);
        }
        return below;
      }
      if (e.reads === undefined || !e.reads.every(passed)) mergeable = false;
      return e;
    });
    if (!mergeable) continue;
    steps.splice(i, j - i + 1, ...steps.slice(i + 1, j), { kind: "project", exprs });
    i = -1; // again from the bottom
  }
  return steps;
}
