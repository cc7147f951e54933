/**
 * The reduce functions behind `sum`, `min`, `max`, `minBy` and `maxBy` on keyed
 * and windowed streams (Flink's built-in aggregations). A field is an object
 * property or a tuple index given as a string; without a field the records are
 * numbers.
 */

/** Kinds of extremum: `min`/`max` keep the first record with the extreme value in the field; `minBy`/`maxBy` keep the record that has it. */
export type ExtremumKind = "min" | "max" | "minBy" | "maxBy";

function valueOf(record: unknown, field: string | undefined): number {
  return (field === undefined ? record : (record as Record<string, unknown>)[field]) as number;
}

function withField<T>(record: T, field: string, value: unknown): T {
  const r = Array.isArray(record) ? ([...record] as unknown as Record<string, unknown>) : { ...(record as Record<string, unknown>) };
  r[field] = value;
  return r as T;
}

/** `sum(field?)`: adds the field (or the values); the other fields are the first record's. */
export function summing<T>(field?: string): (a: T, b: T) => T {
  if (field === undefined) return (a, b) => ((a as unknown as number) + (b as unknown as number)) as unknown as T;
  return (a, b) => withField(a, field, valueOf(a, field) + valueOf(b, field));
}

/**
 * `min/max(field?)`: the extreme value of the field, the other fields from the first record;
 * `minBy/maxBy(field?)`: the record with the extreme value (the first one on ties).
 */
export function extremum<T>(kind: ExtremumKind, field?: string): (a: T, b: T) => T {
  const better = kind === "min" || kind === "minBy" ? (x: number, y: number) => y < x : (x: number, y: number) => y > x;
  if (kind === "minBy" || kind === "maxBy" || field === undefined)
    return (a, b) => (better(valueOf(a, field), valueOf(b, field)) ? b : a);
  return (a, b) => (better(valueOf(a, field), valueOf(b, field)) ? withField(a, field, valueOf(b, field)) : a);
}
