/**
 * Queries: WITH, SELECT blocks, VALUES, set operations (INTERSECT binds
 * tighter than UNION and EXCEPT), ORDER BY, LIMIT/OFFSET/FETCH, and FROM
 * items: tables (with `FOR SYSTEM_TIME AS OF`), subqueries, joins and table
 * functions such as the window TVFs `TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE))`.
 */
import type { CommonTableExpr, Expr, FromItem, GroupingElement, Identifier, Query, QueryBody, SelectBody, SelectItem, ValuesBody } from "./ast.ts";
import { parseExpression, parseOrderItem, parseWindowSpec } from "./parse-expression.ts";
import type { TokenCursor } from "./token-cursor.ts";

/** Whether the token `ahead` positions on starts a query (SELECT, WITH, VALUES, or `(` followed by one). */
export function isQueryStart(c: TokenCursor, ahead = 0): boolean {
  for (;;) {
    if (c.isKeyword("SELECT", ahead) || c.isKeyword("WITH", ahead) || c.isKeyword("VALUES", ahead)) return true;
    if (!c.isOp("(", ahead)) return false;
    ahead++;
  }
}

/** Parses a full query. */
export function parseQuery(c: TokenCursor): Query {
  return c.nested(() => parseQueryUnnested(c));
}

function parseQueryUnnested(c: TokenCursor): Query {
  const loc = c.loc;
  const ctes: CommonTableExpr[] = [];
  if (c.acceptKeyword("WITH")) {
    if (c.isKeyword("RECURSIVE")) throw c.unsupported("WITH RECURSIVE");
    ctes.push(...c.commaList(() => parseCte(c)));
  }
  const body = parseUnion(c);
  const query: Query = { kind: "query", loc, with: ctes, body, orderBy: [] };
  if (c.acceptKeyword("ORDER")) {
    c.expectKeyword("BY");
    query.orderBy = c.commaList(() => parseOrderItem(c));
  }
  if (c.acceptKeyword("LIMIT")) query.limit = parseCount(c, "LIMIT");
  if (c.acceptKeyword("OFFSET")) {
    query.offset = parseCount(c, "OFFSET");
    if (!c.acceptKeyword("ROWS")) c.acceptKeyword("ROW");
  }
  if (c.acceptKeyword("FETCH")) {
    if (query.limit !== undefined) throw c.error("FETCH cannot be combined with LIMIT");
    if (!c.acceptKeyword("FIRST")) c.expectKeyword("NEXT");
    query.limit = parseCount(c, "FETCH");
    if (!c.acceptKeyword("ROWS")) c.expectKeyword("ROW");
    c.expectKeyword("ONLY");
  }
  return query;
}

function parseCount(c: TokenCursor, clause: string): Expr {
  const t = c.peek();
  if (t.kind !== "number" || !/^\d+$/.test(t.text)) throw c.expected(`a non-negative integer after ${clause}`);
  c.next();
  return { kind: "number", text: t.text, loc: t.loc };
}

function parseCte(c: TokenCursor): CommonTableExpr {
  const name = c.identifier("a name for the WITH query");
  const columns = c.isOp("(") ? c.parenList(() => c.identifier("a column name")) : undefined;
  c.expectKeyword("AS");
  c.expectOp("(");
  const query = parseQuery(c);
  c.expectOp(")");
  return columns === undefined ? { name, query } : { name, columns, query };
}

function parseUnion(c: TokenCursor): QueryBody {
  let left = parseIntersect(c);
  for (;;) {
    const loc = c.loc;
    const k = c.keyword();
    if (k !== "UNION" && k !== "EXCEPT" && k !== "MINUS") return left;
    c.next();
    const all = setQuantifier(c);
    left = { kind: "setOperation", op: k === "UNION" ? "UNION" : "EXCEPT", all, left, right: parseIntersect(c), loc };
  }
}

function parseIntersect(c: TokenCursor): QueryBody {
  let left = parseQueryPrimary(c);
  for (;;) {
    const loc = c.loc;
    if (!c.acceptKeyword("INTERSECT")) return left;
    const all = setQuantifier(c);
    left = { kind: "setOperation", op: "INTERSECT", all, left, right: parseQueryPrimary(c), loc };
  }
}

