/**
 * What every join operator of the SQL layer shares (regular, interval, window
 * and temporal joins): the join type, the equi-join keys, the residual
 * condition and the helpers that build output rows.
 *
 * - Keys are input positions: `leftKeys[i] = rightKeys[i]` with SQL `=`, so a
 *   NULL key never matches (such a row only ever appears NULL-padded in an
 *   outer join), unless `nullSafeKeys[i]` makes that key `IS NOT DISTINCT
 *   FROM` (NULL matches NULL: `INTERSECT`/`EXCEPT` as SEMI/ANTI joins).
 * - `condition` is the residual non-equi condition, evaluated over the
 *   concatenated `[...leftFields, ...rightFields]`; a pair matches only when it
 *   returns `true` (NULL and `false` do not match: three-valued logic).
 * - Output rows are `[...left, ...right]`, NULLs padding the missing side of
 *   an outer join; `SEMI`/`ANTI` output the left fields only.
 */
import type { Row } from "../data/row.ts";
import type { RowKind } from "../data/row-kind.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { copyPlainData } from "../../state/plain-copy.ts";

/** The kinds of join; `SEMI` is `IN`/`EXISTS`, `ANTI` is `NOT IN`/`NOT EXISTS`. */
export type JoinType = "INNER" | "LEFT" | "RIGHT" | "FULL" | "SEMI" | "ANTI";


/** The part of a join's spec that every join operator shares. */
export interface JoinSpec {
  readonly joinType: JoinType;
  /** Positions in the left row; `leftKeys[i]` joins `rightKeys[i]`. */
  readonly leftKeys: readonly number[];
  /** Positions in the right row. */
  readonly rightKeys: readonly number[];
  /** `nullSafeKeys[i]`: key `i` is compared with `IS NOT DISTINCT FROM` (NULL matches NULL); all false when undefined. */
  readonly nullSafeKeys?: readonly boolean[];
  /** The residual non-equi condition over `[...leftFields, ...rightFields]`; matches only when `true`. */
  readonly condition?: (fields: SqlValue[]) => SqlValue;
  readonly leftArity: number;
  readonly rightArity: number;
}

/** An invalid join spec (keys of different lengths, a join type the operator does not support, …). */
export class JoinSpecError extends Error {
  override name = "JoinSpecError";
}

/** A join input carried a retraction where the join needs insert-only inputs (interval and window joins, the temporal join's left side). */
export class InsertOnlyInputError extends Error {
  override name = "InsertOnlyInputError";
  constructor(operator: string, row: Row) {
    super(`${operator} needs insert-only inputs, got a ${row.kind} row`);
  }
}

/** Checks what every join needs: as many left keys as right keys, positions within the arities, a supported type. */
export function checkJoinSpec(spec: JoinSpec, operator: string, supported: readonly JoinType[]): void {
  if (!supported.includes(spec.joinType))
    throw new JoinSpecError(`${operator} does not support ${spec.joinType} joins (supported: ${supported.join(", ")})`);
  if (spec.leftKeys.length !== spec.rightKeys.length)
    throw new JoinSpecError(`${operator}: ${spec.leftKeys.length} left keys but ${spec.rightKeys.length} right keys`);
  if (spec.nullSafeKeys !== undefined && spec.nullSafeKeys.length !== spec.leftKeys.length)
    throw new JoinSpecError(`${operator}: ${spec.nullSafeKeys.length} null-safe flags for ${spec.leftKeys.length} keys`);
  checkPositions(operator, "left key", spec.leftKeys, spec.leftArity);
  checkPositions(operator, "right key", spec.rightKeys, spec.rightArity);
}

/** Checks that each position is within `arity`. */
export function checkPositions(operator: string, what: string, positions: readonly number[], arity: number): void {
  for (const p of positions)
    if (!Number.isInteger(p) || p < 0 || p >= arity) throw new JoinSpecError(`${operator}: ${what} position ${p} is not within the arity ${arity}`);
}

/** True when the row has a NULL in one of its key fields compared with SQL `=` (not null-safe): it never matches. */
export function hasNullKey(fields: readonly SqlValue[], keys: readonly number[], nullSafe?: readonly boolean[]): boolean {
  for (let i = 0; i < keys.length; i++) if (fields[keys[i]!] === null && nullSafe?.[i] !== true) return true;
  return false;
}

/** The joined fields `[...left, ...right]` (NULLs for a missing side); values that are objects are copied, so output rows share nothing. */
export function joinedFields(left: readonly SqlValue[] | null, leftArity: number, right: readonly SqlValue[] | null, rightArity: number): SqlValue[] {
  const out = new Array<SqlValue>(leftArity + rightArity);
  for (let i = 0; i < leftArity; i++) out[i] = left === null ? null : own(left[i]!);
  for (let i = 0; i < rightArity; i++) out[leftArity + i] = right === null ? null : own(right[i]!);
  return out;
}

/** A copy of `fields` whose object values (arrays, maps, decimals, bytes) are copies. */
export function ownFields(fields: readonly SqlValue[]): SqlValue[] {
  return fields.map(own);
}

/**
 * `v`, or a copy of it when it is an object (an array, map, decimal or bytes), for a value held elsewhere.
 *
 * @example
 * ```ts
 * own(3); // 3
 * const a = [1]; own(a) !== a; // true
 * ```
 */
export function own(v: SqlValue): SqlValue {
  return typeof v === "object" && v !== null ? copyPlainData(v) : v;
}

/** A new row of `kind` with `fields`. */
export function rowOf(kind: RowKind, fields: SqlValue[]): Row {
  return { kind, fields };
}

/**
 * Whether `left` and `right` (with equal keys) match: the residual condition
 * is `true` (or there is none). Builds the concatenated fields only when there is a condition,
 * in `scratch` when given (an array the caller reuses: the condition keeps nothing of it).
 */
export function conditionHolds(spec: JoinSpec, left: readonly SqlValue[], right: readonly SqlValue[], scratch?: SqlValue[]): boolean {
  if (spec.condition === undefined) return true;
  const fields = scratch ?? new Array<SqlValue>(spec.leftArity + spec.rightArity);
  for (let i = 0; i < spec.leftArity; i++) fields[i] = left[i]!;
  for (let i = 0; i < spec.rightArity; i++) fields[spec.leftArity + i] = right[i]!;
  return spec.condition(fields) === true;
}

/** True for joins that emit the left rows without a match NULL-padded (LEFT, FULL). */
export function padsLeft(type: JoinType): boolean {
  return type === "LEFT" || type === "FULL";
}

/** True for joins that emit the right rows without a match NULL-padded (RIGHT, FULL). */
export function padsRight(type: JoinType): boolean {
  return type === "RIGHT" || type === "FULL";
}
