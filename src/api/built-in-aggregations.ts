/**
 * The built-in aggregations `sum`, `min`, `max`, `minBy` and `maxBy` of keyed
 * and windowed streams (Flink's built-in aggregations): the numeric fields they
 * accept at compile time, and the reduce function that checks every record at
 * run time. A field is an object property or a tuple position; without a field
 * the records themselves are numbers (or bigints).
 */
import { inspect } from "node:util";
import type { FunctionLifecycle } from "../core/function-object.ts";
import type { RuntimeContext } from "../core/runtime-context.ts";

/** The built-in aggregations. `min`/`max` keep the first record with the extreme value in the field; `minBy`/`maxBy` keep the record that has it. */
export type AggregationKind = "sum" | "min" | "max" | "minBy" | "maxBy";

/** The keys of an object type whose values are numbers or bigints (optional ones excluded: a record may lack them). */
type NumericKey<T> = Exclude<{ [K in keyof T]: T[K] extends number | bigint ? K : never }[keyof T], undefined> & string;

/** A tuple's numeric positions, as numbers and as strings (`1 | "1"`). */
type NumericPosition<T extends readonly unknown[]> = {
  [I in keyof T]: T[I] extends number | bigint ? I | (I extends `${infer N extends number}` ? N : never) : never;
}[number];

/**
 * The fields of `T` that `sum`, `min`, `max`, `minBy` and `maxBy` accept: the
 * keys whose values are numbers or bigints, or for a tuple its numeric positions
 * (`1` or `"1"`).
 *
 * @example
 * ```ts
 * type Visit = { page: string; ms: number };
 * const ok: NumericField<Visit> = "ms";
 * // @ts-expect-error "page" holds strings
 * const wrong: NumericField<Visit> = "page";
 * ```
 */
export type NumericField<T> = T extends readonly unknown[] ? NumericPosition<T> : NumericKey<T>;

/**
 * The argument of `sum`/`min`/`max`/`minBy`/`maxBy`: nothing when the records
 * are numbers (or bigints), else one of their {@link NumericField}s.
 */
export type AggregationArgs<T> = 0 extends 1 & T
  ? [field?: string | number]
  : [T] extends [number | bigint]
    ? []
    : [field: NumericField<T>];

/** A record's field (or the record itself) is not a number, is missing, or mixes numbers and bigints. */
export class AggregationFieldError extends Error {
  override name = "AggregationFieldError";
  constructor(
    /** The aggregation as written, e.g. `sum("amount")`. */
    readonly aggregation: string,
    /** The field, or undefined when the records are aggregated themselves. */
    readonly field: string | undefined,
    /** The offending value (undefined when the field is missing). */
    readonly value: unknown,
    message: string,
  ) {
    super(message);
  }
}

/** A value for an error message, cut to a readable length. */
function show(v: unknown): string {
  return inspect(v, { depth: 3, breakLength: Infinity, compact: true, maxArrayLength: 10, maxStringLength: 80 }).slice(0, 300);
}

function typeName(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `a ${typeof v}`;
}

/** A record as an object with fields (or not an object at all: then every field is missing). */
type Fields = Record<string, unknown> | null | undefined;

/**
 * The reduce function of one built-in aggregation in one parallel instance.
 * Every record's value is checked (a record alone in its key or window too):
 * a missing field, a value that is not a number or bigint, or a bigint where the
 * records before had numbers, throws {@link AggregationFieldError} naming the
 * aggregation, the field, the operator and the value.
 *
 * Hot path: `reduce` handles two numbers inline; bigints and errors take the
 * checked path.
 */
export class FieldAggregation<T> implements FunctionLifecycle {
  /** Combines the aggregate so far with the next record. */
  readonly reduce: (a: T, b: T) => T;
  private readonly label: string;
  private where = "";