function setQuantifier(c: TokenCursor): boolean {
  if (c.acceptKeyword("ALL")) return true;
  c.acceptKeyword("DISTINCT");
  return false;
}

function parseQueryPrimary(c: TokenCursor): QueryBody {
  if (c.isKeyword("SELECT")) return parseSelect(c);
  if (c.isKeyword("VALUES")) return parseValues(c);
  if (c.isOp("(") && isQueryStart(c, 1)) {
    c.next();
    const q = parseQuery(c);
    c.expectOp(")");
    return q;
  }
  throw c.expected("SELECT, VALUES or '('");
}

function parseValues(c: TokenCursor): ValuesBody {
  const loc = c.loc;
  c.next();
  const rows = c.commaList(() => {
    const e = parseExpression(c);
    return e.kind === "row" ? e.values : [e];
  });
  return { kind: "values", loc, rows };
}

function parseSelect(c: TokenCursor): SelectBody {
  const loc = c.loc;
  c.next();
  let distinct = false;
  if (c.acceptKeyword("DISTINCT")) distinct = true;
  else c.acceptKeyword("ALL");
  if (c.isKeyword("FROM")) throw c.expected("a select list");
  const items = c.commaList(() => parseSelectItem(c));
  const select: SelectBody = { kind: "select", loc, distinct, items };
  if (c.acceptKeyword("FROM")) select.from = parseFromList(c);
  if (c.acceptKeyword("WHERE")) select.where = parseExpression(c);
  if (c.acceptKeyword("GROUP")) {
    c.expectKeyword("BY");
    select.groupBy = c.commaList(() => parseGroupingElement(c));
  }
  if (c.acceptKeyword("HAVING")) select.having = parseExpression(c);
  if (c.acceptKeyword("WINDOW")) {
    select.windows = c.commaList(() => {
      const name = c.identifier("a window name");
      c.expectKeyword("AS");
      c.expectOp("(");
      const spec = parseWindowSpec(c);
      c.expectOp(")");
      return { name, spec };
    });
  }
  if (c.isKeyword("QUALIFY")) throw c.unsupported("QUALIFY");
  return select;
}

function parseSelectItem(c: TokenCursor): SelectItem {
  const loc = c.loc;
  if (c.acceptOp("*")) return { expr: { kind: "star", qualifier: [], loc } };
  const expr = parseExpression(c);
  const alias = parseAlias(c);
  return alias === undefined ? { expr } : { expr, alias };
}

/** `[AS] alias`, if present. */
function parseAlias(c: TokenCursor): Identifier | undefined {
  if (c.acceptKeyword("AS")) return c.identifier("an alias");
  return c.isIdentifier() ? c.identifier() : undefined;
}

function parseGroupingElement(c: TokenCursor): GroupingElement {
  if (c.acceptKeywords("GROUPING", "SETS")) {
    return { kind: "groupingSets", sets: c.parenList(() => parseGroupingSet(c)) };
  }
  const k = c.keyword();
  if ((k === "ROLLUP" || k === "CUBE") && c.isOp("(", 1)) {
    c.next();
    const exprs = c.parenList(() => parseExpression(c));
    return k === "ROLLUP" ? { kind: "rollup", exprs } : { kind: "cube", exprs };
  }
  if (c.isOp("(") && c.isOp(")", 1)) {
    c.next();
    c.next();
    return { kind: "groupingSets", sets: [[]] };
  }
  return { kind: "expr", expr: parseExpression(c) };
}

/** One set of GROUPING SETS: `()`, `(a, b)` or `a`. */
function parseGroupingSet(c: TokenCursor): Expr[] {
  if (c.isKeyword("ROLLUP") || c.isKeyword("CUBE") || c.isKeyword("GROUPING")) {
    throw c.unsupported(`${c.peek().text.toUpperCase()} inside GROUPING SETS`);
  }
  if (c.isOp("(") && c.isOp(")", 1)) {
    c.next();
    c.next();
    return [];
  }
  const e = parseExpression(c);
  return e.kind === "row" ? e.values : [e];
}

