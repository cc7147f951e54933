/**
 * The scalar expression layer: name resolution, type inference with Flink's
 * rules and compilation to closures over a row's field values.
 *
 * Names: a column is `a` (unique among the input's fields, else `Column 'a'
 * is ambiguous`), `t.a` (the field `a` of the FROM item named or aliased `t`,
 * see {@link RowType.qualifiers}) or `a.f` / `t.a.f` (field `f` of the ROW
 * column `a`).
 *
 * Typing: numeric promotion TINYINT < SMALLINT < INT < BIGINT < DECIMAL <
 * FLOAT < DOUBLE (an integer meets a DECIMAL as DECIMAL(3|5|10|19, 0), then
 * the `decimal.ts` rules), nullability propagates (a result is NOT NULL only
 * when every input is), comparisons and CASE/COALESCE/IN/BETWEEN take the
 * common type of their operands, `||` needs two strings. Errors are
 * {@link SqlValidationError}s located in the SQL text.
 *
 * Functions: the built-in ones (`functions/`, one file per family), then the
 * user-defined ones of {@link BindOptions.functions}.
 *
 * Evaluation: three-valued logic; INT/SMALLINT/TINYINT and BIGINT
 * arithmetic wraps on overflow as Flink's generated Java does; BIGINT is a
 * JavaScript number when it is a safe integer, else a bigint (see
 * `types/bigint-value.ts`), and DECIMAL a {@link Decimal} (never a binary float);
 * integer and decimal division (and `%`) by zero throws
 * {@link SqlRuntimeError}, FLOAT/DOUBLE follow IEEE (Infinity, NaN), as Java.
 * Closures allocate nothing per call beyond their result (BIGINT beyond 2^53,
 * DECIMAL and string results are new values; a LIKE with a pattern that is not a constant
 * caches its last compiled pattern).
 */
import type { Expr, ExprOf, SourceLoc, TimeUnit } from "../sql/ast.ts";
import { bigintOf, negateInt64 } from "../types/bigint-value.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { decimalNegate, parseDecimal, type Decimal } from "../types/decimal.ts";
import { sqlCompare, sqlEquals, sqlNotDistinct } from "../types/sql-compare.ts";
import { parseDate, parseTime, parseTimestamp } from "../types/temporal.ts";
import { parseTimestampLtz } from "../types/time-zone.ts";
import { castFunction, wrapInteger } from "./cast.ts";
import { likeToRegExp } from "./like-pattern.ts";
import { commonType, isIntegerType, isNumericType, isStringType, logicalType, withNullable, type RowType } from "./type-rules.ts";
import { toLogicalType, type LogicalType } from "../types/logical-type.ts";
import { MAX_LENGTH } from "../sql/parse-type.ts";
import { nearestName } from "../validation/nearest-name.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { arithmetic, DAY_TIME_MS } from "./arithmetic.ts";
import {
  anyNullable as nullable, bindContext, coerce, constantExpr as constant, isImplicitlyCastable, showType,
  type BindContext, type BindOptions, type BoundExpr, type Evaluator, type ResolvedScalarFunction,
} from "./bound-expr.ts";
import { builtinFunction, builtinFunctionNames } from "./functions/builtin-functions.ts";
import { bindArrayConstructor, bindItem, bindMapConstructor, bindRowConstructor } from "./functions/collection-functions.ts";
import { bindExtract, bindFloorCeil } from "./functions/temporal-functions.ts";
import { trimChars } from "./functions/string-functions.ts";
import { SqlRuntimeError } from "./sql-runtime-error.ts";
import { strictCall, withCode, type CompareOperator } from "./expr-code.ts";
import { copyPlainData } from "../../state/plain-copy.ts";

export type { BindOptions, BoundExpr, Evaluator } from "./bound-expr.ts";

/**
 * Infers the type of `expr` over rows of `rowType`.
 *
 * @throws SqlValidationError for unknown columns/functions and type errors.
 * @example
 * ```ts
 * showType(inferType(expr("a + 1.5"), { names: ["a"], types: [logicalType({ kind: "int" })] })); // "DECIMAL(12, 1)"
 * ```
 */
