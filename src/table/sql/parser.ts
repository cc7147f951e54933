/**
 * Statements: DDL (CREATE TABLE/VIEW, DROP), SHOW, DESCRIBE, SET/RESET,
 * EXPLAIN, INSERT INTO, EXECUTE STATEMENT SET, and queries. The entry points
 * are {@link parseStatement} and {@link parseStatements}.
 */
import type { ColumnDef, Identifier, SourceLoc, InsertStatement, QualifiedName, Statement, StatementOf, TableOption } from "./ast.ts";
import { parseExpression } from "./parse-expression.ts";
import { isQueryStart, parseQuery } from "./parse-query.ts";
import { parseDataType } from "./parse-type.ts";
import { SqlParseError } from "./sql-parse-error.ts";
import { TokenCursor } from "./token-cursor.ts";

/** Statements that Flink has and this parser recognises but does not support yet. */
const UNSUPPORTED_STATEMENTS = new Set(["ALTER", "USE", "LOAD", "UNLOAD", "ANALYZE", "TRUNCATE", "UPDATE", "DELETE", "CALL", "ADD", "REMOVE"]);

/**
 * Parses one SQL statement; a trailing `;` is allowed.
 *
 * @throws SqlParseError with the line and column of the first problem.
 * @example
 * ```ts
 * const s = parseStatement("SELECT user, COUNT(url) FROM clicks GROUP BY user");
 * s.kind; // "query"
 * ```
 */
export function parseStatement(sql: string): Statement {
  const c = new TokenCursor(sql);
  const stmt = statement(c);
  if (c.acceptOp(";") && !c.atEnd()) {
    throw c.error(`expected end of input but found '${c.peek().text}': parseStatement takes one statement (use parseStatements for several)`);
  }
  if (!c.atEnd()) throw c.expected("';' or end of input");
  return stmt;
}

/**
 * Parses statements separated by `;`. Positions in the AST and in errors are
 * positions in the whole of `sql`.
 *
 * @throws SqlParseError with the line and column of the first problem.
 * @example
 * ```ts
 * parseStatements("SET 'parallelism.default' = '2'; SHOW TABLES;").map((s) => s.kind); // ["set", "show"]
 * ```
 */
export function parseStatements(sql: string): Statement[] {
  const c = new TokenCursor(sql);
  const out: Statement[] = [];
  for (;;) {
    while (c.acceptOp(";"));
    if (c.atEnd()) return out;
    out.push(statement(c));
    if (!c.atEnd() && !c.isOp(";")) throw c.expected("';' or end of input");
  }
}

/**
 * Parses a possibly qualified object name such as `db.t` or `` `my table` ``.
 *
 * @throws SqlParseError
 * @example
 * ```ts
 * parseQualifiedName("default_database.clicks").map((n) => n.value); // ["default_database", "clicks"]
 * ```
 */
export function parseQualifiedName(text: string): QualifiedName {
  const c = new TokenCursor(text);
  const name = qualifiedName(c, "a table name");
  if (!c.atEnd()) throw c.expected("end of the name");
  return name;
}

function qualifiedName(c: TokenCursor, what: string): QualifiedName {
  const name = [c.identifier(what)];
  while (c.acceptOp(".")) name.push(c.identifier("a name after '.'"));
  return name;
}

