/**
 * Scalar SQL values from and to text, as Flink's `json` and `csv` formats
 * read and write them: integers and DECIMALs exactly (BIGINT beyond 2^53,
 * DECIMAL to its scale, HALF_UP, as `DecimalData.fromBigDecimal`), doubles as
 * Java prints them (`1.0`, `1.0E7`, `NaN`), booleans `true`/`false`, bytes in
 * base64, dates and times per `temporal-text.ts`.
 */
import { formatDecimalJava, formatDouble } from "../data/format-value.ts";
import { decimalToString, parseDecimal, type Decimal } from "../types/decimal.ts";
import type { LogicalType } from "../types/logical-type.ts";
import { bigintOf } from "../types/bigint-value.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { typeToString } from "../expr/type-rules.ts";
import { FormatValueError } from "./format-value-error.ts";
import {
  dateText,
  readDateText,
  readTimestampLtzText,
  readTimestampText,
  readTimeText,
  TemporalTextError,
  timestampLtzText,
  timestampText,
  timeText,
  type TimestampStandard,
} from "./temporal-text.ts";

/** Settings of scalar text shared by the formats. */
export interface ScalarTextOptions {
  readonly timestampStandard: TimestampStandard;
  /** Write DECIMAL without exponent (`encode.decimal-as-plain-number`) instead of as Java's `BigDecimal.toString`. */
  readonly decimalPlain: boolean;
}

const INTEGER = /^[+-]?\d+$/;
const FLOATING = /^(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|NaN|[+-]?Infinity)$/;
const INT_RANGE = { tinyint: 2 ** 7, smallint: 2 ** 15, int: 2 ** 31 } as const;
const BIGINT_MIN = -(2n ** 63n);
const BIGINT_MAX = 2n ** 63n - 1n;

/** The kinds of scalar types (everything but ROW, ARRAY, MULTISET, MAP, INTERVAL and the NULL type). */
export function isScalarType(t: LogicalType): boolean {
  return !["row", "array", "multiset", "map", "interval", "null"].includes(t.kind);
}

function cannot(text: string, t: LogicalType, why?: string): FormatValueError {
  return new FormatValueError(`cannot read ${JSON.stringify(text)} as ${typeToString(t)}${why === undefined ? "" : ` (${why})`}`);
}

/**
 * A reader of text as a value of the scalar type `t`.
 *
 * @throws FormatValueError (from the reader) for text that is not a value of `t`
 * @example
 * ```ts
 * const read = scalarReader({ kind: "bigint", nullable: true }, { timestampStandard: "SQL", decimalPlain: false });
 * read("9223372036854775807"); // 9223372036854775807n
 * ```
 */
export function scalarReader(t: LogicalType, o: ScalarTextOptions): (text: string) => SqlValue {
  switch (t.kind) {
    case "boolean":
      return (text) => {
        const s = text.trim().toLowerCase();
        if (s === "true") return true;
        if (s === "false") return false;
        throw cannot(text, t);
      };
    case "tinyint":
    case "smallint":
    case "int": {
      const bound = INT_RANGE[t.kind];
      return (text) => {
        const s = text.trim();
        const n = INTEGER.test(s) ? Number(s) : NaN;
        if (Number.isNaN(n)) throw cannot(text, t);
        if (n < -bound || n >= bound) throw cannot(text, t, "out of range");
        return n === 0 ? 0 : n; // never -0
      };
    }
    case "bigint":
      return (text) => {
        const s = text.trim();
        if (!INTEGER.test(s)) throw cannot(text, t);
        if (s.length < 16) return Number(s) + 0; // at most 15 digits: a safe integer, the canonical BIGINT (never -0)
        const n = BigInt(s);
        if (n < BIGINT_MIN || n > BIGINT_MAX) throw cannot(text, t, "out of range");
        return bigintOf(n);
      };
    case "float":
    case "double":
      return (text) => {
        const s = text.trim();
        if (!FLOATING.test(s)) throw cannot(text, t);
        const n = Number(s);
        return t.kind === "float" ? Math.fround(n) : n;
      };
    case "decimal": {
      const type = { precision: t.precision, scale: t.scale };
      return (text) => {
        let d: Decimal | null;
        try {
          d = parseDecimal(text, type);
        } catch {
          throw cannot(text, t);
        }
        if (d === null) throw cannot(text, t, `more than ${t.precision - t.scale} digits before the point`);
        return d;
      };
    }
    case "char":
    case "varchar":
      return (text) => text;
    case "binary":
    case "varbinary":
      return (text) => {
        if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) throw cannot(text, t, "expected base64");
        return new Uint8Array(Buffer.from(text, "base64"));
      };
    case "date":
      return temporal(t, readDateText);
    case "time":
      return temporal(t, readTimeText);
    case "timestamp": {
      const s = o.timestampStandard;
      return temporal(t, t.withLocalTimeZone ? (x) => readTimestampLtzText(x, s) : (x) => readTimestampText(x, s));
    }
    default:
      throw new Error(`not a scalar type: ${typeToString(t)}`);
  }
}

/** The shortest decimal that reads back as the same FLOAT (as Java's `Float.toString` writes `0.1`, not `0.10000000149011612`). */
function shortestFloat(v: number): number {
  if (!Number.isFinite(v)) return v;
  for (let digits = 1; digits < 9; digits++) {
    const n = Number(v.toPrecision(digits));
    if (Math.fround(n) === v) return n;
  }
  return v;
}

function temporal(t: LogicalType, read: (text: string) => number): (text: string) => SqlValue {
  return (text) => {
    try {
      return read(text);
    } catch (e) {
      if (e instanceof TemporalTextError) throw cannot(text, t, e.message);
      throw e;
    }
  };
}

/**
 * A writer of values of the scalar type `t` as text (never called with NULL).
 *
 * @example
 * ```ts
 * scalarWriter({ kind: "double", nullable: true }, options)(1e7); // "1.0E7"
 * ```
 */
export function scalarWriter(t: LogicalType, o: ScalarTextOptions): (v: SqlValue) => string {
  switch (t.kind) {
    case "float":
      return (v) => formatDouble(shortestFloat(v as number));
    case "double":
      return (v) => formatDouble(v as number);
    case "decimal":
      return o.decimalPlain ? (v) => decimalToString(v as Decimal) : (v) => formatDecimalJava(v as Decimal);
    case "binary":
    case "varbinary":
      return (v) => Buffer.from((v as Uint8Array).buffer, (v as Uint8Array).byteOffset, (v as Uint8Array).byteLength).toString("base64");
    case "date":
      return (v) => dateText(v as number);
    case "time":
      return (v) => timeText(v as number);
    case "timestamp": {
      const s = o.timestampStandard;
      return t.withLocalTimeZone ? (v) => timestampLtzText(v as number, s) : (v) => timestampText(v as number, s);
    }
    default:
      return (v) => String(v);
  }
}
