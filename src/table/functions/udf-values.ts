/**
 * The values a user-defined function returns, checked against (and, where
 * the intent is unambiguous, converted to) the representation of its declared
 * result type (see `src/table/types/sql-value.ts`): a BIGINT in either form
 * (a safe-integer `number` or a 64-bit `bigint`) becomes the canonical one
 * (see `types/bigint-value.ts`), a `bigint` in range for an INT a `number`, a
 * `number` or decimal text for a DECIMAL a {@link Decimal} of the declared
 * scale, a `Date` for a TIMESTAMP/TIMESTAMP_LTZ its epoch milliseconds.
 * Anything else that does not fit is a {@link SqlRuntimeError} naming the
 * function and the type. Results that are objects are copies, so a function
 * may keep and change what it returned without effect on emitted rows.
 */
import { bigintOf } from "../types/bigint-value.ts";
import type { LogicalType } from "../types/logical-type.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { decimalFromNumber, isDecimal, parseDecimal, toDecimalType, type Decimal } from "../types/decimal.ts";
import { SqlRuntimeError } from "../expr/sql-runtime-error.ts";
import { showType } from "../expr/bound-expr.ts";
import { copyPlainData } from "../../state/plain-copy.ts";

const INT_RANGE = { tinyint: [-128, 127], smallint: [-32768, 32767], int: [-2147483648, 2147483647] } as const;

/**
 * A converter of results of the function `name` to values of `type`.
 *
 * @example
 * ```ts
 * resultConverter("f", parseSqlType("BIGINT"))(42n); // 42
 * ```
 */
export function resultConverter(name: string, type: LogicalType): (v: unknown) => SqlValue {
  const fail = (v: unknown): never => {
    const shown = typeof v === "bigint" ? `${v}n` : typeof v === "string" ? JSON.stringify(v) : String(v);
    throw new SqlRuntimeError(`Function '${name}' returned ${shown} (${typeof v}), which is not a value of its result type ${showType(type)}`);
  };
  const one = convertOne(type, fail);
  return (v) => {
    if (v === null) {
      if (!type.nullable) throw new SqlRuntimeError(`Function '${name}' returned null, but its result type is ${showType(type)} NOT NULL`);
      return null;
    }
    if (v === undefined) throw new SqlRuntimeError(`Function '${name}' returned undefined; return null for SQL NULL`);
    const r = one(v);
    // a copy: the function may keep and later change what it returned
    return typeof r === "object" && r !== null && r === v ? copyPlainData(r) : r;
  };
}

function convertOne(type: LogicalType, fail: (v: unknown) => never): (v: unknown) => SqlValue {
  switch (type.kind) {
    case "boolean": return (v) => (typeof v === "boolean" ? v : fail(v));
    case "tinyint": case "smallint": case "int": {
      const [lo, hi] = INT_RANGE[type.kind];
      return (v) => {
        const n = typeof v === "bigint" ? Number(v) : v;
        return typeof n === "number" && Number.isInteger(n) && n >= lo && n <= hi ? n : fail(v);
      };
    }
    case "bigint": return (v) => {
      if (typeof v === "bigint") return BigInt.asIntN(64, v) === v ? bigintOf(v) : fail(v);
      return typeof v === "number" && Number.isSafeInteger(v) ? v + 0 : fail(v);
    };
    case "float": return (v) => (typeof v === "number" ? Math.fround(v) : fail(v));
    case "double": return (v) => (typeof v === "number" ? v : fail(v));
    case "decimal": {
      const t = { precision: type.precision, scale: type.scale };
      return (v) => {
        let d: Decimal | null = null;
        if (isDecimal(v)) d = toDecimalType(v, t);
        else if (typeof v === "number" || typeof v === "bigint") d = decimalFromNumber(v, t);
        else if (typeof v === "string") { try { d = parseDecimal(v, t); } catch { d = null; } }
        return d ?? fail(v);
      };
    }
    case "char": case "varchar": return (v) => (typeof v === "string" ? v : fail(v));
    case "binary": case "varbinary": return (v) => (v instanceof Uint8Array ? v : fail(v));
    case "date": case "time": case "interval": return (v) => (typeof v === "number" && Number.isInteger(v) ? v : fail(v));
    case "timestamp": return (v) => (typeof v === "number" ? v : v instanceof Date ? v.getTime() : fail(v));
    case "array": case "multiset": {
      const el = convertNullable(type.element, fail);
      return (v) => (Array.isArray(v) ? v.map(el) : fail(v));
    }
    case "map": {
      const k = convertNullable(type.key, fail);
      const val = convertNullable(type.value, fail);
      return (v) => {
        if (!(v instanceof Map)) return fail(v);
        const m = new Map<SqlValue, SqlValue>();
        for (const [a, b] of v) m.set(k(a), val(b));
        return m;
      };
    }
    case "row": {
      const fs = type.fields.map((f) => convertNullable(f.type, fail));
      return (v) => (Array.isArray(v) && v.length === fs.length ? v.map((x, i) => fs[i]!(x)) : fail(v));
    }
    case "null": return (v) => fail(v);
  }
}

function convertNullable(type: LogicalType, fail: (v: unknown) => never): (v: unknown) => SqlValue {
  const one = convertOne(type, fail);
  return (v) => (v === null ? null : v === undefined ? fail(v) : one(v));
}