export function inferType(expr: Expr, rowType: RowType, options?: BindOptions): LogicalType {
  return bindExpression(expr, rowType, options).type;
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
export function compile(expr: Expr, rowType: RowType, options?: BindOptions): Evaluator {
  return bindExpression(expr, rowType, options).eval;
}

/**
 * Resolves names, type-checks and compiles `expr` in one pass.
 *
 * @throws SqlValidationError for unknown or ambiguous columns, unknown
 *   functions (with the nearest name suggested) and type errors.
 * @example
 * ```ts
 * const rowType = { names: ["id", "id"], types: [INT, INT], qualifiers: ["o", "c"] };
 * const b = bindExpression(parseExpr("o.id + 1"), rowType, { timeZone: "Asia/Shanghai" });
 * b.eval([41, 7]); // 42
 * ```
 */
export function bindExpression(expr: Expr, rowType: RowType, options?: BindOptions): BoundExpr {
  return new Binder(rowType, bindContext(options)).bind(expr);
}

const BOOLEAN = logicalType({ kind: "boolean" }, false);
const INT = logicalType({ kind: "int" }, false);
const DOUBLE = logicalType({ kind: "double" }, false);
const VARCHAR = logicalType({ kind: "varchar", length: MAX_LENGTH }, false);

function typed(t: LogicalType, isNullable: boolean): LogicalType {
  return withNullable(t, isNullable);
}

const TIME_UNITS = new Set<string>(["YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND"]);

class Binder {
  constructor(private readonly rowType: RowType, private readonly context: BindContext) {}

  bind(e: Expr): BoundExpr {
    switch (e.kind) {
      case "column": return this.column(e);
      case "number": return numberLiteral(e.text, e.loc);
      case "string": return constant(logicalType({ kind: "char", length: Math.max(1, e.value.length) }, false), e.value);
      case "boolean": return constant(BOOLEAN, e.value);
      case "null": return constant({ kind: "null", nullable: true }, null);
      case "typedLiteral": return typedLiteral(e, this.context.timeZone);
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
      case "extract": return bindExtract(e.unit, this.bind(e.source), e.loc, this.context);
      case "floorCeil": return bindFloorCeil(e, this.bind(e.expr), this.context);
      case "array": return bindArrayConstructor(e.values.map((v) => this.bind(v)), e.loc, this.context);
      case "map": return bindMapConstructor(e.entries.map((v) => this.bind(v)), e.loc, this.context);
      case "row": return bindRowConstructor(e.values.map((v) => this.bind(v)));
      case "item": return bindItem(this.bind(e.base), this.bind(e.index), e.loc, this.context);
      default: throw new SqlValidationError(`${describeKind(e.kind)} is not supported in scalar expressions yet`, e.loc);
    }
  }

  private column(e: ExprOf<"column">): BoundExpr {
    const [first, ...rest] = e.names;
    const { names, qualifiers } = this.rowType;
    if (rest.length > 0 && qualifiers?.includes(first!.value)) {
      const [name, ...path] = rest;
      let i = -1;
      for (let k = 0; k < names.length; k++) {
        if (qualifiers[k] !== first!.value || names[k] !== name!.value) continue;
        if (i >= 0) throw new SqlValidationError(`Column '${first!.value}.${name!.value}' is ambiguous`, name!.loc);
        i = k;
      }
      if (i < 0) {
        const own = names.filter((_, k) => qualifiers[k] === first!.value);
        const near = nearestName(name!.value, own);
        throw new SqlValidationError(`Column '${name!.value}' not found in table '${first!.value}'${near === undefined ? "" : `; did you mean '${near}'?`}`, name!.loc);
      }
      return this.fieldAccess(this.fieldRef(i), path);
    }
    const i = this.unqualified(first!);
    if (i < 0) {
      if (rest.length > 0) {
        const tables = [...new Set((qualifiers ?? []).filter((q): q is string => q !== undefined))];
        const near = nearestName(first!.value, tables);
        throw new SqlValidationError(`Table '${first!.value}' not found${near === undefined ? "" : `; did you mean '${near}'?`}`, first!.loc);
      }
      const near = nearestName(first!.value, names);
      throw new SqlValidationError(`Column '${first!.value}' not found in any table${near === undefined ? "" : `; did you mean '${near}'?`}`, first!.loc);
    }
    return this.fieldAccess(this.fieldRef(i), rest);
  }

  /** The position of the one field called `id`; -1 when none; an error when fields of two inputs share the name. */
  private unqualified(id: { value: string; loc: SourceLoc }): number {
    const { names } = this.rowType;
    const i = names.indexOf(id.value);
    if (i >= 0 && names.indexOf(id.value, i + 1) >= 0) throw new SqlValidationError(`Column '${id.value}' is ambiguous`, id.loc);
    return i;
  }

  private fieldRef(i: number): BoundExpr {
    return { type: this.rowType.types[i]!, eval: withCode((f) => f[i]!, { op: "field", index: i }), constant: false };
  }

  /** `x.f.g`: fields of ROW values; NULL when a row on the way is NULL. */
  private fieldAccess(x: BoundExpr, path: readonly { value: string; loc: SourceLoc }[]): BoundExpr {
    let cur = x;
    for (const p of path) {
      const t = cur.type;
      if (t.kind !== "row") throw new SqlValidationError(`Cannot access field '${p.value}' of a value of type <${showType(t)}>: it is not a ROW`, p.loc);
      const k = t.fields.findIndex((fl) => fl.name === p.value);
      if (k < 0) {
        const near = nearestName(p.value, t.fields.map((fl) => fl.name));
        throw new SqlValidationError(`Unknown field '${p.value}' of <${showType(t)}>${near === undefined ? "" : `; did you mean '${near}'?`}`, p.loc);
      }
      const e = cur.eval;
      cur = { type: withNullable(t.fields[k]!.type, t.nullable || t.fields[k]!.type.nullable), constant: cur.constant, eval: withCode((f) => {
        const r = e(f) as SqlValue[] | null;
        return r === null ? null : r[k]!;
      }, { op: "rowField", row: e, index: k }) };
    }
    return cur;
  }

  private unary(e: ExprOf<"unary">): BoundExpr {
    const x = this.bind(e.operand);
    const t = x.type;
    const ev = x.eval;
    if (e.op === "NOT") {
      this.expectBoolean(x, "NOT", e.loc);
      return { type: typed(BOOLEAN, t.nullable), eval: withCode((f) => { const v = ev(f); return v === null ? null : !v; }, { op: "not", x: ev }), constant: x.constant };
    }
    if (!isNumericType(t) && t.kind !== "null") {
      throw new SqlValidationError(`Cannot apply '${e.op}' to arguments of type <${showType(t)}>`, e.loc);
    }
    if (e.op === "+") return x;
    let run: Evaluator;
    switch (t.kind) {
      case "tinyint": case "smallint": case "int": { const k = t.kind; run = strictCall((v: number) => wrapInteger(k, -v), ev); break; }
      case "bigint": run = strictCall(negateInt64, ev); break;
      case "decimal": run = strictCall(decimalNegate, ev); break;
      default: run = strictCall((v: number) => -v, ev);
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
          return { type, constant: c, eval: withCode((f) => {
            const a = le(f);
            if (a === false) return false;
            const b = re(f);
            if (b === false) return false;
            return a === null || b === null ? null : true;
          }, { op: "and", l: le, r: re }) };
        }
        return { type, constant: c, eval: withCode((f) => {
          const a = le(f);
          if (a === true) return true;
          const b = re(f);
          if (b === true) return true;
          return a === null || b === null ? null : false;
        }, { op: "or", l: le, r: re }) };
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
    const integers = isIntegerType(l.type) && isIntegerType(r.type);
    const primitive = l.type.kind === r.type.kind || integers;
    if (primitive && !["decimal", "array", "multiset", "binary", "varbinary"].includes(l.type.kind)) {
      // A BIGINT is a number or, beyond 2^53 (or read from old state), a bigint: `==` compares those exactly.
      if (integers && (l.type.kind === "bigint" || r.type.kind === "bigint") && (op === "=" || op === "<>")) {
        return op === "="
          ? withCode((f) => { const a = le(f); if (a === null) return null; const b = re(f); return b === null ? null : a == b; }, { op: "compare", operator: "==", l: le, r: re })
          : withCode((f) => { const a = le(f); if (a === null) return null; const b = re(f); return b === null ? null : a != b; }, { op: "compare", operator: "!=", l: le, r: re });
      }
      const code = (operator: CompareOperator) => ({ op: "compare", operator, l: le, r: re }) as const;
      switch (op) {
        case "=": return withCode((f) => { const a = le(f); if (a === null) return null; const b = re(f); return b === null ? null : a === b; }, code("==="));
        case "<>": return withCode((f) => { const a = le(f); if (a === null) return null; const b = re(f); return b === null ? null : a !== b; }, code("!=="));
        case "<": return withCode((f) => { const a = le(f); if (a === null) return null; const b = re(f); return b === null ? null : (a as number) < (b as number); }, code("<"));
        case ">": return withCode((f) => { const a = le(f); if (a === null) return null; const b = re(f); return b === null ? null : (a as number) > (b as number); }, code(">"));
        case "<=": return withCode((f) => { const a = le(f); if (a === null) return null; const b = re(f); return b === null ? null : (a as number) <= (b as number); }, code("<="));
        default: return withCode((f) => { const a = le(f); if (a === null) return null; const b = re(f); return b === null ? null : (a as number) >= (b as number); }, code(">="));
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
    return { type: BOOLEAN, constant: x.constant, eval: withCode((f) => (ev(f) === want) !== not, { op: "is", x: ev, want, not }) };
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
      const coerced = coerce(x, ct!);
      // the set holds canonical BIGINTs; a value read from old state may be a bigint of a safe integer
      const xe: Evaluator = ct!.kind === "bigint" ? (f) => { const v = coerced(f); return typeof v === "bigint" ? bigintOf(v) : v; } : coerced;
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
    const ee = otherwise === undefined ? withCode(() => null, { op: "literal", value: null }) : coerce(otherwise, result);
    return { type: result, constant: [...conds, ...branches].every((b) => b.constant) && (operand?.constant ?? true), eval: withCode((f) => {
      for (let i = 0; i < ce.length; i++) if (ce[i]!(f) === true) return te[i]!(f);
      return ee(f);
    }, { op: "case", whens: ce.map((c, i) => [c, te[i]!] as const), otherwise: ee }) };
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
    const fn = castFunction(x.type, target, this.context.timeZone);
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
    return { type: target, constant: x.constant, eval: strictCall(fn, xe) };
  }

  private trim(e: ExprOf<"trim">): BoundExpr {
    const s = this.bind(e.source);
    const chars = e.characters === undefined ? undefined : this.bind(e.characters);
    const args = chars === undefined ? [s] : [chars, s];
    if (args.some((a) => !isStringType(a.type) && a.type.kind !== "null")) {
      throw new SqlValidationError(`Cannot apply 'TRIM' to arguments of type ${args.map((a) => `<${showType(a.type)}>`).join(", ")}`, e.loc);
    }
    const se = s.eval;
    const ce = chars?.eval ?? (() => " ");
    const left = e.mode !== "TRAILING";
    const right = e.mode !== "LEADING";
    return { type: typed(VARCHAR, nullable(s, ...(chars ? [chars] : []))), constant: s.constant && (chars?.constant ?? true), eval: (f) => {
      const v = se(f);
      if (v === null) return null;
      const c = ce(f);
      if (c === null) return null;
      return trimChars(v as string, c as string, left, right);
    } };
  }

  private call(e: ExprOf<"call">): BoundExpr {
    const written = e.name.map((n) => n.value).join(".");
    const name = written.toUpperCase();
    if (e.over !== undefined || e.overWindow !== undefined || e.distinct || e.star || e.filter !== undefined) {
      throw new SqlValidationError(`Aggregate or window function '${name}' is not allowed in a scalar expression`, e.loc);
    }
    const builtin = builtinFunction(name);
    const udf = builtin === undefined ? this.context.functions?.lookup(written) : undefined;
    if (builtin === undefined && udf === undefined) {
      const near = nearestName(name, [...builtinFunctionNames(), ...[...(this.context.functions?.names() ?? [])].map((n) => n.toUpperCase())]);
      throw new SqlValidationError(`No match found for function '${name}'${near === undefined ? "" : `; did you mean '${near}'?`}`, e.loc);
    }
    if (udf !== undefined) return this.userFunction(udf, e);
    const fn = builtin!;
    let argExprs = e.args.map((a) => a.value);
    let unit: TimeUnit | undefined;
    if (fn.unitFirst === true && argExprs.length > 0) {
      const u = argExprs[0]!;
      const text = u.kind === "column" && u.names.length === 1 ? u.names[0]!.value.toUpperCase() : undefined;
      if (text === undefined || !TIME_UNITS.has(text)) throw new SqlValidationError(`The first argument of ${name} must be a time unit such as DAY, got ${u.kind === "column" ? `'${u.names.map((n) => n.value).join(".")}'` : "an expression"}`, u.loc);
      unit = text as TimeUnit;
      argExprs = argExprs.slice(1);
    }
    const [min, max] = fn.arity;
    if (argExprs.length < min || argExprs.length > max) {
      const shift = fn.unitFirst === true ? 1 : 0; // the unit counts as an argument in the message
      const want = min === max ? `${min + shift}` : max === Infinity ? `at least ${min + shift}` : `${min + shift} to ${max + shift}`;
      throw new SqlValidationError(`Invalid number of arguments to function '${name}'. Was expecting ${want} arguments`, e.loc);
    }
    const args = argExprs.map((a) => this.bind(a));
    return fn.bind({ name, args, loc: e.loc, context: this.context, ...(unit === undefined ? {} : { unit }) });
  }

  /** A user-defined scalar function: arguments checked against (and implicitly cast to) its declared types. */
  private userFunction(fn: ResolvedScalarFunction, e: ExprOf<"call">): BoundExpr {
    const args = e.args.map((a) => this.bind(a.value));
    const declared = fn.argumentTypes;
    let evs = args.map((a) => a.eval);
    if (declared !== undefined) {
      const mismatch = () => new SqlValidationError(
        `Cannot apply '${fn.name}' to arguments of type ${args.map((a) => `<${showType(a.type)}>`).join(", ") || "()"}; it takes ${declared.map((t) => `<${showType(t)}>`).join(", ") || "()"}`,
        e.loc,
      );
      if (declared.length !== args.length) throw mismatch();
      evs = args.map((a, i) => {
        if (!isImplicitlyCastable(a.type, declared[i]!)) throw mismatch();
        return coerce(a, withNullable(declared[i]!, true), this.context.timeZone);
      });
    }
    // Object semantics: eval may mutate what it receives (arrays, maps, rows, decimals) without effect on the input row.
    evs = evs.map((e) => (f: SqlValue[]) => { const v = e(f); return typeof v === "object" && v !== null ? copyPlainData(v) : v; });
    const n = evs.length;
    const name = fn.name;
    return { type: fn.resultType, constant: fn.deterministic && args.every((a) => a.constant), eval: (f) => {
      const values: SqlValue[] = new Array(n);
      for (let i = 0; i < n; i++) values[i] = evs[i]!(f);
      const r = fn.invoke(values);
      if (r === undefined) throw new SqlRuntimeError(`Function '${name}' returned undefined; return null for SQL NULL`);
      return r;
    } };
  }
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
    default: return `'${kind}'`;
  }
}


function numberLiteral(text: string, loc: SourceLoc): BoundExpr {
  if (/[eE]/.test(text)) return constant(DOUBLE, Number(text));
  if (!text.includes(".")) {
    const n = BigInt(text);
    // the text may carry its sign (a negative literal folded by the parser)
    if (n >= -2147483648n && n <= 2147483647n) return constant(INT, Number(n));
    if (n >= -9223372036854775808n && n <= 9223372036854775807n) return constant(logicalType({ kind: "bigint" }, false), bigintOf(n));
  }
  const d = parseDecimal(text)!;
  const digits = d.unscaled === 0n ? 1 : d.unscaled.toString().length;
  const precision = Math.max(digits, d.scale);
  if (precision > 38) throw new SqlValidationError(`Numeric literal '${text}' is out of range`, loc);
  return constant(logicalType({ kind: "decimal", precision, scale: d.scale }, false), d);
}

function typedLiteral(e: ExprOf<"typedLiteral">, timeZone: string): BoundExpr {
  try {
    switch (e.type) {
      case "DATE": return constant(logicalType({ kind: "date" }, false), parseDate(e.value));
      case "TIME": return constant(logicalType({ kind: "time", precision: 0 }, false), parseTime(e.value));
      case "TIMESTAMP": {
        const frac = /\.(\d+)/.exec(e.value)?.[1]?.length ?? 0;
        return constant(logicalType({ kind: "timestamp", precision: Math.max(frac, 0), withLocalTimeZone: false }, false), parseTimestamp(e.value));
      }
      case "TIMESTAMP_LTZ": {
        const frac = /\.(\d+)/.exec(e.value)?.[1]?.length ?? 0;
        return constant(logicalType({ kind: "timestamp", precision: Math.max(frac, 0), withLocalTimeZone: true }, false), parseTimestampLtz(e.value.trim(), timeZone));
      }
    }
  } catch (err) {
    if (err instanceof SqlValidationError) throw err;
    throw new SqlValidationError(`Illegal ${e.type} literal '${e.value}'`, e.loc);
  }
}

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