function statement(c: TokenCursor): Statement {
  const loc = c.loc;
  if (isQueryStart(c)) return { kind: "query", query: parseQuery(c), loc };
  const k = c.keyword();
  switch (k) {
    case "CREATE":
      return parseCreate(c);
    case "DROP":
      return parseDrop(c);
    case "SHOW": {
      c.next();
      const what = c.keyword();
      if (what === "TABLES" || what === "VIEWS" || what === "FUNCTIONS") {
        c.next();
        return { kind: "show", object: what, loc };
      }
      if (what !== undefined) throw c.unsupported(`SHOW ${what}`);
      throw c.expected("TABLES, VIEWS or FUNCTIONS");
    }
    case "DESCRIBE":
    case "DESC":
      c.next();
      return { kind: "describe", name: qualifiedName(c, "a table name"), loc };
    case "SET": {
      c.next();
      if (c.atEnd() || c.isOp(";")) return { kind: "set", loc };
      const keyLoc = c.loc;
      const key = c.string("a quoted key such as 'table.exec.state.ttl'");
      c.expectOp("=");
      return { kind: "set", key, value: c.string("a quoted value"), keyLoc, loc };
    }
    case "RESET": {
      c.next();
      if (c.atEnd() || c.isOp(";")) return { kind: "reset", loc };
      return { kind: "reset", key: c.string("a quoted key"), loc };
    }
    case "EXPLAIN":
      return parseExplain(c);
    case "INSERT":
      return parseInsert(c);
    case "EXECUTE":
      return parseStatementSet(c);
    case "BEGIN":
      throw c.unsupported("BEGIN STATEMENT SET (write EXECUTE STATEMENT SET BEGIN ... END)");
  }
  if (k !== undefined && UNSUPPORTED_STATEMENTS.has(k)) throw c.unsupported(`the ${k} statement`);
  throw c.expected("a statement (SELECT, INSERT, CREATE, DROP, SHOW, DESCRIBE, SET, RESET, EXPLAIN or EXECUTE)");
}

function parseCreate(c: TokenCursor): Statement {
  const loc = c.loc;
  c.next();
  const temporary = c.acceptKeyword("TEMPORARY");
  if (c.acceptKeyword("TABLE")) {
    const ifNotExists = ifNotExistsClause(c);
    const name = qualifiedName(c, "a table name");
    if (c.isKeyword("AS")) throw c.unsupported("CREATE TABLE ... AS SELECT");
    if (c.isKeyword("LIKE")) throw c.unsupported("CREATE TABLE ... LIKE");
    const stmt: StatementOf<"createTable"> = { kind: "createTable", name, temporary, ifNotExists, columns: [], options: [], loc };
    c.expectOp("(");
    do parseTableElement(c, stmt);
    while (c.acceptOp(","));
    if (!c.acceptOp(")")) throw c.expected("',' or ')'");
    if (c.acceptKeyword("COMMENT")) stmt.comment = c.string();
    if (c.acceptKeyword("PARTITIONED")) {
      c.expectKeyword("BY");
      stmt.partitionKeys = c.parenList(() => c.identifier("a partition column name"));
    }
    if (c.isKeyword("DISTRIBUTED")) throw c.unsupported("DISTRIBUTED BY");
    if (c.acceptKeyword("WITH")) stmt.options = parseOptions(c);
    if (c.isKeyword("LIKE")) throw c.unsupported("CREATE TABLE ... LIKE");
    if (c.isKeyword("AS")) throw c.unsupported("CREATE TABLE ... AS SELECT");
    return stmt;
  }
  if (c.acceptKeyword("VIEW")) {
    const ifNotExists = ifNotExistsClause(c);
    const name = qualifiedName(c, "a view name");
    const columns = c.isOp("(") ? c.parenList(() => c.identifier("a column name")) : undefined;
    const comment = c.acceptKeyword("COMMENT") ? c.string() : undefined;
    c.expectKeyword("AS");
    const query = parseQuery(c);
    const stmt: StatementOf<"createView"> = { kind: "createView", name, temporary, ifNotExists, query, loc };
    if (columns !== undefined) stmt.columns = columns;
    if (comment !== undefined) stmt.comment = comment;
    return stmt;
  }
  if (temporary) c.acceptKeyword("SYSTEM");
  if (c.acceptKeyword("FUNCTION")) {
    const ifNotExists = ifNotExistsClause(c);
    const name = qualifiedName(c, "a function name");
    c.expectKeyword("AS");
    const identifierLoc = c.loc;
    const identifier = c.string("the quoted module and export of the function, such as './udfs.mjs#CountChar'");
    const stmt: StatementOf<"createFunction"> = { kind: "createFunction", name, ifNotExists, identifier, identifierLoc, loc };
    if (c.acceptKeyword("LANGUAGE")) {
      const language = c.keyword();
      if (language === undefined) throw c.expected("a language such as JAVASCRIPT");
      c.next();
      stmt.language = language;
    }
    if (c.isKeyword("USING")) throw c.unsupported("CREATE FUNCTION ... USING JAR (name a JavaScript module instead)");
    return stmt;
  }
  const what = c.keyword();
  if (what === "CATALOG" || what === "DATABASE" || what === "MODEL") throw c.unsupported(`CREATE ${temporary ? "TEMPORARY " : ""}${what}`);
  throw c.expected(temporary ? "TABLE, VIEW or FUNCTION" : "TABLE, TEMPORARY, VIEW or FUNCTION");
}

