/**
 * The value generators of the `datagen` connector, one per column, from the
 * column's type and its `fields.<name>.…` options (Flink's
 * `RandomGeneratorVisitor` and `SequenceGeneratorVisitor`).
 *
 * A generator is a function of the row's index in the whole table and of a
 * random source drawn for that row, so a table's rows do not depend on how
 * the source is split across subtasks: a `sequence` field is `start + index`,
 * a `random` field draws from the row's random source (see
 * `datagen-source.ts`), and a timestamp is relative to the time of generation.
 */
import type { OptionValue } from "../../config/config-option.ts";
import { typeToString } from "../expr/type-rules.ts";
import { bigintOf } from "../types/bigint-value.ts";
import type { LogicalType } from "../types/logical-type.ts";
import { decimal, parseDecimal, type Decimal } from "../types/decimal.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { timeZoneOffset } from "../types/time-zone.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";

/** The value of one column for the row at `index` (in the whole table), drawing from `random`; `now` is the clock's time (epoch ms). */
export type FieldGenerator = (index: number, random: () => number, now: number) => SqlValue;

/** A column's generator and, for a sequence, how many values it has. */
export interface FieldSpec {
  generate: FieldGenerator;
  /** The number of values of a `sequence` field (`end - start + 1`); undefined for `random`. */
  sequenceLength?: number;
}

/** What a generator needs besides its column: the table (for errors), the column's options by suffix and the session zone. */
export interface FieldContext {
  table: string;
  column: string;
  /** The column's options without the `fields.<name>.` prefix: `kind`, `min`, `length`, … */
  options: ReadonlyMap<string, OptionValue>;
  timeZone: string;
}

const INT_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  tinyint: [-128, 127],
  smallint: [-32768, 32767],
  int: [-2147483648, 2147483647],
};
const BIGINT_MIN = -(2n ** 63n);
const BIGINT_MAX = 2n ** 63n - 1n;
const HEX = "0123456789abcdef";
const DAY_MS = 86_400_000;

function invalid(ctx: FieldContext, suffix: string, problem: string): SqlValidationError {
  return new SqlValidationError(`Table '${ctx.table}': invalid option 'fields.${ctx.column}.${suffix}': ${problem}.`);
}

/** The option `suffix` of the column read as a number of the column's kind, or `fallback`. */
function numberOption(ctx: FieldContext, suffix: string, fallback: number, integer: boolean): number {
  const text = ctx.options.get(suffix);
  if (text === undefined) return fallback;
  const n = Number(String(text).trim());
  if (String(text).trim() === "" || !Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    throw invalid(ctx, suffix, `'${String(text)}' is not ${integer ? "an integer" : "a number"}`);
  }
  return n;
}

function bigintOption(ctx: FieldContext, suffix: string, fallback: bigint): bigint {
  const text = ctx.options.get(suffix);
  if (text === undefined) return fallback;
  const t = String(text).trim();
  if (!/^[-+]?\d+$/.test(t)) throw invalid(ctx, suffix, `'${t}' is not an integer`);
  const n = BigInt(t);
  if (n < BIGINT_MIN || n > BIGINT_MAX) throw invalid(ctx, suffix, `'${t}' is out of the range of BIGINT`);
  return n;
}

function decimalOption(ctx: FieldContext, suffix: string, type: { precision: number; scale: number }, fallback: Decimal): Decimal {
  const text = ctx.options.get(suffix);
  if (text === undefined) return fallback;
  const d = parseDecimal(String(text).trim(), type);
  if (d === null) throw invalid(ctx, suffix, `'${String(text)}' is not a DECIMAL(${type.precision}, ${type.scale})`);
  return d;
}

