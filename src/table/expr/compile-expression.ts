/**
 * The scalar expression layer: type inference with Flink's rules and
 * compilation to closures over a row's field values.
 *
 * Typing: numeric promotion TINYINT < SMALLINT < INT < BIGINT < DECIMAL <
 * FLOAT < DOUBLE (an integer meets a DECIMAL as DECIMAL(3|5|10|19, 0), then
 * the `decimal.ts` rules), nullability propagates (a result is NOT NULL only
 * when every input is), comparisons and CASE/COALESCE/IN/BETWEEN take the
 * common type of their operands, `||` needs two strings. Errors are
 * {@link SqlValidationError}s located in the SQL text.
 *
 * Evaluation: three-valued logic; INT/SMALLINT/TINYINT and BIGINT
 * arithmetic wraps on overflow as Flink's generated Java does; BIGINT is a
 * JavaScript bigint and DECIMAL a {@link Decimal} (never a binary float);
 * integer and decimal division (and `%`) by zero throws
 * {@link SqlRuntimeError}, FLOAT/DOUBLE follow IEEE (Infinity, NaN), as Java.
 * Closures allocate nothing per call beyond their result (BIGINT, DECIMAL and
 * string results are new values; a LIKE with a pattern that is not a constant
 * caches its last compiled pattern).
 */
import type { Expr, ExprOf, SourceLoc } from "../sql/ast.ts";
import type { SqlValue } from "../types/sql-value.ts";
import {
  additionType, decimalAdd, decimalDivide, decimalModulo, decimalMultiply, decimalNegate, decimalSubtract,
  decimalToNumber, DecimalDivisionByZeroError, divisionType, moduloType, multiplicationType, parseDecimal,
  toDecimalType, type Decimal, type DecimalType,
} from "../types/decimal.ts";
import { sqlCompare, sqlEquals, sqlNotDistinct } from "../types/sql-compare.ts";
import { parseDate, parseTime, parseTimestamp } from "../types/temporal.ts";
import { castFunction, wrapInteger } from "./cast.ts";
import { likeToRegExp } from "./like-pattern.ts";
import {
  asDecimalType, commonType, isIntegerType, isNumericType, isStringType, logicalType, typeToString,
  withNullable, type RowType,
} from "./type-rules.ts";
import { toLogicalType, type LogicalType } from "../types/logical-type.ts";
import { MAX_LENGTH } from "../sql/parse-type.ts";
import { nearestName } from "../validation/nearest-name.ts";
import { SqlRuntimeError } from "./sql-runtime-error.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";

/** A compiled expression: evaluates on the field values of one row. */
export type Evaluator = (fields: SqlValue[]) => SqlValue;

/** An expression after binding: its type, its evaluator, and whether it reads no column. */
export interface BoundExpr {
  type: LogicalType;
  eval: Evaluator;
  constant: boolean;
}

/**
 * Infers the type of `expr` over rows of `rowType`.
 *
 * @throws SqlValidationError for unknown columns/functions and type errors.
 * @example
 * ```ts
 * showType(inferType(expr("a + 1.5"), { names: ["a"], types: [logicalType({ kind: "int" })] })); // "DECIMAL(12, 1)"
 * ```
 */
export function inferType(expr: Expr, rowType: RowType): LogicalType {
  return bindExpression(expr, rowType).type;
}

/**
 * Compiles `expr` to a closure over a row's field values (in `rowType` order).
 *
 * @example
 * ```ts
 * const f = compile(expr("a * 2"), { names: ["a"], types: [logicalType({ kind: "bigint" })] });
 * f([2n ** 60n]); // 2n ** 61n
 * ```
 */
export function compile(expr: Expr, rowType: RowType): Evaluator {
  return bindExpression(expr, rowType).eval;
}

/** Type-checks and compiles `expr` in one pass. */
export function bindExpression(expr: Expr, rowType: RowType): BoundExpr {
  return new Binder(rowType).bind(expr);
}

const BOOLEAN = logicalType({ kind: "boolean" }, false);
const INT = logicalType({ kind: "int" }, false);
const DOUBLE = logicalType({ kind: "double" }, false);
const VARCHAR = logicalType({ kind: "varchar", length: MAX_LENGTH }, false);

function nullable(...xs: BoundExpr[]): boolean {
  return xs.some((x) => x.type.nullable);
}

function typed(t: LogicalType, isNullable: boolean): LogicalType {
  return withNullable(t, isNullable);
}

function divZero(): never {
  throw new SqlRuntimeError("Division by zero");
}

/** The evaluator of `b` with its values converted to `target`'s representation. */
function coerce(b: BoundExpr, target: LogicalType): Evaluator {
  const from = b.type;
  if (from.kind === "null" || sameRepresentation(from, target)) return b.eval;
  const cast = castFunction(from, target);
  if (cast === undefined) throw new Error(`internal: no coercion from ${showType(from)} to ${showType(target)}`);
  const e = b.eval;
  return (f) => { const v = e(f); return v === null ? null : cast(v); };
}

function sameRepresentation(a: LogicalType, b: LogicalType): boolean {
  if (a.kind === "decimal" && b.kind === "decimal") return a.scale === b.scale && a.precision <= b.precision;
  const num = (k: string) => k === "tinyint" || k === "smallint" || k === "int";
  if (num(a.kind) && num(b.kind)) return rank(a.kind) <= rank(b.kind);
  if (isStringType(a) && b.kind === "varchar") return true;
  return a.kind === b.kind && a.kind !== "char";
}