  constructor(
    private readonly kind: AggregationKind,
    private readonly field: string | undefined,
  ) {
    this.label = `${kind}(${field === undefined ? "" : JSON.stringify(field)})`;
    const sum = kind === "sum";
    const less = kind === "min" || kind === "minBy";
    const keepRecord = kind === "minBy" || kind === "maxBy" || field === undefined;
    this.reduce = (a, b) => {
      const x = field === undefined ? a : (a as Fields)?.[field];
      const y = field === undefined ? b : (b as Fields)?.[field];
      if (typeof x !== "number" || typeof y !== "number") return this.reduceChecked(a, b);
      if (sum) return field === undefined ? (x + y as T) : withField(a, field, x + y);
      if (less ? !(y < x) : !(y > x)) return a;
      return keepRecord ? b : withField(a, field!, y);
    };
  }

  /** Names the operator in errors. */
  open(context: RuntimeContext): void {
    this.where = ` in operator '${context.getTaskName()}' (uid '${context.getOperatorUid()}')`;
  }

  /** What a key's or window's first record contributes: the record itself, once checked. */
  first(record: T): T {
    this.valueOf(record);
    return record;
  }

  /** The aggregate of all records of a window (evicting windows fold when they fire). */
  fold(records: readonly T[]): T {
    let acc = this.first(records[0]!);
    for (let i = 1; i < records.length; i++) acc = this.reduce(acc, records[i]!);
    return acc;
  }

  /** `reduce` for values that are not both numbers: bigints, or an error. */
  private reduceChecked(a: T, b: T): T {
    const x = this.valueOf(a);
    const y = this.valueOf(b);
    if (typeof x !== typeof y) this.mixed(b, y);
    const field = this.field;
    if (this.kind === "sum") {
      const sum = (x as bigint) + (y as bigint);
      return field === undefined ? (sum as T) : withField(a, field, sum);
    }
    const better = this.kind === "min" || this.kind === "minBy" ? y < x : y > x;
    if (!better) return a;
    return this.kind === "minBy" || this.kind === "maxBy" || field === undefined ? b : withField(a, field, y);
  }

  private valueOf(record: T): number | bigint {
    const field = this.field;
    const v = field === undefined ? record : (record as Fields)?.[field];
    if (typeof v === "number" || typeof v === "bigint") return v;
    throw this.notNumeric(record, v);
  }

  private notNumeric(record: T, v: unknown): AggregationFieldError {
    const field = this.field;
    if (field === undefined)
      return new AggregationFieldError(
        this.label,
        undefined,
        record,
        `${this.label}${this.where}: the record ${show(record)} is ${typeName(record)}, not a number or bigint; ` +
          `give the field to aggregate, e.g. ${this.kind}("amount")`,
      );
    const what = v === undefined ? `has no field '${field}'` : `has ${show(v)} (${typeName(v)}) in field '${field}', not a number or bigint`;
    return new AggregationFieldError(this.label, field, v, `${this.label}${this.where}: the record ${show(record)} ${what}`);
  }

  private mixed(record: T, v: number | bigint): never {
    const name = this.field === undefined ? "the records" : `field '${this.field}'`;
    throw new AggregationFieldError(
      this.label,
      this.field,
      v,
      `${this.label}${this.where}: ${show(v)} in the record ${show(record)} is ${typeName(v)}, ` +
        `but the records before had ${typeof v === "bigint" ? "numbers" : "bigints"} in ${name}: use one of them`,
    );
  }
}

/** A copy of `record` with `field` set to `value` (the other fields stay the first record's). */
function withField<T>(record: T, field: string, value: unknown): T {
  const r = Array.isArray(record) ? ([...record] as unknown as Record<string, unknown>) : { ...(record as Record<string, unknown>) };
  r[field] = value;
  return r as T;
}

/** The operator name of an aggregation: `Sum`, `MinBy`, … */
export function aggregationName(kind: AggregationKind): string {
  return kind[0]!.toUpperCase() + kind.slice(1);
}
