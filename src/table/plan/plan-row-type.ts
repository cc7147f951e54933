/**
 * Building and reading {@link PlanRowType}s: the fields a node outputs, how
 * a (possibly qualified) column name resolves to a position, and the row
 * type of two inputs side by side (joins).
 */
import type { Identifier } from "../sql/ast.ts";
import type { LogicalType } from "../types/logical-type.ts";
import { nearestName } from "../validation/nearest-name.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import type { PlanRowType, TimeAttribute } from "./rel-node.ts";

/** One field of a plan row type. */
export interface PlanField {
  name: string;
  type: LogicalType;
  qualifier?: string | undefined;
  time?: TimeAttribute | undefined;
}

/** A row type from its fields. */
export function planRowType(fields: readonly PlanField[]): PlanRowType {
  return {
    names: fields.map((f) => f.name),
    types: fields.map((f) => f.type),
    qualifiers: fields.map((f) => f.qualifier),
    timeAttributes: fields.map((f) => f.time),
  };
}

/** The fields of a row type. */
export function fieldsOf(t: PlanRowType): PlanField[] {
  return t.names.map((name, i) => ({ name, type: t.types[i]!, qualifier: t.qualifiers[i], time: t.timeAttributes[i] }));
}

/** `t` with every field qualified by `qualifier` (a FROM item's alias). */
export function requalify(t: PlanRowType, qualifier: string | undefined): PlanRowType {
  return { ...t, qualifiers: t.names.map(() => qualifier) };
}

/** `t` with its fields renamed to `names` (a FROM item's column aliases). */
export function renameFields(t: PlanRowType, names: readonly string[]): PlanRowType {
  return { ...t, names: t.names.map((n, i) => names[i] ?? n) };
}

/** The fields of `left` then those of `right`. */
export function concatRowTypes(left: PlanRowType, right: PlanRowType): PlanRowType {
  return planRowType([...fieldsOf(left), ...fieldsOf(right)]);
}

/** The user-visible fields (the planner's synthetic `$…` fields excluded). */
export function isVisible(name: string): boolean {
  return !name.startsWith("$");
}

/**
 * The position of the column `names` (`a` or `t.a`) in `t`, or -1 when it
 * has none.
 *
 * @throws {SqlValidationError} when an unqualified name matches fields of two qualifiers.
 */
export function findColumn(names: readonly Identifier[], t: PlanRowType): number {
  const name = names[names.length - 1]!;
  const qualifier = names.length > 1 ? names[names.length - 2]!.value : undefined;
  let found = -1;
  for (let i = 0; i < t.names.length; i++) {
    if (t.names[i] !== name.value) continue;
    if (qualifier !== undefined && t.qualifiers[i] !== qualifier) continue;
    if (found >= 0) {
      if (qualifier === undefined && t.qualifiers[found] !== t.qualifiers[i]) {
        throw new SqlValidationError(`Column '${name.value}' is ambiguous`, name.loc);
      }
      continue; // the same name twice under one qualifier: the first wins, as Calcite's star expansion
    }
    found = i;
  }
  return found;
}

/**
 * The position of the column `names` in `t`.
 *
 * @throws {SqlValidationError} naming the column and the nearest name when there is none.
 */
export function resolveColumn(names: readonly Identifier[], t: PlanRowType): number {
  const i = findColumn(names, t);
  if (i >= 0) return i;
  const name = names[names.length - 1]!;
  const text = names.map((n) => n.value).join(".");
  const near = nearestName(name.value, t.names.filter(isVisible));
  throw new SqlValidationError(`Column '${text}' not found in any table${near === undefined ? "" : `; did you mean '${near}'?`}`, name.loc);
}

/**
 * The column a name of several parts starts with, and the ROW fields it
 * then reads: `t.a.f.g` is the field `f.g` of column `a` of the FROM item
 * `t` when `t` names one, else `a.f.g` reads `f.g` of the column `a`
 * (Calcite's rule: a table alias wins over a column of the same name).
 *
 * @throws {SqlValidationError} naming the column and the nearest name when there is none.
 */
export function resolveColumnPath(names: readonly Identifier[], t: PlanRowType): { index: number; path: readonly Identifier[] } {
  if (names.length > 2 || (names.length === 2 && !t.qualifiers.includes(names[0]!.value))) {
    const qualified = t.qualifiers.includes(names[0]!.value) ? 2 : 1;
    const index = findColumn(names.slice(0, qualified), t);
    if (index >= 0) return { index, path: names.slice(qualified) };
  }
  return { index: resolveColumn(names, t), path: [] };
}