function rank(k: string): number {
  return k === "tinyint" ? 1 : k === "smallint" ? 2 : 3;
}

const FUNCTIONS = [
  "UPPER", "LOWER", "CHAR_LENGTH", "CHARACTER_LENGTH", "SUBSTRING", "SUBSTR", "TRIM", "CONCAT", "CONCAT_WS", "REPLACE",
  "POSITION", "ABS", "MOD", "ROUND", "FLOOR", "CEIL", "CEILING", "POWER", "SQRT", "COALESCE", "NULLIF", "IF",
];

class Binder {
  constructor(private readonly rowType: RowType) {}

  bind(e: Expr): BoundExpr {
    switch (e.kind) {
      case "column": return this.column(e);
      case "number": return numberLiteral(e.text, e.loc);
      case "string": return constant(logicalType({ kind: "char", length: Math.max(1, e.value.length) }, false), e.value);
      case "boolean": return constant(BOOLEAN, e.value);
      case "null": return constant({ kind: "null", nullable: true }, null);
      case "typedLiteral": return typedLiteral(e);
      case "interval": return intervalLiteral(e);
      case "unary": return this.unary(e);
      case "binary": return this.binary(e);
      case "is": return this.is(e);
      case "isDistinctFrom": return this.isDistinctFrom(e);
      case "between": return this.between(e);
      case "inList": return this.inList(e);
      case "like": return this.like(e);
      case "case": return this.caseExpr(e);
      case "cast": return this.cast(e);
      case "trim": return this.trim(e);
      case "call": return this.call(e);
      default: throw new SqlValidationError(`${describeKind(e.kind)} is not supported in scalar expressions yet`, e.loc);
    }
  }

  private column(e: ExprOf<"column">): BoundExpr {
    const name = e.names[e.names.length - 1]!;
    const i = this.rowType.names.indexOf(name.value);
    if (i < 0) {
      const near = nearestName(name.value, this.rowType.names);
      throw new SqlValidationError(`Column '${name.value}' not found in any table${near === undefined ? "" : `; did you mean '${near}'?`}`, name.loc);
    }
    return { type: this.rowType.types[i]!, eval: (f) => f[i]!, constant: false };
  }

  private unary(e: ExprOf<"unary">): BoundExpr {
    const x = this.bind(e.operand);
    const t = x.type;
    const ev = x.eval;
    if (e.op === "NOT") {
      this.expectBoolean(x, "NOT", e.loc);
      return { type: typed(BOOLEAN, t.nullable), eval: (f) => { const v = ev(f); return v === null ? null : !v; }, constant: x.constant };
    }
    if (!isNumericType(t) && t.kind !== "null") {
      throw new SqlValidationError(`Cannot apply '${e.op}' to arguments of type <${showType(t)}>`, e.loc);
    }
    if (e.op === "+") return x;
    let run: Evaluator;
    switch (t.kind) {
      case "tinyint": case "smallint": case "int": { const k = t.kind; run = (f) => { const v = ev(f); return v === null ? null : wrapInteger(k, -(v as number)); }; break; }
      case "bigint": run = (f) => { const v = ev(f); return v === null ? null : BigInt.asIntN(64, -(v as bigint)); }; break;
      case "decimal": run = (f) => { const v = ev(f); return v === null ? null : decimalNegate(v as Decimal); }; break;
      default: run = (f) => { const v = ev(f); return v === null ? null : -(v as number); };
    }
    return { type: t, eval: run, constant: x.constant };
  }

  private expectBoolean(x: BoundExpr, op: string, loc: SourceLoc): void {
    if (x.type.kind !== "boolean" && x.type.kind !== "null") {
      throw new SqlValidationError(`Cannot apply '${op}' to arguments of type <${showType(x.type)}>`, loc);
    }
  }

  private binary(e: ExprOf<"binary">): BoundExpr {
    const l = this.bind(e.left);
    const r = this.bind(e.right);
    const c = l.constant && r.constant;
    const le = l.eval;
    const re = r.eval;
    const mismatch = () => new SqlValidationError(`Cannot apply '${e.op}' to arguments of type <${showType(l.type)}> and <${showType(r.type)}>`, e.loc);
    switch (e.op) {
      case "AND": case "OR": {
        if ((l.type.kind !== "boolean" && l.type.kind !== "null") || (r.type.kind !== "boolean" && r.type.kind !== "null")) throw mismatch();
        const type = typed(BOOLEAN, nullable(l, r));
        if (e.op === "AND") {
          return { type, constant: c, eval: (f) => {
            const a = le(f);
            if (a === false) return false;
            const b = re(f);
            if (b === false) return false;
            return a === null || b === null ? null : true;
          } };
        }
        return { type, constant: c, eval: (f) => {
          const a = le(f);
          if (a === true) return true;
          const b = re(f);
          if (b === true) return true;
          return a === null || b === null ? null : false;
        } };
      }
      case "=": case "<>": case "<": case ">": case "<=": case ">=":
        return { type: typed(BOOLEAN, nullable(l, r)), constant: c, eval: this.comparison(e.op, l, r, mismatch) };
      case "||": {
        if (!(isStringType(l.type) || l.type.kind === "null") || !(isStringType(r.type) || r.type.kind === "null")) throw mismatch();
        const len = Math.min(MAX_LENGTH, lengthOf(l.type) + lengthOf(r.type));
        const kind = l.type.kind === "char" && r.type.kind === "char" ? "char" : "varchar";
        return { type: logicalType({ kind, length: len }, nullable(l, r)), constant: c, eval: (f) => {
          const a = le(f);
          if (a === null) return null;
          const b = re(f);
          return b === null ? null : (a as string) + (b as string);
        } };
      }
      default:
        return arithmetic(e.op, l, r, mismatch);
    }
  }

