/**
 * Expressions by precedence climbing, loosest first: OR, AND, NOT,
 * comparisons and predicates (`IS`, `BETWEEN`, `IN`, `LIKE`), `||`, `+ -`,
 * `* / %`, unary sign, then primaries (literals, names, calls, CASE, CAST, …).
 */
import type { BinaryOp, Expr, ExprOf, FrameBound, FunctionArg, Identifier, OrderItem, WindowSpec } from "./ast.ts";
import type { SourceLoc } from "./lexer.ts";
import { isQueryStart, parseQuery } from "./parse-query.ts";
import { parseDataType, parseTimeUnit } from "./parse-type.ts";
import type { TokenCursor } from "./token-cursor.ts";

const COMPARISONS = new Set(["=", "<>", "!=", "<", ">", "<=", ">="]);

/** Functions written without parentheses. */
const NILADIC = new Set(["CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME", "LOCALTIME", "LOCALTIMESTAMP", "CURRENT_ROW_TIMESTAMP"]);

/** Reserved words that are also function names when followed by `(`. */
const RESERVED_FUNCTIONS = new Set(["LEFT", "RIGHT", "INSERT", "IF"]);

/** Parses an expression. */
export function parseExpression(c: TokenCursor): Expr {
  return c.nested(() => parseOr(c));
}

function binary(op: BinaryOp, left: Expr, right: Expr): Expr {
  return { kind: "binary", op, left, right, loc: left.loc };
}

function parseOr(c: TokenCursor): Expr {
  let e = parseAnd(c);
  while (c.acceptKeyword("OR")) e = binary("OR", e, parseAnd(c));
  return e;
}

function parseAnd(c: TokenCursor): Expr {
  let e = parseNot(c);
  while (c.acceptKeyword("AND")) e = binary("AND", e, parseNot(c));
  return e;
}

function parseNot(c: TokenCursor): Expr {
  const loc = c.loc;
  if (c.acceptKeyword("NOT")) return { kind: "unary", op: "NOT", operand: c.nested(() => parseNot(c)), loc };
  return parseComparison(c);
}

function parseComparison(c: TokenCursor): Expr {
  let e = parseConcat(c);
  for (;;) {
    const t = c.peek();
    if (t.kind === "op" && COMPARISONS.has(t.text)) {
      c.next();
      const op = (t.text === "!=" ? "<>" : t.text) as BinaryOp;
      e = binary(op, e, parseConcat(c));
      continue;
    }
    if (c.acceptKeyword("IS")) {
      const not = c.acceptKeyword("NOT");
      const k = c.keyword();
      if (k === "NULL" || k === "TRUE" || k === "FALSE" || k === "UNKNOWN") {
        c.next();
        e = { kind: "is", operand: e, not, test: k, loc: e.loc };
        continue;
      }
      if (k === "DISTINCT") {
        c.next();
        c.expectKeyword("FROM");
        e = { kind: "isDistinctFrom", left: e, right: parseConcat(c), not, loc: e.loc };
        continue;
      }
      throw c.expected("NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM");
    }
    const negated = c.isKeyword("NOT") && ["BETWEEN", "IN", "LIKE", "SIMILAR"].includes(c.keyword(1) ?? "");
    if (negated) c.next();
    if (c.acceptKeyword("BETWEEN")) {
      let symmetric = false;
      if (c.acceptKeyword("SYMMETRIC")) symmetric = true;
      else c.acceptKeyword("ASYMMETRIC");
      const low = parseConcat(c);
      c.expectKeyword("AND");
      const high = parseConcat(c);
      e = { kind: "between", operand: e, not: negated, low, high, symmetric, loc: e.loc };
      continue;
    }
    if (c.acceptKeyword("IN")) {
      if (!c.isOp("(")) throw c.expected("'('");
      if (isQueryStart(c, 1)) {
        c.next();
        const query = parseQuery(c);
        c.expectOp(")");
        e = { kind: "inQuery", operand: e, not: negated, query, loc: e.loc };
      } else {
        e = { kind: "inList", operand: e, not: negated, list: c.parenList(() => parseExpression(c)), loc: e.loc };
      }
      continue;
    }
    const similar = c.isKeyword("SIMILAR");
    if (c.acceptKeyword("LIKE") || c.acceptKeywords("SIMILAR", "TO")) {
      const pattern = parseConcat(c);
      const escape = c.acceptKeyword("ESCAPE") ? parseConcat(c) : undefined;
      e = escape === undefined
        ? { kind: "like", operand: e, not: negated, pattern, similar, loc: e.loc }
        : { kind: "like", operand: e, not: negated, pattern, escape, similar, loc: e.loc };
      continue;
    }
    if (negated || c.acceptKeyword("NOT")) throw c.expected("BETWEEN, IN, LIKE or SIMILAR TO after NOT");
    return e;
  }
}

