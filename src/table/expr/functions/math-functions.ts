/**
 * Numeric functions with Flink's names, result types and semantics: exact
 * types stay exact (ABS, SIGN, ROUND, TRUNCATE, FLOOR, CEIL of a DECIMAL are
 * DECIMALs), the transcendental ones are DOUBLE. RAND/RAND_INTEGER exist
 * only with a constant seed (java.util.Random's sequence, as Flink), so a
 * query's results are reproducible.
 */
import { canonicalBigint, int64, negateInt64, toBigInt, type BigintValue } from "../../types/bigint-value.ts";
import type { SqlValue } from "../../types/sql-value.ts";
import { decimalNegate, decimalToNumber, parseDecimal, type Decimal, type DecimalType } from "../../types/decimal.ts";
import { sqlCompare } from "../../types/sql-compare.ts";
import { arithmetic } from "../arithmetic.ts";
import { coerce, type BoundExpr } from "../bound-expr.ts";
import { SqlRuntimeError } from "../sql-runtime-error.ts";
import { wrapInteger } from "../cast.ts";
import { asDecimalType, isIntegerType, logicalType, withNullable } from "../type-rules.ts";
import { SqlValidationError } from "../../validation/sql-validation-error.ts";
import {
  argumentTypeError, commonArgumentType, constantArg, DOUBLE, expectArgs, INT, strict, type BuiltinFunction, type CallSite,
} from "./builtin-function.ts";

function doubleFn(names: string[], arity: [number, number], run: (...v: never[]) => number): BuiltinFunction {
  return {
    names, arity,
    bind: (call) => { expectArgs(call, "numeric"); return strict(call, DOUBLE, run, false, call.args.map((a) => coerce(a, DOUBLE))); },
  };
}

/** Rounds the integer `n / d` half away from zero (`half`) or toward zero. */
function divideRounding(n: bigint, d: bigint, half: boolean): bigint {
  const q = n / d;
  if (!half) return q;
  const r = n % d;
  return (r < 0n ? -r : r) * 2n >= d ? q + (n < 0n ? -1n : 1n) : q;
}

/** `d` with `digits` fraction digits (negative: rounded to tens, hundreds…), rounded half up or truncated. */
function decimalToDigits(d: Decimal, digits: number, half: boolean): Decimal {
  if (digits >= d.scale) return d;
  const p = 10n ** BigInt(d.scale - digits);
  const q = divideRounding(d.unscaled, p, half);
  return digits >= 0 ? { unscaled: q, scale: digits } : { unscaled: q * 10n ** BigInt(-digits), scale: 0 };
}

/** ROUND(x[, d]) and TRUNCATE(x[, d]) (Flink's result types: `findRoundDecimalType`). */
function roundLike(half: boolean): BuiltinFunction["bind"] {
  return (call) => {
    expectArgs(call, "numeric", "integer");
    const x = call.args[0]!;
    const dv = call.args.length < 2 ? 0 : Number(constantArg(call, 1, "second argument") ?? 0);
    const t = x.type;
    const xe = x.eval;
    const result = (type: typeof t, run: (v: SqlValue) => SqlValue): BoundExpr => ({
      type: withNullable(type, t.nullable), constant: x.constant, eval: (f) => { const v = xe(f); return v === null ? null : run(v); },
    });
    if (t.kind === "decimal" || isIntegerType(t)) {
      const dt = asDecimalType(t);
      if (dv >= dt.scale) return x;
      if (t.kind === "decimal") {
        const rt: DecimalType = dv < 0 ? { precision: Math.min(38, 1 + dt.precision - dt.scale), scale: 0 } : { precision: 1 + dt.precision - dt.scale + dv, scale: dv };
        return result(logicalType({ kind: "decimal", ...rt }), (v) => decimalToDigits(v as Decimal, dv, half));
      }
      const p = 10n ** BigInt(-dv);
      const big = t.kind === "bigint";
      return result(t, (v) => {
        const q = divideRounding(toBigInt(v as BigintValue), p, half) * p;
        return big ? int64(q) : wrapInteger(t.kind as "int", Number(BigInt.asIntN(32, q)));
      });
    }
    return result(t, (v) => {
      const n = v as number;
      if (!Number.isFinite(n)) return n;
      const r = parseDecimal(String(n));
      return r === null ? n : decimalToNumber(decimalToDigits(r, dv, half));
    });
  };
}