  private comparison(op: string, l: BoundExpr, r: BoundExpr, mismatch: () => Error): Evaluator {
    const ct = commonType(l.type, r.type);
    if (ct === undefined || ct.kind === "row" || ct.kind === "map") throw mismatch();
    const le = l.eval;
    const re = r.eval;
    const primitive = l.type.kind === r.type.kind || (isIntegerType(l.type) && isIntegerType(r.type) && l.type.kind !== "bigint" && r.type.kind !== "bigint");
    if (primitive && !["decimal", "array", "multiset", "binary", "varbinary"].includes(l.type.kind)) {
      switch (op) {
        case "=": return (f) => { const a = le(f); if (a === null) return null; const b = re(f); return b === null ? null : a === b; };
        case "<>": return (f) => { const a = le(f); if (a === null) return null; const b = re(f); return b === null ? null : a !== b; };
        case "<": return (f) => { const a = le(f); if (a === null) return null; const b = re(f); return b === null ? null : (a as number) < (b as number); };
        case ">": return (f) => { const a = le(f); if (a === null) return null; const b = re(f); return b === null ? null : (a as number) > (b as number); };
        case "<=": return (f) => { const a = le(f); if (a === null) return null; const b = re(f); return b === null ? null : (a as number) <= (b as number); };
        default: return (f) => { const a = le(f); if (a === null) return null; const b = re(f); return b === null ? null : (a as number) >= (b as number); };
      }
    }
    const test = op === "=" ? (x: number) => x === 0 : op === "<>" ? (x: number) => x !== 0 : op === "<" ? (x: number) => x < 0
      : op === ">" ? (x: number) => x > 0 : op === "<=" ? (x: number) => x <= 0 : (x: number) => x >= 0;
    return (f) => { const x = sqlCompare(le(f), re(f)); return x === null ? null : test(x); };
  }

  private is(e: ExprOf<"is">): BoundExpr {
    const x = this.bind(e.operand);
    const ev = x.eval;
    if (e.test !== "NULL") this.expectBoolean(x, `IS ${e.not ? "NOT " : ""}${e.test}`, e.loc);
    const want = e.test === "NULL" || e.test === "UNKNOWN" ? null : e.test === "TRUE";
    const not = e.not;
    return { type: BOOLEAN, constant: x.constant, eval: (f) => (ev(f) === want) !== not };
  }

  private isDistinctFrom(e: ExprOf<"isDistinctFrom">): BoundExpr {
    const l = this.bind(e.left);
    const r = this.bind(e.right);
    if (commonType(l.type, r.type) === undefined) {
      throw new SqlValidationError(`Cannot apply 'IS ${e.not ? "NOT " : ""}DISTINCT FROM' to arguments of type <${showType(l.type)}> and <${showType(r.type)}>`, e.loc);
    }
    const le = l.eval;
    const re = r.eval;
    const not = e.not;
    return { type: BOOLEAN, constant: l.constant && r.constant, eval: (f) => sqlNotDistinct(le(f), re(f)) === not };
  }

  private between(e: ExprOf<"between">): BoundExpr {
    const x = this.bind(e.operand);
    const lo = this.bind(e.low);
    const hi = this.bind(e.high);
    const ct = commonType(x.type, lo.type);
    if (ct === undefined || commonType(ct, hi.type) === undefined) {
      throw new SqlValidationError(`Cannot apply 'BETWEEN' to arguments of type <${showType(x.type)}>, <${showType(lo.type)}> and <${showType(hi.type)}>`, e.loc);
    }
    const xe = x.eval, le = lo.eval, he = hi.eval;
    const symmetric = e.symmetric;
    const not = e.not;
    return { type: typed(BOOLEAN, nullable(x, lo, hi)), constant: x.constant && lo.constant && hi.constant, eval: (f) => {
      const v = xe(f);
      let a = le(f);
      let b = he(f);
      if (symmetric && a !== null && b !== null && sqlCompare(a, b)! > 0) { const t = a; a = b; b = t; }
      const c1 = sqlCompare(v, a);
      const c2 = sqlCompare(v, b);
      const ge = c1 === null ? null : c1 >= 0;
      const le2 = c2 === null ? null : c2 <= 0;
      const r = ge === false || le2 === false ? false : ge === null || le2 === null ? null : true;
      return r === null ? null : r !== not;
    } };
  }