function ifNotExistsClause(c: TokenCursor): boolean {
  if (!c.acceptKeyword("IF")) return false;
  c.expectKeyword("NOT", "EXISTS");
  return true;
}

/** A column, WATERMARK or PRIMARY KEY inside CREATE TABLE ( … ). */
function parseTableElement(c: TokenCursor, stmt: StatementOf<"createTable">): void {
  const start = c.peek();
  if (c.acceptKeyword("WATERMARK")) {
    if (stmt.watermark !== undefined) throw c.error("a table can have only one WATERMARK", start);
    c.expectKeyword("FOR");
    const column = c.identifier("a column name");
    if (c.isOp(".")) throw c.unsupported("a WATERMARK on a nested field");
    c.expectKeyword("AS");
    stmt.watermark = { column, expr: parseExpression(c) };
    return;
  }
  if (c.isKeyword("CONSTRAINT") || (c.isKeyword("PRIMARY") && c.isKeyword("KEY", 1))) {
    if (c.acceptKeyword("CONSTRAINT")) c.identifier("a constraint name");
    const loc = c.loc;
    c.expectKeyword("PRIMARY", "KEY");
    const columns = c.parenList(() => c.identifier("a column name"));
    notEnforced(c);
    setPrimaryKey(c, stmt, { columns, loc });
    return;
  }
  if (c.isKeyword("UNIQUE")) throw c.unsupported("a UNIQUE constraint");
  if (c.isKeyword("LIKE")) throw c.unsupported("CREATE TABLE ... LIKE");
  const name = c.identifier("a column name, WATERMARK or PRIMARY KEY");
  let col: ColumnDef;
  if (c.acceptKeyword("AS")) {
    col = { kind: "computed", name, expr: parseExpression(c) };
  } else {
    const type = parseDataType(c);
    if (c.acceptKeyword("METADATA")) {
      const key = c.acceptKeyword("FROM") ? c.string("a quoted metadata key such as 'timestamp'") : undefined;
      col = { kind: "metadata", name, type, ...(key === undefined ? {} : { key }), virtual: c.acceptKeyword("VIRTUAL") };
    } else col = { kind: "physical", name, type };
    if (col.kind === "physical" && (c.isKeyword("CONSTRAINT") || c.isKeyword("PRIMARY"))) {
      if (c.acceptKeyword("CONSTRAINT")) c.identifier("a constraint name");
      const loc = c.loc;
      c.expectKeyword("PRIMARY", "KEY");
      notEnforced(c);
      setPrimaryKey(c, stmt, { columns: [name], loc });
    }
  }
  if (c.acceptKeyword("COMMENT")) col.comment = c.string();
  stmt.columns.push(col);
}

function notEnforced(c: TokenCursor): void {
  if (c.isKeyword("ENFORCED")) {
    throw c.error("Flink supports only PRIMARY KEY ... NOT ENFORCED: the key is not checked against the data");
  }
  if (!c.acceptKeywords("NOT", "ENFORCED")) throw c.expected("NOT ENFORCED");
}

function setPrimaryKey(c: TokenCursor, stmt: StatementOf<"createTable">, key: { columns: Identifier[]; loc: SourceLoc }): void {
  if (stmt.primaryKey !== undefined) throw new SqlParseError(c.sql, key.loc, "a table can have only one PRIMARY KEY", "PRIMARY");
  stmt.primaryKey = key;
}