function parseConcat(c: TokenCursor): Expr {
  let e = parseAdditive(c);
  while (c.acceptOp("||")) e = binary("||", e, parseAdditive(c));
  return e;
}

/** An expression at the `+ -` level: no comparisons or boolean operators (used for window frame offsets). */
export function parseAdditive(c: TokenCursor): Expr {
  let e = parseMultiplicative(c);
  for (;;) {
    if (c.acceptOp("+")) e = binary("+", e, parseMultiplicative(c));
    else if (c.acceptOp("-")) e = binary("-", e, parseMultiplicative(c));
    else return e;
  }
}

function parseMultiplicative(c: TokenCursor): Expr {
  let e = parseUnary(c);
  for (;;) {
    const t = c.peek();
    if (t.kind === "op" && (t.text === "*" || t.text === "/" || t.text === "%")) {
      c.next();
      e = binary(t.text, e, parseUnary(c));
    } else return e;
  }
}

function parseUnary(c: TokenCursor): Expr {
  const loc = c.loc;
  if (c.acceptOp("-")) {
    const operand = c.nested(() => parseUnary(c));
    if (operand.kind === "number" && !operand.text.startsWith("-")) return { kind: "number", text: `-${operand.text}`, loc };
    return { kind: "unary", op: "-", operand, loc };
  }
  if (c.acceptOp("+")) return { kind: "unary", op: "+", operand: c.nested(() => parseUnary(c)), loc };
  let e = parsePrimary(c);
  while (c.acceptOp("[")) {
    const index = parseExpression(c);
    c.expectOp("]");
    e = { kind: "item", base: e, index, loc: e.loc };
  }
  return e;
}

function parsePrimary(c: TokenCursor): Expr {
  const t = c.peek();
  const loc = t.loc;
  switch (t.kind) {
    case "number":
      c.next();
      return { kind: "number", text: t.text, loc };
    case "string":
      c.next();
      return { kind: "string", value: t.value, loc };
    case "quoted":
      return parseNameOrCall(c);
    case "op":
      if (t.text === "(") return parseParenthesized(c);
      throw c.expected("an expression");
    case "eof":
      throw c.expected("an expression");
    case "ident":
      break;
  }
  const k = t.text.toUpperCase();
  switch (k) {
    case "NULL":
      c.next();
      return { kind: "null", loc };
    case "TRUE":
    case "FALSE":
      c.next();
      return { kind: "boolean", value: k === "TRUE", loc };
    case "CASE":
      return parseCase(c);
    case "CAST":
    case "TRY_CAST": {
      c.next();
      c.expectOp("(");
      const expr = parseExpression(c);
      c.expectKeyword("AS");
      const type = parseDataType(c);
      c.expectOp(")");
      return { kind: "cast", expr, type, try: k === "TRY_CAST", loc };
    }
    case "EXISTS": {
      c.next();
      if (!c.isOp("(") || !isQueryStart(c, 1)) throw c.expected("'(' and a subquery");
      c.next();
      const query = parseQuery(c);
      c.expectOp(")");
      return { kind: "exists", query, loc };
    }
    case "INTERVAL":
      return parseInterval(c);
    case "DATE":
    case "TIME":
    case "TIMESTAMP":
    case "TIMESTAMP_LTZ":
      if (c.peek(1).kind === "string") {
        c.next();
        return { kind: "typedLiteral", type: k, value: c.string(), loc };
      }
      break;
    case "EXTRACT": {
      if (!c.isOp("(", 1)) break;
      c.next();
      c.next();
      const unit = parseTimeUnit(c);
      c.expectKeyword("FROM");
      const source = parseExpression(c);
      c.expectOp(")");
      return { kind: "extract", unit, source, loc };
    }
    case "POSITION":
    case "SUBSTRING":
    case "TRIM": {
      if (!c.isOp("(", 1)) break;
      const special = parseKeywordArguments(c, k);
      if (special !== undefined) return special;
      break;
    }
    case "FLOOR":
    case "CEIL":
    case "CEILING": {
      if (!c.isOp("(", 1)) break;
      c.next();
      c.next();
      const expr = parseExpression(c);
      const fn = k === "FLOOR" ? "FLOOR" : "CEIL";
      if (c.acceptKeyword("TO")) {
        const unit = parseTimeUnit(c);
        c.expectOp(")");
        return { kind: "floorCeil", fn, expr, unit, loc };
      }
      c.expectOp(")");
      return { kind: "call", name: [{ value: t.text, quoted: false, loc }], args: [{ value: expr }], distinct: false, star: false, loc };
    }
    case "ROW":
      if (!c.isOp("(", 1)) break;
      c.next();
      c.next();
      if (c.acceptOp(")")) return { kind: "row", values: [], loc };
      {
        const values = c.commaList(() => parseExpression(c));
        c.expectOp(")");
        return { kind: "row", values, loc };
      }
    case "ARRAY":
    case "MAP":
      if (!c.isOp("[", 1)) break;
      c.next();
      c.next();
      {
        const values = c.isOp("]") ? [] : c.commaList(() => parseExpression(c));
        c.expectOp("]");
        return k === "ARRAY" ? { kind: "array", values, loc } : { kind: "map", entries: values, loc };
      }
    case "NOT":
      // reached through `a = NOT b`: NOT binds looser than comparisons
      throw c.expected("an expression");
    case "SELECT":
    case "WITH":
    case "VALUES":
      throw c.error(`a subquery must be in parentheses: expected an expression but found '${t.text}'`);
  }
  if (NILADIC.has(k) && !c.isOp("(", 1)) {
    c.next();
    return { kind: "call", name: [{ value: t.text, quoted: false, loc }], args: [], distinct: false, star: false, loc };
  }
  if (RESERVED_FUNCTIONS.has(k) && c.isOp("(", 1)) {
    c.next();
    return parseCall(c, [{ value: t.text, quoted: false, loc }], loc);
  }
  return parseNameOrCall(c);
}