  private inList(e: ExprOf<"inList">): BoundExpr {
    const x = this.bind(e.operand);
    const items = e.list.map((i) => this.bind(i));
    let ct: LogicalType | undefined = x.type;
    for (const it of items) {
      ct = ct === undefined ? undefined : commonType(ct, it.type);
      if (ct === undefined) {
        throw new SqlValidationError(`Values passed to ${e.not ? "NOT " : ""}IN operator must have compatible types: <${showType(x.type)}> and <${showType(it.type)}>`, e.loc);
      }
    }
    const type = typed(BOOLEAN, nullable(x, ...items));
    const allConstant = items.every((i) => i.constant);
    const not = e.not;
    const hashable = ct!.kind !== "decimal" && ct!.kind !== "null" && ct!.kind !== "array" && ct!.kind !== "row" && ct!.kind !== "map" && ct!.kind !== "char";
    if (allConstant && hashable) {
      const set = new Set<SqlValue>();
      let hasNull = false;
      for (const it of items) {
        const v = coerce(it, ct!)([]);
        if (v === null) hasNull = true;
        else set.add(v);
      }
      const xe = coerce(x, ct!);
      return { type, constant: x.constant, eval: (f) => {
        const v = xe(f);
        if (v === null) return null;
        if (set.has(v)) return !not;
        return hasNull ? null : not;
      } };
    }
    const xe = x.eval;
    const evs = items.map((i) => i.eval);
    return { type, constant: x.constant && allConstant, eval: (f) => {
      const v = xe(f);
      if (v === null) return null;
      let unknown = false;
      for (let i = 0; i < evs.length; i++) {
        const eq = sqlEquals(v, evs[i]!(f));
        if (eq === true) return !not;
        if (eq === null) unknown = true;
      }
      return unknown ? null : not;
    } };
  }

  private like(e: ExprOf<"like">): BoundExpr {
    if (e.similar) throw new SqlValidationError("SIMILAR TO is not supported yet", e.loc);
    const x = this.bind(e.operand);
    const p = this.bind(e.pattern);
    const esc = e.escape === undefined ? undefined : this.bind(e.escape);
    for (const b of [x, p, ...(esc === undefined ? [] : [esc])]) {
      if (!isStringType(b.type) && b.type.kind !== "null") {
        throw new SqlValidationError(`Cannot apply 'LIKE' to arguments of type <${showType(x.type)}> and <${showType(p.type)}>`, e.loc);
      }
    }
    if (esc !== undefined && !esc.constant) throw new SqlValidationError("The ESCAPE of LIKE must be a constant", e.escape!.loc);
    const escape = esc === undefined ? undefined : (esc.eval([]) as string | null) ?? undefined;
    const xe = x.eval;
    const pe = p.eval;
    const not = e.not;
    const type = typed(BOOLEAN, nullable(x, p));
    if (p.constant) {
      const pv = pe([]);
      if (pv === null) return { type, constant: true, eval: () => null };
      const re = likeToRegExp(pv as string, escape);
      return { type, constant: x.constant, eval: (f) => { const v = xe(f); return v === null ? null : re.test(v as string) !== not; } };
    }
    let lastPattern: string | undefined;
    let lastRe: RegExp | undefined;
    return { type, constant: x.constant, eval: (f) => {
      const v = xe(f);
      if (v === null) return null;
      const pv = pe(f);
      if (pv === null) return null;
      if (pv !== lastPattern) { lastRe = likeToRegExp(pv as string, escape); lastPattern = pv as string; }
      return lastRe!.test(v as string) !== not;
    } };
  }

  private caseExpr(e: ExprOf<"case">): BoundExpr {
    const operand = e.operand === undefined ? undefined : this.bind(e.operand);
    const conds = e.whens.map((w) => {
      const c = this.bind(w.when);
      if (operand !== undefined) {
        if (commonType(operand.type, c.type) === undefined) {
          throw new SqlValidationError(`Cannot apply '=' to arguments of type <${showType(operand.type)}> and <${showType(c.type)}>`, w.when.loc);
        }
        const oe = operand.eval;
        const ce = c.eval;
        return { ...c, eval: ((f) => sqlEquals(oe(f), ce(f))) as Evaluator, constant: c.constant && operand.constant };
      }
      if (c.type.kind !== "boolean" && c.type.kind !== "null") {
        throw new SqlValidationError(`Expected a BOOLEAN condition in WHEN but got <${showType(c.type)}>`, w.when.loc);
      }
      return c;
    });
    const thens = e.whens.map((w) => this.bind(w.then));
    const otherwise = e.else === undefined ? undefined : this.bind(e.else);
    const branches = otherwise === undefined ? thens : [...thens, otherwise];
    const result = this.commonOf(branches, e.loc, "CASE", otherwise === undefined);
    const ce = conds.map((c) => c.eval);
    const te = thens.map((t) => coerce(t, result));
    const ee = otherwise === undefined ? () => null : coerce(otherwise, result);
    return { type: result, constant: [...conds, ...branches].every((b) => b.constant) && (operand?.constant ?? true), eval: (f) => {
      for (let i = 0; i < ce.length; i++) if (ce[i]!(f) === true) return te[i]!(f);
      return ee(f);
    } };
  }

  private commonOf(xs: BoundExpr[], loc: SourceLoc, what: string, forceNullable = false): LogicalType {
    let t: LogicalType = xs[0]!.type;
    for (const x of xs.slice(1)) {
      const n = commonType(t, x.type);
      if (n === undefined) throw new SqlValidationError(`Cannot infer a common type of ${what} for <${showType(t)}> and <${showType(x.type)}>`, loc);
      t = n;
    }
    if (t.kind === "char") t = logicalType({ kind: "varchar", length: t.length }, t.nullable);
    return forceNullable ? withNullable(t, true) : t;
  }

  private cast(e: ExprOf<"cast">): BoundExpr {
    const x = this.bind(e.expr);
    const target = withNullable(toLogicalType(e.type), e.try || x.type.nullable);
    const fn = castFunction(x.type, target);
    if (fn === undefined) {
      throw new SqlValidationError(`Cast function cannot convert value of type ${showType(x.type)} to type ${showType(target)}`, e.loc);
    }
    const xe = x.eval;
    if (e.try) {
      return { type: target, constant: x.constant, eval: (f) => {
        const v = xe(f);
        if (v === null) return null;
        try { return fn(v); } catch { return null; }
      } };
    }
    return { type: target, constant: x.constant, eval: (f) => { const v = xe(f); return v === null ? null : fn(v); } };
  }