/** `( 'key' = 'value', … )`. */
function parseOptions(c: TokenCursor): TableOption[] {
  const options: TableOption[] = [];
  c.expectOp("(");
  if (c.acceptOp(")")) return options;
  do {
    const loc = c.loc;
    const key = c.string("a quoted option key such as 'connector'");
    c.expectOp("=");
    const value = c.string("a quoted option value");
    if (options.some((o) => o.key === key)) throw new SqlParseError(c.sql, loc, `option '${key}' is given twice`, `'${key}'`);
    options.push({ key, value, loc });
  } while (c.acceptOp(","));
  if (!c.acceptOp(")")) throw c.expected("',' or ')'");
  return options;
}

function parseDrop(c: TokenCursor): Statement {
  const loc = c.loc;
  c.next();
  const temporary = c.acceptKeyword("TEMPORARY");
  if (temporary) c.acceptKeyword("SYSTEM");
  if (c.acceptKeyword("FUNCTION")) {
    const ifExists = c.acceptKeyword("IF");
    if (ifExists) c.expectKeyword("EXISTS");
    return { kind: "dropFunction", ifExists, name: qualifiedName(c, "a function name"), loc };
  }
  const what = c.keyword();
  if (what !== "TABLE" && what !== "VIEW") {
    if (what === "CATALOG" || what === "DATABASE") throw c.unsupported(`DROP ${what}`);
    throw c.expected("TABLE, VIEW or FUNCTION");
  }
  c.next();
  const ifExists = c.acceptKeyword("IF");
  if (ifExists) c.expectKeyword("EXISTS");
  return { kind: "drop", object: what, temporary, ifExists, name: qualifiedName(c, `a ${what.toLowerCase()} name`), loc };
}

const EXPLAIN_DETAILS = new Set(["CHANGELOG_MODE", "ESTIMATED_COST", "JSON_EXECUTION_PLAN", "PLAN_ADVICE"]);

function parseExplain(c: TokenCursor): Statement {
  const loc = c.loc;
  c.next();
  const details: string[] = [];
  while (c.keyword() !== undefined && EXPLAIN_DETAILS.has(c.keyword()!)) {
    details.push(c.next().text.toUpperCase());
    if (!c.acceptOp(",")) break;
    if (c.keyword() === undefined || !EXPLAIN_DETAILS.has(c.keyword()!)) throw c.expected("CHANGELOG_MODE, ESTIMATED_COST, JSON_EXECUTION_PLAN or PLAN_ADVICE");
  }
  c.acceptKeywords("PLAN", "FOR");
  if (!isQueryStart(c) && !c.isKeyword("INSERT") && !c.isKeyword("EXECUTE")) {
    throw c.expected("a query, INSERT or EXECUTE STATEMENT SET to explain");
  }
  return { kind: "explain", details, statement: statement(c), loc };
}

function parseInsert(c: TokenCursor): InsertStatement {
  const loc = c.loc;
  c.next();
  if (c.isKeyword("OVERWRITE")) throw c.unsupported("INSERT OVERWRITE");
  c.expectKeyword("INTO");
  const table = qualifiedName(c, "a table name");
  if (c.isKeyword("PARTITION")) throw c.unsupported("INSERT ... PARTITION");
  const columns = c.isOp("(") && !isQueryStart(c, 1) ? c.parenList(() => c.identifier("a column name")) : undefined;
  if (!isQueryStart(c)) throw c.expected("a query (SELECT, VALUES or WITH)");
  const query = parseQuery(c);
  return columns === undefined ? { kind: "insert", table, query, loc } : { kind: "insert", table, columns, query, loc };
}

function parseStatementSet(c: TokenCursor): Statement {
  const loc = c.loc;
  c.next();
  if (c.isKeyword("INSERT")) return parseInsert(c);
  c.expectKeyword("STATEMENT", "SET", "BEGIN");
  const inserts: InsertStatement[] = [];
  for (;;) {
    while (c.acceptOp(";"));
    if (c.acceptKeyword("END")) break;
    if (!c.isKeyword("INSERT")) throw c.expected(inserts.length === 0 ? "INSERT INTO" : "INSERT INTO or END");
    inserts.push(parseInsert(c));
    if (!c.isOp(";")) throw c.expected("';' after the INSERT statement");
  }
  if (inserts.length === 0) throw c.error("a statement set needs at least one INSERT INTO");
  return { kind: "statementSet", inserts, loc };
}