/**
 * The SQL-standard forms `POSITION(a IN b)`, `SUBSTRING(s FROM i [FOR n])` and
 * `TRIM([BOTH|LEADING|TRAILING] [chars] FROM s)`; undefined (nothing consumed)
 * when the call is written with commas.
 */
function parseKeywordArguments(c: TokenCursor, k: "POSITION" | "SUBSTRING" | "TRIM"): Expr | undefined {
  const nameToken = c.peek();
  const name = [{ value: nameToken.text, quoted: false, loc: nameToken.loc }];
  const call = (args: Expr[]): Expr => ({ kind: "call", name, args: args.map((value) => ({ value })), distinct: false, star: false, loc: nameToken.loc });
  if (k === "TRIM") {
    const mode = c.keyword(2);
    const hasMode = mode === "BOTH" || mode === "LEADING" || mode === "TRAILING";
    if (!hasMode && !c.isKeyword("FROM", 2) && !hasFromBeforeClose(c)) return undefined;
    c.next();
    c.next();
    if (hasMode) c.next();
    const characters = c.isKeyword("FROM") ? undefined : parseConcat(c);
    c.expectKeyword("FROM");
    const source = parseExpression(c);
    c.expectOp(")");
    const trim: ExprOf<"trim"> = { kind: "trim", mode: hasMode ? (mode as "BOTH") : "BOTH", source, loc: nameToken.loc };
    if (characters !== undefined) trim.characters = characters;
    return trim;
  }
  c.next();
  c.next();
  const first = parseConcat(c);
  if (k === "POSITION") {
    if (!c.acceptKeyword("IN")) throw c.expected("IN");
    const second = parseExpression(c);
    c.expectOp(")");
    return call([first, second]);
  }
  if (!c.acceptKeyword("FROM")) {
    // SUBSTRING(s, i, n): an ordinary call
    const args = [first];
    while (c.acceptOp(",")) args.push(parseExpression(c));
    if (!c.acceptOp(")")) throw c.expected("',', FROM or ')'");
    return call(args);
  }
  const args = [first, parseExpression(c)];
  if (c.acceptKeyword("FOR")) args.push(parseExpression(c));
  c.expectOp(")");
  return call(args);
}