  private trim(e: ExprOf<"trim">): BoundExpr {
    const s = this.bind(e.source);
    const chars = e.characters === undefined ? undefined : this.bind(e.characters);
    this.expectStrings("TRIM", e.loc, chars === undefined ? [s] : [chars, s]);
    const se = s.eval;
    const ce = chars?.eval ?? (() => " ");
    const left = e.mode !== "TRAILING";
    const right = e.mode !== "LEADING";
    return { type: typed(VARCHAR, nullable(s, ...(chars ? [chars] : []))), constant: s.constant && (chars?.constant ?? true), eval: (f) => {
      const v = se(f);
      if (v === null) return null;
      const c = ce(f);
      if (c === null) return null;
      const str = v as string;
      const set = c as string;
      let i = 0;
      let j = str.length;
      if (left) while (i < j && set.includes(str[i]!)) i++;
      if (right) while (j > i && set.includes(str[j - 1]!)) j--;
      return str.slice(i, j);
    } };
  }

  private expectStrings(fn: string, loc: SourceLoc, args: BoundExpr[]): void {
    if (args.some((a) => !isStringType(a.type) && a.type.kind !== "null")) {
      throw new SqlValidationError(`Cannot apply '${fn}' to arguments of type ${args.map((a) => `<${showType(a.type)}>`).join(", ")}`, loc);
    }
  }

  private expectNumeric(fn: string, loc: SourceLoc, args: BoundExpr[], integer = false): void {
    if (args.some((a) => !(integer ? isIntegerType(a.type) : isNumericType(a.type)) && a.type.kind !== "null")) {
      throw new SqlValidationError(`Cannot apply '${fn}' to arguments of type ${args.map((a) => `<${showType(a.type)}>`).join(", ")}`, loc);
    }
  }