function floorCeil(floor: boolean): BuiltinFunction["bind"] {
  return (call) => {
    expectArgs(call, "numeric");
    const a = call.args[0]!;
    const t = a.type;
    if (t.kind === "decimal") {
      const rt = logicalType({ kind: "decimal", precision: t.scale > 0 ? Math.min(38, t.precision - t.scale + 1) : t.precision, scale: 0 }, t.nullable);
      const p = 10n ** BigInt(t.scale);
      return strict(call, rt, (v: Decimal) => {
        let q = v.unscaled / p;
        if (v.unscaled % p !== 0n && (floor ? v.unscaled < 0n : v.unscaled > 0n)) q += floor ? -1n : 1n;
        return { unscaled: q, scale: 0 };
      });
    }
    if (t.kind === "float" || t.kind === "double") return strict(call, t, floor ? Math.floor : Math.ceil);
    return a;
  };
}

/** java.util.Random: the same sequence as Flink's `RAND(seed)` for the same seed. */
export class JavaRandom {
  private seed: bigint;

  constructor(seed: number | bigint) {
    this.seed = BigInt.asUintN(48, BigInt(seed) ^ 0x5deece66dn);
  }

  private next(bits: number): number {
    this.seed = BigInt.asUintN(48, this.seed * 0x5deece66dn + 0xbn);
    return Number(BigInt.asIntN(32, this.seed >> BigInt(48 - bits)));
  }

  /** A double in [0, 1). */
  nextDouble(): number {
    return (this.next(26) * 2 ** 27 + this.next(27)) * 2 ** -53;
  }

  /** An int in [0, bound). */
  nextInt(bound: number): number {
    let r = this.next(31);
    const m = bound - 1;
    if ((bound & m) === 0) return Number((BigInt(bound) * BigInt(r)) >> 31n);
    for (let u = r; ((u - (r = u % bound) + m) | 0) < 0; u = this.next(31));
    return r;
  }
}

function seeded(call: CallSite): JavaRandom {
  if (call.args.length === 0 || (call.name === "RAND_INTEGER" && call.args.length === 1)) {
    throw new SqlValidationError(`${call.name} without a seed is not supported: results must be the same when a query is replayed; use ${call.name}(seed${call.name === "RAND_INTEGER" ? ", bound" : ""})`, call.loc);
  }
  expectArgs(call, "integer");
  const seed = constantArg(call, 0, "seed");
  return new JavaRandom(seed === null ? 0 : (seed as number | bigint));
}

function extremum(greatest: boolean): BuiltinFunction["bind"] {
  return (call) => {
    const t = commonArgumentType(call);
    if (t.kind === "row" || t.kind === "map" || t.kind === "array") throw argumentTypeError(call);
    return strict(call, t, (...xs: SqlValue[]) => {
      let best = xs[0]!;
      for (let i = 1; i < xs.length; i++) {
        const c = sqlCompare(xs[i]!, best)!;
        if (greatest ? c > 0 : c < 0) best = xs[i]!;
      }
      return best;
    }, false, call.args.map((a) => coerce(a, t)));
  };
}