/** Whether a FROM appears inside the parentheses that start one token ahead, at their top level. */
function hasFromBeforeClose(c: TokenCursor): boolean {
  let depth = 0;
  for (let i = 1; ; i++) {
    const t = c.peek(i);
    if (t.kind === "eof") return false;
    if (t.kind === "op" && t.text === "(") depth++;
    else if (t.kind === "op" && t.text === ")" && --depth === 0) return false;
    else if (depth === 1 && c.isKeyword("FROM", i)) return true;
  }
}

/** `( expr )`, `( a, b )` (a row), or `( query )` (a scalar subquery). */
function parseParenthesized(c: TokenCursor): Expr {
  const loc = c.loc;
  if (isQueryStart(c, 1)) {
    c.next();
    const query = parseQuery(c);
    c.expectOp(")");
    return { kind: "subquery", query, loc };
  }
  c.next();
  const first = parseExpression(c);
  if (c.acceptOp(")")) return first;
  if (!c.isOp(",")) throw c.expected("')'");
  const values = [first];
  while (c.acceptOp(",")) values.push(parseExpression(c));
  c.expectOp(")");
  return { kind: "row", values, loc };
}

function parseNameOrCall(c: TokenCursor): Expr {
  const loc = c.loc;
  const names: Identifier[] = [c.identifier("an expression")];
  while (c.isOp(".")) {
    c.next();
    if (c.acceptOp("*")) return { kind: "star", qualifier: names, loc };
    names.push(c.identifier("a name after '.'"));
  }
  if (c.isOp("(")) return parseCall(c, names, loc);
  return { kind: "column", names, loc };
}

/** A function call after its name: `(args) [FILTER (WHERE …)] [OVER (…)]`. */
function parseCall(c: TokenCursor, name: Identifier[], loc: SourceLoc): ExprOf<"call"> {
  c.expectOp("(");
  let distinct = false;
  let star = false;
  const args: FunctionArg[] = [];
  if (c.acceptOp("*")) {
    star = true;
    c.expectOp(")");
  } else if (!c.acceptOp(")")) {
    if (c.acceptKeyword("DISTINCT")) distinct = true;
    else c.acceptKeyword("ALL");
    args.push(...c.commaList(() => parseArgument(c)));
    if (c.isKeyword("ORDER") || c.isKeyword("SEPARATOR")) throw c.unsupported(`${c.peek().text.toUpperCase()} inside a function call`);
    if (!c.acceptOp(")")) throw c.expected("',' or ')'");
  }
  const call: ExprOf<"call"> = { kind: "call", name, args, distinct, star, loc };
  if (c.isKeyword("WITHIN")) throw c.unsupported("WITHIN GROUP");
  if (c.isKeyword("IGNORE") || c.isKeyword("RESPECT")) throw c.unsupported(`${c.peek().text.toUpperCase()} NULLS`);
  if (c.acceptKeyword("FILTER")) {
    c.expectOp("(");
    c.expectKeyword("WHERE");
    call.filter = parseExpression(c);
    c.expectOp(")");
  }
  if (c.acceptKeyword("OVER")) {
    if (c.acceptOp("(")) {
      call.over = parseWindowSpec(c);
      c.expectOp(")");
    } else {
      call.overWindow = c.identifier("'(' or a window name after OVER");
    }
  }
  return call;
}

/**
 * A call argument: `expr`, `NAME => expr`, `TABLE t` or `DESCRIPTOR(a, b)`. A
 * parameter's name may be a reserved word (`OFFSET => INTERVAL '1' MINUTE`):
 * `=>` after it says it is a name.
 */
function parseArgument(c: TokenCursor): FunctionArg {
  const t = c.peek();
  if ((t.kind === "ident" || t.kind === "quoted") && c.isOp("=>", 1)) {
    c.next();
    c.next();
    return { name: { value: t.value, quoted: t.kind === "quoted", loc: t.loc }, value: parseArgumentValue(c) };
  }
  return { value: parseArgumentValue(c) };
}