  private call(e: ExprOf<"call">): BoundExpr {
    const name = e.name.map((n) => n.value).join(".").toUpperCase();
    if (e.over !== undefined || e.overWindow !== undefined || e.distinct || e.star || e.filter !== undefined) {
      throw new SqlValidationError(`Aggregate or window function '${name}' is not allowed in a scalar expression`, e.loc);
    }
    if (!FUNCTIONS.includes(name)) {
      const near = nearestName(name, FUNCTIONS);
      throw new SqlValidationError(`No match found for function '${name}'${near === undefined ? "" : `; did you mean '${near}'?`}`, e.loc);
    }
    const args = e.args.map((a) => this.bind(a.value));
    const arity = (min: number, max = min) => {
      if (args.length < min || args.length > max) {
        const want = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
        throw new SqlValidationError(`Invalid number of arguments to function '${name}'. Was expecting ${want} arguments`, e.loc);
      }
    };
    const allConstant = args.every((a) => a.constant);
    const nul = nullable(...args);
    const fn = (type: LogicalType, run: Evaluator): BoundExpr => ({ type, eval: run, constant: allConstant });
    const [a, b, c] = args;
    const ae = a?.eval!, be = b?.eval!, ce = c?.eval!;
    switch (name) {
      case "UPPER": case "LOWER": {
        arity(1); this.expectStrings(name, e.loc, args);
        const up = name === "UPPER";
        return fn(typed(VARCHAR, nul), (f) => { const v = ae(f); return v === null ? null : up ? (v as string).toUpperCase() : (v as string).toLowerCase(); });
      }
      case "TRIM":
        arity(1);
        return this.trim({ kind: "trim", mode: "BOTH", source: e.args[0]!.value, loc: e.loc });
      case "CHAR_LENGTH": case "CHARACTER_LENGTH":
        arity(1); this.expectStrings(name, e.loc, args);
        return fn(typed(INT, nul), (f) => { const v = ae(f); return v === null ? null : (v as string).length; });
      case "SUBSTRING": case "SUBSTR": {
        arity(2, 3); this.expectStrings(name, e.loc, [a!]); this.expectNumeric(name, e.loc, args.slice(1), true);
        const pe = coerce(b!, INT);
        const le = c === undefined ? undefined : coerce(c, INT);
        return fn(typed(VARCHAR, nul), (f) => {
          const s = ae(f) as string | null;
          if (s === null) return null;
          const pos = pe(f) as number | null;
          if (pos === null) return null;
          const len = le === undefined ? MAX_LENGTH : (le(f) as number | null);
          if (len === null) return null;
          if (len < 0) throw new SqlRuntimeError(`SUBSTRING length must not be negative: ${len}`);
          let start = pos > 0 ? pos - 1 : pos < 0 ? s.length + pos : 0;
          const end = len === MAX_LENGTH ? s.length : start + len;
          start = Math.max(start, 0);
          return start >= end ? "" : s.slice(start, end);
        });
      }
      case "CONCAT": {
        arity(1, Infinity); this.expectStrings(name, e.loc, args);
        const evs = args.map((x) => x.eval);
        return fn(typed(VARCHAR, nul), (f) => {
          let out = "";
          for (let i = 0; i < evs.length; i++) { const v = evs[i]!(f); if (v === null) return null; out += v as string; }
          return out;
        });
      }
      case "CONCAT_WS": {
        arity(2, Infinity); this.expectStrings(name, e.loc, args);
        const evs = args.slice(1).map((x) => x.eval);
        return fn(typed(VARCHAR, a!.type.nullable), (f) => {
          const sep = ae(f);
          if (sep === null) return null;
          let out = "";
          let first = true;
          for (let i = 0; i < evs.length; i++) {
            const v = evs[i]!(f);
            if (v === null) continue;
            out += first ? (v as string) : (sep as string) + (v as string);
            first = false;
          }
          return out;
        });
      }
      case "REPLACE":
        arity(3); this.expectStrings(name, e.loc, args);
        return fn(typed(VARCHAR, nul), (f) => {
          const s = ae(f); if (s === null) return null;
          const x = be(f); if (x === null) return null;
          const y = ce(f); if (y === null) return null;
          return (s as string).replaceAll(x as string, y as string);
        });
      case "POSITION":
        arity(2); this.expectStrings(name, e.loc, args);
        return fn(typed(INT, nul), (f) => {
          const x = ae(f); if (x === null) return null;
          const s = be(f); if (s === null) return null;
          return (s as string).indexOf(x as string) + 1;
        });
      case "ABS": {
        arity(1); this.expectNumeric(name, e.loc, args);
        const t = a!.type;
        if (t.kind === "bigint") return fn(t, (f) => { const v = ae(f) as bigint | null; return v === null ? null : BigInt.asIntN(64, v < 0n ? -v : v); });
        if (t.kind === "decimal") return fn(t, (f) => { const v = ae(f) as Decimal | null; return v === null ? null : v.unscaled < 0n ? decimalNegate(v) : v; });
        if (isIntegerType(t)) { const k = t.kind as "int"; return fn(t, (f) => { const v = ae(f) as number | null; return v === null ? null : wrapInteger(k, Math.abs(v)); }); }
        return fn(t, (f) => { const v = ae(f) as number | null; return v === null ? null : Math.abs(v); });
      }
      case "MOD":
        arity(2); this.expectNumeric(name, e.loc, args);
        return arithmetic("%", a!, b!, () => new SqlValidationError(`Cannot apply 'MOD' to arguments of type <${showType(a!.type)}> and <${showType(b!.type)}>`, e.loc));
      case "ROUND": return this.round(e, args, arity);
      case "FLOOR": case "CEIL": case "CEILING": {
        arity(1); this.expectNumeric(name, e.loc, args);
        const floor = name === "FLOOR";
        const t = a!.type;
        if (t.kind === "decimal") {
          const rt = logicalType({ kind: "decimal", precision: t.scale > 0 ? Math.min(38, t.precision - t.scale + 1) : t.precision, scale: 0 }, t.nullable);
          const p = 10n ** BigInt(t.scale);
          return fn(rt, (f) => {
            const v = ae(f) as Decimal | null;
            if (v === null) return null;
            let q = v.unscaled / p;
            const r = v.unscaled % p;
            if (r !== 0n && (floor ? v.unscaled < 0n : v.unscaled > 0n)) q += floor ? -1n : 1n;
            return { unscaled: q, scale: 0 };
          });
        }
        if (t.kind === "float" || t.kind === "double") return fn(t, (f) => { const v = ae(f) as number | null; return v === null ? null : floor ? Math.floor(v) : Math.ceil(v); });
        return a!;
      }
      case "POWER": case "SQRT": {
        arity(name === "POWER" ? 2 : 1); this.expectNumeric(name, e.loc, args);
        const xs = coerce(a!, DOUBLE);
        if (name === "SQRT") return fn(typed(DOUBLE, nul), (f) => { const v = xs(f) as number | null; return v === null ? null : Math.sqrt(v); });
        const ys = coerce(b!, DOUBLE);
        return fn(typed(DOUBLE, nul), (f) => { const x = xs(f) as number | null; if (x === null) return null; const y = ys(f) as number | null; return y === null ? null : Math.pow(x, y); });
      }
      case "COALESCE": {
        arity(1, Infinity);
        const t = withNullable(this.commonOf(args, e.loc, name), args.every((x) => x.type.nullable));
        const evs = args.map((x) => coerce(x, t));
        return fn(t, (f) => { for (let i = 0; i < evs.length; i++) { const v = evs[i]!(f); if (v !== null) return v; } return null; });
      }
      case "NULLIF": {
        arity(2);
        if (commonType(a!.type, b!.type) === undefined) {
          throw new SqlValidationError(`Cannot apply 'NULLIF' to arguments of type <${showType(a!.type)}> and <${showType(b!.type)}>`, e.loc);
        }
        return fn(withNullable(a!.type, true), (f) => { const v = ae(f); return sqlEquals(v, be(f)) === true ? null : v; });
      }
      case "IF": {
        arity(3);
        this.expectBoolean(a!, "IF", e.loc);
        const t = this.commonOf([b!, c!], e.loc, name);
        const te = coerce(b!, t);
        const ee = coerce(c!, t);
        return fn(t, (f) => (ae(f) === true ? te(f) : ee(f)));
      }
      default:
        throw new SqlValidationError(`No match found for function '${name}'`, e.loc);
    }
  }