export const MATH_FUNCTIONS: BuiltinFunction[] = [
  {
    names: ["ABS"], arity: [1, 1],
    bind: (call) => {
      expectArgs(call, "numeric");
      const t = call.args[0]!.type;
      if (t.kind === "bigint") return strict(call, t, (v: BigintValue) => (v < 0 ? negateInt64(v) : canonicalBigint(v)));
      if (t.kind === "decimal") return strict(call, t, (v: Decimal) => (v.unscaled < 0n ? decimalNegate(v) : v));
      if (isIntegerType(t)) { const k = t.kind as "int"; return strict(call, t, (v: number) => wrapInteger(k, Math.abs(v))); }
      return strict(call, t, Math.abs);
    },
  },
  {
    names: ["SIGN"], arity: [1, 1],
    bind: (call) => {
      expectArgs(call, "numeric");
      const t = call.args[0]!.type;
      if (t.kind === "bigint") return strict(call, t, (v: BigintValue) => (v > 0 ? 1 : v < 0 ? -1 : 0));
      if (t.kind === "decimal") {
        const one = 10n ** BigInt(t.scale);
        return strict(call, t, (v: Decimal) => ({ unscaled: v.unscaled > 0n ? one : v.unscaled < 0n ? -one : 0n, scale: v.scale }));
      }
      return strict(call, t, Math.sign);
    },
  },
  {
    names: ["MOD"], arity: [2, 2],
    bind: (call) => {
      expectArgs(call, "numeric");
      return arithmetic("%", call.args[0]!, call.args[1]!, () => argumentTypeError(call));
    },
  },
  { names: ["ROUND"], arity: [1, 2], bind: roundLike(true) },
  { names: ["TRUNCATE"], arity: [1, 2], bind: roundLike(false) },
  { names: ["FLOOR"], arity: [1, 1], bind: floorCeil(true) },
  { names: ["CEIL", "CEILING"], arity: [1, 1], bind: floorCeil(false) },
  doubleFn(["POWER", "POW"], [2, 2], Math.pow),
  doubleFn(["SQRT"], [1, 1], Math.sqrt),
  doubleFn(["EXP"], [1, 1], Math.exp),
  doubleFn(["LN"], [1, 1], Math.log),
  doubleFn(["LOG10"], [1, 1], Math.log10),
  doubleFn(["LOG2"], [1, 1], Math.log2),
  doubleFn(["LOG"], [1, 2], (a: number, b?: number) => (b === undefined ? Math.log(a) : Math.log(b) / Math.log(a))),
  doubleFn(["SIN"], [1, 1], Math.sin),
  doubleFn(["COS"], [1, 1], Math.cos),
  doubleFn(["TAN"], [1, 1], Math.tan),
  doubleFn(["ASIN"], [1, 1], Math.asin),
  doubleFn(["ACOS"], [1, 1], Math.acos),
  doubleFn(["ATAN"], [1, 1], Math.atan),
  doubleFn(["ATAN2"], [2, 2], Math.atan2),
  doubleFn(["DEGREES"], [1, 1], (x: number) => (x * 180) / Math.PI),
  doubleFn(["RADIANS"], [1, 1], (x: number) => (x / 180) * Math.PI),
  doubleFn(["PI"], [0, 0], () => Math.PI),
  doubleFn(["E"], [0, 0], () => Math.E),
  { names: ["GREATEST"], arity: [1, Infinity], bind: extremum(true) },
  { names: ["LEAST"], arity: [1, Infinity], bind: extremum(false) },
  {
    names: ["RAND"], arity: [0, 1],
    bind: (call) => {
      const r = seeded(call);
      return { type: DOUBLE, constant: false, eval: () => r.nextDouble() };
    },
  },
  {
    names: ["RAND_INTEGER"], arity: [1, 2],
    bind: (call) => {
      const r = seeded(call);
      const b = call.args[1]!;
      const be = coerce(b, INT);
      return { type: withNullable(INT, b.type.nullable), constant: false, eval: (f) => {
        const bound = be(f) as number | null;
        if (bound === null) return null;
        if (bound <= 0) throw new SqlRuntimeError(`RAND_INTEGER bound must be positive, got ${bound}`);
        return r.nextInt(bound);
      } };
    },
  },
];