/** A uniform bigint in [min, max] from two 32-bit draws. */
function randomBigint(random: () => number, min: bigint, max: bigint): bigint {
  const span = max - min + 1n;
  const r = (BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(Math.floor(random() * 2 ** 32));
  return min + (r % span);
}

function checkRange<T extends number | bigint>(ctx: FieldContext, min: T, max: T, lo: string, hi: string): void {
  if (min > max) throw invalid(ctx, lo, `it is greater than '${hi}' (${String(min)} > ${String(max)})`);
}

/** The length of a random string, bytes or collection: `length` (default 100), at most the declared length of CHAR/VARCHAR/BINARY. */
function lengthOf(ctx: FieldContext, type: LogicalType): number {
  const declared = "length" in type ? type.length : Number.MAX_SAFE_INTEGER;
  const n = numberOption(ctx, "length", Math.min(100, declared), true);
  if (n < 0) throw invalid(ctx, "length", "it must not be negative");
  return type.kind === "char" || type.kind === "binary" ? declared : Math.min(n, declared);
}

/** Truncates epoch ms to a timestamp precision below 3. */
function truncate(ms: number, precision: number): number {
  if (precision >= 3) return ms;
  const unit = 10 ** (3 - precision);
  return Math.floor(ms / unit) * unit;
}

function randomGenerator(ctx: FieldContext, type: LogicalType): FieldGenerator {
  switch (type.kind) {
    case "boolean":
      return (_i, random) => random() < 0.5;
    case "tinyint":
    case "smallint":
    case "int": {
      const [lo, hi] = INT_RANGES[type.kind]!;
      const min = numberOption(ctx, "min", lo, true);
      const max = numberOption(ctx, "max", hi, true);
      if (min < lo || max > hi) throw invalid(ctx, min < lo ? "min" : "max", `out of the range of ${typeToString(type)} [${lo}, ${hi}]`);
      checkRange(ctx, min, max, "min", "max");
      return (_i, random) => min + Math.floor(random() * (max - min + 1));
    }
    case "bigint": {
      const min = bigintOption(ctx, "min", BIGINT_MIN);
      const max = bigintOption(ctx, "max", BIGINT_MAX);
      checkRange(ctx, min, max, "min", "max");
      return (_i, random) => bigintOf(randomBigint(random, min, max));
    }
    case "float":
    case "double": {
      const limit = type.kind === "float" ? 3.4028234663852886e38 : Number.MAX_VALUE;
      const min = numberOption(ctx, "min", -limit, false);
      const max = numberOption(ctx, "max", limit, false);
      checkRange(ctx, min, max, "min", "max");
      const round = type.kind === "float" ? Math.fround : (x: number) => x;
      // min + r * (max - min) without overflowing for the full range
      return (_i, random) => {
        const r = random();
        return round(min * (1 - r) + max * r);
      };
    }
    case "decimal": {
      const bound = 10n ** BigInt(type.precision) - 1n;
      const min = decimalOption(ctx, "min", type, decimal(-bound, type.scale));
      const max = decimalOption(ctx, "max", type, decimal(bound, type.scale));
      checkRange(ctx, min.unscaled, max.unscaled, "min", "max");
      return (_i, random) => decimal(randomBigint(random, min.unscaled, max.unscaled), type.scale);
    }
    case "char":
    case "varchar": {
      const length = lengthOf(ctx, type);
      return (_i, random) => {
        let s = "";
        for (let k = 0; k < length; k++) s += HEX[Math.floor(random() * 16)];
        return s;
      };
    }
    case "binary":
    case "varbinary": {
      const length = lengthOf(ctx, type);
      return (_i, random) => Uint8Array.from({ length }, () => Math.floor(random() * 256));
    }
    case "date":
    case "time":
    case "timestamp": {
      const maxPast = Number(ctx.options.get("max-past") ?? 0);
      if (maxPast < 0) throw invalid(ctx, "max-past", "it must not be negative");
      const ltz = type.kind === "timestamp" && type.withLocalTimeZone;
      const precision = "precision" in type ? type.precision : 0;
      return (_i, random, now) => {
        const instant = now - Math.floor(random() * (maxPast + 1));
        if (ltz) return truncate(instant, precision);
        const wall = instant + timeZoneOffset(instant, ctx.timeZone);
        if (type.kind === "date") return Math.floor(wall / DAY_MS);
        if (type.kind === "time") return truncate(((wall % DAY_MS) + DAY_MS) % DAY_MS, precision);
        return truncate(wall, precision);
      };
    }
    case "array": {
      const length = lengthOf(ctx, type);
      const element = nullable(ctx, type.element, randomGenerator({ ...ctx, options: new Map() }, type.element));
      return (i, random, now) => Array.from({ length }, () => element(i, random, now));
    }
    case "map": {
      const length = lengthOf(ctx, type);
      const key = randomGenerator({ ...ctx, options: new Map() }, type.key);
      const value = nullable(ctx, type.value, randomGenerator({ ...ctx, options: new Map() }, type.value));
      return (i, random, now) => {
        const m = new Map<SqlValue, SqlValue>();
        for (let k = 0; k < length; k++) m.set(key(i, random, now), value(i, random, now));
        return m;
      };
    }
    default:
      throw new SqlValidationError(
        `Table '${ctx.table}': the 'datagen' connector cannot generate the type ${typeToString(type)} (column '${ctx.column}'); it generates BOOLEAN, numbers, DECIMAL, strings, bytes, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ, ARRAY and MAP.`,
      );
  }
}

/** `generate` with NULL at `null-rate` (drawn first, so a NULL draws nothing else). */
function nullable(ctx: FieldContext, type: LogicalType, generate: FieldGenerator): FieldGenerator {
  const rate = Number(ctx.options.get("null-rate") ?? 0);
  if (!(rate >= 0 && rate <= 1)) throw invalid(ctx, "null-rate", `${rate} is not between 0 and 1`);
  if (rate > 0 && !type.nullable) throw invalid(ctx, "null-rate", `the column is NOT NULL`);
  if (rate === 0) return generate;
  return (i, random, now) => (random() < rate ? null : generate(i, random, now));
}

function sequenceGenerator(ctx: FieldContext, type: LogicalType): FieldSpec {
  for (const suffix of ["start", "end"]) {
    if (ctx.options.get(suffix) === undefined) {
      throw new SqlValidationError(`Table '${ctx.table}': the sequence field '${ctx.column}' needs the option 'fields.${ctx.column}.${suffix}'.`);
    }
  }
  switch (type.kind) {
    case "tinyint":
    case "smallint":
    case "int":
    case "bigint":
    case "char":
    case "varchar": {
      const start = bigintOption(ctx, "start", 0n);
      const end = bigintOption(ctx, "end", 0n);
      checkRange(ctx, start, end, "start", "end");
      const range = INT_RANGES[type.kind];
      if (range !== undefined && (start < BigInt(range[0]) || end > BigInt(range[1]))) {
        throw invalid(ctx, start < BigInt(range[0]) ? "start" : "end", `out of the range of ${typeToString(type)} [${range[0]}, ${range[1]}]`);
      }
      const length = end - start + 1n;
      if (length > BigInt(Number.MAX_SAFE_INTEGER)) throw invalid(ctx, "end", "the sequence has more than 2^53 - 1 values");
      const value =
        type.kind === "bigint"
          ? (i: number) => bigintOf(start + BigInt(i))
          : type.kind === "char" || type.kind === "varchar"
            ? (i: number) => String(start + BigInt(i))
            : (i: number) => Number(start) + i;
      return { generate: (i) => value(i), sequenceLength: Number(length) };
    }
    case "float":
    case "double": {
      const start = numberOption(ctx, "start", 0, false);
      const end = numberOption(ctx, "end", 0, false);
      checkRange(ctx, start, end, "start", "end");
      const round = type.kind === "float" ? Math.fround : (x: number) => x;
      return { generate: (i) => round(start + i), sequenceLength: Math.floor(end - start) + 1 };
    }
    case "decimal": {
      const start = decimalOption(ctx, "start", type, decimal(0n, type.scale));
      const end = decimalOption(ctx, "end", type, decimal(0n, type.scale));
      checkRange(ctx, start.unscaled, end.unscaled, "start", "end");
      const one = 10n ** BigInt(type.scale);
      const length = (end.unscaled - start.unscaled) / one + 1n;
      if (length > BigInt(Number.MAX_SAFE_INTEGER)) throw invalid(ctx, "end", "the sequence has more than 2^53 - 1 values");
      return { generate: (i) => decimal(start.unscaled + BigInt(i) * one, type.scale), sequenceLength: Number(length) };
    }
    default:
      throw new SqlValidationError(
        `Table '${ctx.table}': a sequence field must be an integer, floating-point, DECIMAL or string type; '${ctx.column}' is ${typeToString(type)}.`,
      );
  }
}

/** Options that only one kind of generator reads, and the kind. */
const KIND_ONLY: Readonly<Record<string, "random" | "sequence">> = { min: "random", max: "random", "max-past": "random", start: "sequence", end: "sequence" };

/**
 * The generator of a column from its options.
 *
 * @throws {SqlValidationError} naming the table and the option for a value that does not fit the column or an option of the other kind
 * @example
 * ```ts
 * const f = fieldGenerator({ table: "t", column: "id", options: new Map([["kind", "sequence"], ["start", "1"], ["end", "10"]]), timeZone: "UTC" }, { kind: "bigint", nullable: true });
 * f.generate(0, Math.random, Date.now()); // 1n
 * ```
 */
export function fieldGenerator(ctx: FieldContext, type: LogicalType): FieldSpec {
  const kind = (ctx.options.get("kind") ?? "random") as "random" | "sequence";
  for (const [suffix, only] of Object.entries(KIND_ONLY)) {
    if (ctx.options.has(suffix) && only !== kind) {
      throw invalid(ctx, suffix, `it applies to ${only} fields only, and '${ctx.column}' is a ${kind} field ('fields.${ctx.column}.kind')`);
    }
  }
  if (kind === "sequence") {
    if (ctx.options.has("null-rate")) throw invalid(ctx, "null-rate", "a sequence field has no NULLs");
    return sequenceGenerator(ctx, type);
  }
  return { generate: nullable(ctx, type, randomGenerator(ctx, type)) };
}