  private round(e: ExprOf<"call">, args: BoundExpr[], arity: (min: number, max?: number) => void): BoundExpr {
    arity(1, 2);
    this.expectNumeric("ROUND", e.loc, args.slice(0, 1));
    this.expectNumeric("ROUND", e.loc, args.slice(1), true);
    const x = args[0]!;
    const d = args[1];
    if (d !== undefined && !d.constant) throw new SqlValidationError("The second argument of ROUND must be a constant", e.loc);
    const dv = d === undefined ? 0 : Number(d.eval([]) ?? 0);
    const t = x.type;
    const xe = x.eval;
    if (t.kind === "decimal" || isIntegerType(t)) {
      const dt = asDecimalType(t);
      if (dv >= dt.scale) return x;
      const rt: DecimalType = dv < 0 ? { precision: Math.min(38, 1 + dt.precision - dt.scale), scale: 0 } : { precision: 1 + dt.precision - dt.scale + dv, scale: dv };
      if (t.kind === "decimal") {
        return { type: logicalType({ kind: "decimal", ...rt }, t.nullable), constant: x.constant, eval: (f) => {
          const v = xe(f) as Decimal | null;
          return v === null ? null : toDecimalType(toDecimalType(v, { precision: 38, scale: Math.max(0, dv) })!, rt);
        } };
      }
      const p = 10n ** BigInt(-dv);
      const big = t.kind === "bigint";
      return { type: t, constant: x.constant, eval: (f) => {
        const v = xe(f);
        if (v === null) return null;
        const n = big ? (v as bigint) : BigInt(v as number);
        const q = roundHalfUp(n, p) * p;
        return big ? BigInt.asIntN(64, q) : Number(q);
      } };
    }
    return { type: t, constant: x.constant, eval: (f) => {
      const v = xe(f) as number | null;
      if (v === null || !Number.isFinite(v)) return v;
      const r = parseDecimal(String(v))!;
      return decimalToNumber(toDecimalType(r, { precision: 38, scale: Math.max(0, dv) }) ?? r);
    } };
  }
}

function roundHalfUp(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  const twice = (r < 0n ? -r : r) * 2n;
  return twice >= d ? q + (n < 0n ? -1n : 1n) : q;
}

function lengthOf(t: LogicalType): number {
  return isStringType(t) ? t.length : 0;
}

function describeKind(kind: string): string {
  switch (kind) {
    case "star": return "'*'";
    case "inQuery": return "IN with a subquery";
    case "exists": return "EXISTS";
    case "subquery": return "A scalar subquery";
    case "extract": return "EXTRACT";
    case "floorCeil": return "FLOOR/CEIL to a time unit";
    case "row": return "ROW(…)";
    case "array": return "ARRAY[…]";
    case "map": return "MAP[…]";
    case "item": return "Element access […]";
    default: return `'${kind}'`;
  }
}

function constant(type: LogicalType, value: SqlValue): BoundExpr {
  return { type, eval: () => value, constant: true };
}

function numberLiteral(text: string, loc: SourceLoc): BoundExpr {
  if (/[eE]/.test(text)) return constant(DOUBLE, Number(text));
  if (!text.includes(".")) {
    const n = BigInt(text);
    if (n <= 2147483647n) return constant(INT, Number(n));
    if (n <= 9223372036854775807n) return constant(logicalType({ kind: "bigint" }, false), n);
  }
  const d = parseDecimal(text)!;
  const digits = d.unscaled === 0n ? 1 : d.unscaled.toString().length;
  const precision = Math.max(digits, d.scale);
  if (precision > 38) throw new SqlValidationError(`Numeric literal '${text}' is out of range`, loc);
  return constant(logicalType({ kind: "decimal", precision, scale: d.scale }, false), d);
}

function typedLiteral(e: ExprOf<"typedLiteral">): BoundExpr {
  try {
    switch (e.type) {
      case "DATE": return constant(logicalType({ kind: "date" }, false), parseDate(e.value));
      case "TIME": return constant(logicalType({ kind: "time", precision: 0 }, false), parseTime(e.value));
      case "TIMESTAMP": {
        const frac = /\.(\d+)/.exec(e.value)?.[1]?.length ?? 0;
        return constant(logicalType({ kind: "timestamp", precision: Math.max(frac, 0), withLocalTimeZone: false }, false), parseTimestamp(e.value));
      }
      default: throw new SqlValidationError(`${e.type} literals are not supported yet`, e.loc);
    }
  } catch (err) {
    if (err instanceof SqlValidationError) throw err;
    throw new SqlValidationError(`Illegal ${e.type} literal '${e.value}'`, e.loc);
  }
}