/** `item [, item …]` with joins; commas are cross joins. */
function parseFromList(c: TokenCursor): FromItem {
  let from = parseJoined(c);
  while (c.isOp(",")) {
    c.next();
    const right = parseJoined(c);
    from = { kind: "join", joinType: "CROSS", comma: true, left: from, right, loc: from.loc };
  }
  return from;
}

function parseJoined(c: TokenCursor): FromItem {
  let left = parseTablePrimary(c);
  for (;;) {
    if (c.isKeyword("NATURAL")) throw c.unsupported("NATURAL JOIN");
    let joinType: "INNER" | "LEFT" | "RIGHT" | "FULL" | "CROSS";
    if (c.acceptKeywords("CROSS", "JOIN")) joinType = "CROSS";
    else if (c.acceptKeyword("JOIN") || c.acceptKeywords("INNER", "JOIN")) joinType = "INNER";
    else if (c.isKeyword("LEFT") || c.isKeyword("RIGHT") || c.isKeyword("FULL")) {
      joinType = c.next().text.toUpperCase() as "LEFT" | "RIGHT" | "FULL";
      c.acceptKeyword("OUTER");
      c.expectKeyword("JOIN");
    } else if (c.isKeyword("CROSS") || c.isKeyword("INNER")) {
      c.next();
      throw c.expected("JOIN");
    } else return left;
    const right = parseTablePrimary(c);
    const join: FromItem = { kind: "join", joinType, comma: false, left, right, loc: left.loc };
    if (joinType !== "CROSS") {
      if (c.acceptKeyword("ON")) join.on = parseExpression(c);
      else if (c.acceptKeyword("USING")) join.using = c.parenList(() => c.identifier("a column name"));
      else throw c.expected(`ON or USING after ${joinType === "INNER" ? "" : `${joinType} `}JOIN`);
    }
    left = join;
  }
}

function withAliases<T extends FromItem>(c: TokenCursor, item: T): T {
  const alias = parseAlias(c);
  if (alias === undefined) return item;
  const out = { ...item, alias } as T & { columnAliases?: Identifier[] };
  if (c.isOp("(")) out.columnAliases = c.parenList(() => c.identifier("a column alias"));
  return out;
}

function parseTablePrimary(c: TokenCursor): FromItem {
  const loc = c.loc;
  if (c.isOp("(")) {
    if (isQueryStart(c, 1)) {
      c.next();
      const query = parseQuery(c);
      c.expectOp(")");
      return withAliases(c, { kind: "subquery", query, loc });
    }
    c.next();
    const inner = c.nested(() => parseFromList(c));
    c.expectOp(")");
    return inner;
  }
  const lateral = c.acceptKeyword("LATERAL");
  if (c.acceptKeyword("TABLE")) {
    c.expectOp("(");
    const callStart = c.peek();
    const call = parseExpression(c);
    if (call.kind !== "call") throw c.error("expected a table function call such as TUMBLE(...) inside TABLE(...)", callStart);
    c.expectOp(")");
    return withAliases(c, { kind: "tableFunction", call, lateral, loc });
  }
  if (lateral) {
    if (c.isOp("(")) throw c.unsupported("a LATERAL subquery");
    throw c.expected("TABLE after LATERAL");
  }
  if (c.isKeyword("UNNEST")) throw c.unsupported("UNNEST");
  const name = [c.identifier("a table name")];
  while (c.acceptOp(".")) name.push(c.identifier("a name after '.'"));
  if (c.isOp("(")) throw c.error(`a table function must be called as TABLE(${name.map((n) => n.value).join(".")}(...))`);
  const table: FromItem = { kind: "table", name, loc };
  if (c.acceptKeyword("FOR")) {
    c.expectKeyword("SYSTEM_TIME", "AS", "OF");
    table.systemTime = parseExpression(c);
  }
  if (c.isKeyword("MATCH_RECOGNIZE")) throw c.unsupported("MATCH_RECOGNIZE");
  if (c.isKeyword("TABLESAMPLE")) throw c.unsupported("TABLESAMPLE");
  return withAliases(c, table);
}