function parseArgumentValue(c: TokenCursor): Expr {
  const loc = c.loc;
  if (c.acceptKeyword("TABLE")) {
    const name = [c.identifier("a table name")];
    while (c.acceptOp(".")) name.push(c.identifier("a name after '.'"));
    if (!c.acceptKeywords("PARTITION", "BY")) return { kind: "tableArg", name, partitionBy: [], loc };
    const partitionBy = c.isOp("(") ? c.parenList(() => parseExpression(c)) : [parseExpression(c)];
    return { kind: "tableArg", name, partitionBy, loc };
  }
  if (c.isKeyword("DESCRIPTOR") && c.isOp("(", 1)) {
    c.next();
    return { kind: "descriptor", columns: c.parenList(() => c.identifier("a column name")), loc };
  }
  return parseExpression(c);
}

/** The inside of `OVER ( … )`. */
export function parseWindowSpec(c: TokenCursor): WindowSpec {
  const spec: WindowSpec = { partitionBy: [], orderBy: [] };
  if (c.acceptKeyword("PARTITION")) {
    c.expectKeyword("BY");
    spec.partitionBy = c.commaList(() => parseExpression(c));
  }
  if (c.acceptKeyword("ORDER")) {
    c.expectKeyword("BY");
    spec.orderBy = c.commaList(() => parseOrderItem(c));
  }
  const unit = c.keyword();
  if (unit === "ROWS" || unit === "RANGE") {
    c.next();
    if (c.acceptKeyword("BETWEEN")) {
      const start = parseFrameBound(c);
      c.expectKeyword("AND");
      spec.frame = { unit, start, end: parseFrameBound(c) };
    } else {
      spec.frame = { unit, start: parseFrameBound(c), end: { kind: "currentRow" } };
    }
  }
  return spec;
}

function parseFrameBound(c: TokenCursor): FrameBound {
  if (c.acceptKeyword("UNBOUNDED")) {
    if (c.acceptKeyword("PRECEDING")) return { kind: "unboundedPreceding" };
    if (c.acceptKeyword("FOLLOWING")) return { kind: "unboundedFollowing" };
    throw c.expected("PRECEDING or FOLLOWING");
  }
  if (c.acceptKeywords("CURRENT", "ROW")) return { kind: "currentRow" };
  const offset = parseAdditive(c);
  if (c.acceptKeyword("PRECEDING")) return { kind: "preceding", offset };
  if (c.acceptKeyword("FOLLOWING")) return { kind: "following", offset };
  throw c.expected("PRECEDING or FOLLOWING");
}

/** `expr [ASC|DESC] [NULLS FIRST|LAST]`. */
export function parseOrderItem(c: TokenCursor): OrderItem {
  const expr = parseExpression(c);
  let descending = false;
  if (c.acceptKeyword("DESC")) descending = true;
  else c.acceptKeyword("ASC");
  if (c.acceptKeyword("NULLS")) {
    if (c.acceptKeyword("FIRST")) return { expr, descending, nulls: "FIRST" };
    if (c.acceptKeyword("LAST")) return { expr, descending, nulls: "LAST" };
    throw c.expected("FIRST or LAST");
  }
  return { expr, descending };
}

function parseCase(c: TokenCursor): Expr {
  const loc = c.loc;
  c.next();
  const operand = c.isKeyword("WHEN") ? undefined : parseExpression(c);
  const whens: { when: Expr; then: Expr }[] = [];
  while (c.acceptKeyword("WHEN")) {
    const when = parseExpression(c);
    c.expectKeyword("THEN");
    whens.push({ when, then: parseExpression(c) });
  }
  if (whens.length === 0) throw c.expected("WHEN");
  const elseExpr = c.acceptKeyword("ELSE") ? parseExpression(c) : undefined;
  if (!c.acceptKeyword("END")) throw c.expected(elseExpr === undefined ? "WHEN, ELSE or END" : "END");
  const e: ExprOf<"case"> = { kind: "case", whens, loc };
  if (operand !== undefined) e.operand = operand;
  if (elseExpr !== undefined) e.else = elseExpr;
  return e;
}

/** `INTERVAL [-]'value' unit [TO unit]`. */
function parseInterval(c: TokenCursor): Expr {
  const loc = c.loc;
  c.next();
  let negative = false;
  if (c.acceptOp("-")) negative = true;
  else c.acceptOp("+");
  const value = c.string("a string such as '10' after INTERVAL");
  const from = parseTimeUnit(c, true);
  if (c.acceptKeyword("TO")) return { kind: "interval", value, negative, from, to: parseTimeUnit(c, true), loc };
  return { kind: "interval", value, negative, from, loc };
}