/** `+ - * / %` with Flink's result types and overflow behaviour. */
function arithmetic(op: string, l: BoundExpr, r: BoundExpr, mismatch: () => Error): BoundExpr {
  if (op === "+" || op === "-") {
    const shifted = timestampShift(op, l, r) ?? (op === "+" ? timestampShift(op, r, l) : undefined);
    if (shifted !== undefined) return shifted;
  }
  const lt = l.type.kind === "null" ? r.type : l.type;
  const rt = r.type.kind === "null" ? l.type : r.type;
  if (!isNumericType(lt) || !isNumericType(rt)) throw mismatch();
  const isNull = nullable(l, r);
  const c = l.constant && r.constant;
  const le = l.eval;
  const re = r.eval;
  if (lt.kind === "double" || rt.kind === "double" || lt.kind === "float" || rt.kind === "float") {
    const kind = lt.kind === "double" || rt.kind === "double" ? "double" : "float";
    const target = logicalType({ kind }, isNull);
    const x = coerce({ ...l, type: lt }, target);
    const y = coerce({ ...r, type: rt }, target);
    const fr = kind === "float" ? Math.fround : (v: number) => v;
    const k = numberOp(op);
    return { type: target, constant: c, eval: (f) => {
      const a = x(f); if (a === null) return null;
      const b = y(f); if (b === null) return null;
      return fr(k(a as number, b as number));
    } };
  }
  if (lt.kind === "decimal" || rt.kind === "decimal") {
    const da = asDecimalType(lt);
    const db = asDecimalType(rt);
    const res = op === "+" || op === "-" ? additionType(da, db) : op === "*" ? multiplicationType(da, db) : op === "/" ? divisionType(da, db) : moduloType(da, db);
    const toDec = (t: LogicalType, e: Evaluator): Evaluator =>
      t.kind === "decimal" ? e : t.kind === "bigint" ? (f) => { const v = e(f); return v === null ? null : { unscaled: v as bigint, scale: 0 }; }
        : (f) => { const v = e(f); return v === null ? null : { unscaled: BigInt(v as number), scale: 0 }; };
    const x = toDec(lt, le);
    const y = toDec(rt, re);
    const k = op === "+" ? decimalAdd : op === "-" ? decimalSubtract : op === "*" ? decimalMultiply : op === "/" ? decimalDivide : decimalModulo;
    return { type: logicalType({ kind: "decimal", ...res }, isNull), constant: c, eval: (f) => {
      const a = x(f); if (a === null) return null;
      const b = y(f); if (b === null) return null;
      try {
        return k(a as Decimal, b as Decimal, res);
      } catch (err) {
        if (err instanceof DecimalDivisionByZeroError) divZero();
        throw err;
      }
    } };
  }
  const wide = commonType(lt, rt)!;
  const type = withNullable(wide, isNull);
  if (wide.kind === "bigint") {
    const x = coerce({ ...l, type: lt }, wide);
    const y = coerce({ ...r, type: rt }, wide);
    const k = bigintOp(op);
    return { type, constant: c, eval: (f) => {
      const a = x(f); if (a === null) return null;
      const b = y(f); if (b === null) return null;
      return k(a as bigint, b as bigint);
    } };
  }
  const kind = wide.kind as "tinyint" | "smallint" | "int";
  const k = intOp(op, kind);
  return { type, constant: c, eval: (f) => {
    const a = le(f); if (a === null) return null;
    const b = re(f); if (b === null) return null;
    return k(a as number, b as number);
  } };
}

function numberOp(op: string): (a: number, b: number) => number {
  switch (op) {
    case "+": return (a, b) => a + b;
    case "-": return (a, b) => a - b;
    case "*": return (a, b) => a * b;
    case "/": return (a, b) => a / b;
    default: return (a, b) => a % b;
  }
}

function bigintOp(op: string): (a: bigint, b: bigint) => bigint {
  switch (op) {
    case "+": return (a, b) => BigInt.asIntN(64, a + b);
    case "-": return (a, b) => BigInt.asIntN(64, a - b);
    case "*": return (a, b) => BigInt.asIntN(64, a * b);
    case "/": return (a, b) => (b === 0n ? divZero() : BigInt.asIntN(64, a / b));
    default: return (a, b) => (b === 0n ? divZero() : a % b);
  }
}

function intOp(op: string, kind: "tinyint" | "smallint" | "int"): (a: number, b: number) => number {
  switch (op) {
    case "+": return (a, b) => wrapInteger(kind, a + b);
    case "-": return (a, b) => wrapInteger(kind, a - b);
    case "*": return kind === "int" ? Math.imul : (a, b) => wrapInteger(kind, a * b);
    case "/": return (a, b) => (b === 0 ? divZero() : wrapInteger(kind, Math.trunc(a / b)));
    default: return (a, b) => (b === 0 ? divZero() : (a % b) | 0);
  }
}

/** A type as error messages name it: without NOT NULL, as Flink's validator. */
function showType(t: LogicalType): string {
  return typeToString(withNullable(t, true));
}

const DAY_TIME_MS: Partial<Record<string, number>> = { DAY: 86_400_000, HOUR: 3_600_000, MINUTE: 60_000, SECOND: 1000 };

/** `INTERVAL 'n' unit` for one DAY/HOUR/MINUTE/SECOND unit (milliseconds); other forms are not supported yet. */
function intervalLiteral(e: ExprOf<"interval">): BoundExpr {
  const ms = DAY_TIME_MS[e.from];
  if (e.to !== undefined || ms === undefined) {
    throw new SqlValidationError(`INTERVAL ${e.from}${e.to === undefined ? "" : " TO " + e.to} is not supported in scalar expressions yet`, e.loc);
  }
  const text = e.value.trim();
  if (!(e.from === "SECOND" ? /^[+-]?\d+(\.\d{1,3})?$/ : /^[+-]?\d+$/).test(text)) {
    throw new SqlValidationError(`Illegal interval literal '${e.value}' for INTERVAL ${e.from}`, e.loc);
  }
  const value = Math.round(Number(text) * ms) * (e.negative ? -1 : 1);
  return constant(logicalType({ kind: "interval", from: e.from }, false), value);
}

/** `timestamp ± day-time interval`, or undefined when the operands are not that. */
function timestampShift(op: string, ts: BoundExpr, iv: BoundExpr): BoundExpr | undefined {
  if (ts.type.kind !== "timestamp" || iv.type.kind !== "interval" || DAY_TIME_MS[iv.type.from] === undefined) return undefined;
  const te = ts.eval;
  const ie = iv.eval;
  const sign = op === "-" ? -1 : 1;
  return { type: withNullable(ts.type, nullable(ts, iv)), constant: ts.constant && iv.constant, eval: (f) => {
    const t = te(f); if (t === null) return null;
    const i = ie(f); if (i === null) return null;
    return (t as number) + sign * (i as number);
  } };
}
