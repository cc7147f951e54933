/**
 * The typed syntax tree of Flink-dialect SQL as {@link parseStatement} produces
 * it. Every node that a later phase may report an error about carries its
 * `loc` in the statement text. Identifiers keep the case in which they were
 * written (Flink's identifiers are case-sensitive); keywords are upper case.
 */
import type { SourceLoc } from "./lexer.ts";

export type { SourceLoc } from "./lexer.ts";

/** An identifier as written; `quoted` when it was written in backquotes. */
export interface Identifier {
  value: string;
  quoted: boolean;
  loc: SourceLoc;
}

/** A possibly qualified name such as `cat.db.t`: its parts in order. */
export type QualifiedName = Identifier[];

// ---------------------------------------------------------------- data types

/** A time unit of INTERVAL, EXTRACT and FLOOR/CEIL. */
export type TimeUnit =
  | "MILLENNIUM" | "CENTURY" | "DECADE" | "YEAR" | "QUARTER" | "MONTH" | "WEEK" | "DAY"
  | "HOUR" | "MINUTE" | "SECOND" | "MILLISECOND" | "MICROSECOND" | "NANOSECOND"
  | "DOW" | "DOY" | "EPOCH";

/** A field of a `ROW<…>` type. */
export interface RowField {
  name: Identifier;
  type: DataType;
  description?: string;
}

/**
 * A SQL data type. `STRING` is `varchar` of length 2147483647 and `BYTES` is
 * `varbinary` of that length, as in Flink.
 */
export type DataType = { nullable: boolean; loc: SourceLoc } & (
  | { kind: "boolean" | "tinyint" | "smallint" | "int" | "bigint" | "float" | "double" | "date" }
  | { kind: "decimal"; precision: number; scale: number }
  | { kind: "char" | "varchar" | "binary" | "varbinary"; length: number }
  | { kind: "time"; precision: number }
  | { kind: "timestamp"; precision: number; withLocalTimeZone: boolean }
  | { kind: "interval"; from: TimeUnit; to?: TimeUnit }
  | { kind: "row"; fields: RowField[] }
  | { kind: "array" | "multiset"; element: DataType }
  | { kind: "map"; key: DataType; value: DataType }
);

// ---------------------------------------------------------------- expressions

/** A binary operator, upper case for the word operators. */
export type BinaryOp = "OR" | "AND" | "=" | "<>" | "<" | ">" | "<=" | ">=" | "+" | "-" | "*" | "/" | "%" | "||";

/** A bound of a window frame in `OVER (… ROWS BETWEEN … AND …)`. */
export type FrameBound =
  | { kind: "unboundedPreceding" }
  | { kind: "unboundedFollowing" }
  | { kind: "currentRow" }
  | { kind: "preceding"; offset: Expr }
  | { kind: "following"; offset: Expr };

/** A sort key of ORDER BY. */
export interface OrderItem {
  expr: Expr;
  descending: boolean;
  nulls?: "FIRST" | "LAST";
}

/** The window of an `OVER` clause. */
export interface WindowSpec {
  partitionBy: Expr[];
  orderBy: OrderItem[];
  frame?: { unit: "ROWS" | "RANGE"; start: FrameBound; end: FrameBound };
}

/** An argument of a function call, named when written `NAME => value`. */
export interface FunctionArg {
  name?: Identifier;
  value: Expr;
}

/**
 * A scalar expression. `POSITION(a IN b)` parses as the call `POSITION(a, b)`
 * and `SUBSTRING(s FROM i FOR n)` as `SUBSTRING(s, i, n)`. Window TVF arguments `TABLE t` and `DESCRIPTOR(c)` are
 * expressions too (`tableArg`, `descriptor`) but only parse as function
 * arguments.
 */
export type Expr = { loc: SourceLoc } & (
  | { kind: "column"; names: Identifier[] }
  | { kind: "star"; qualifier: Identifier[] }
  | { kind: "number"; text: string }
  | { kind: "string"; value: string }
  | { kind: "boolean"; value: boolean }
  | { kind: "null" }
  | { kind: "interval"; value: string; negative: boolean; from: TimeUnit; to?: TimeUnit }
  | { kind: "typedLiteral"; type: "DATE" | "TIME" | "TIMESTAMP" | "TIMESTAMP_LTZ"; value: string }
  | { kind: "unary"; op: "-" | "+" | "NOT"; operand: Expr }
  | { kind: "binary"; op: BinaryOp; left: Expr; right: Expr }
  | { kind: "is"; operand: Expr; not: boolean; test: "NULL" | "TRUE" | "FALSE" | "UNKNOWN" }
  | { kind: "isDistinctFrom"; left: Expr; right: Expr; not: boolean }
  | { kind: "between"; operand: Expr; not: boolean; low: Expr; high: Expr; symmetric: boolean }
  | { kind: "inList"; operand: Expr; not: boolean; list: Expr[] }
  | { kind: "inQuery"; operand: Expr; not: boolean; query: Query }
  | { kind: "like"; operand: Expr; not: boolean; pattern: Expr; escape?: Expr; similar: boolean }
  | { kind: "exists"; query: Query }
  | { kind: "subquery"; query: Query }
  | { kind: "case"; operand?: Expr; whens: { when: Expr; then: Expr }[]; else?: Expr }
  | { kind: "cast"; expr: Expr; type: DataType; try: boolean }
  | { kind: "extract"; unit: TimeUnit; source: Expr }
  | { kind: "trim"; mode: "BOTH" | "LEADING" | "TRAILING"; characters?: Expr; source: Expr }
  | { kind: "floorCeil"; fn: "FLOOR" | "CEIL"; expr: Expr; unit: TimeUnit }
  | { kind: "row"; values: Expr[] }
  | { kind: "array"; values: Expr[] }
  | { kind: "map"; entries: Expr[] }
  | { kind: "item"; base: Expr; index: Expr }
  | {
      kind: "call";
      /** Function name as written, possibly qualified. */
      name: Identifier[];
      args: FunctionArg[];
      distinct: boolean;
      /** `COUNT(*)`. */
      star: boolean;
      filter?: Expr;
      over?: WindowSpec;
      /** `OVER w`: the name of a window of the SELECT's WINDOW clause. */
      overWindow?: Identifier;
    }
  | {
      kind: "tableArg";
      name: QualifiedName;
      /** `TABLE t PARTITION BY k` of a SESSION window; empty when absent. */
      partitionBy: Expr[];
    }
  | { kind: "descriptor"; columns: Identifier[] }
);

/** The expression variant of the given kind. */
export type ExprOf<K extends Expr["kind"]> = Extract<Expr, { kind: K }>;

// ---------------------------------------------------------------- queries

/** A select-list item: an expression (possibly `*` or `t.*`) with an optional alias. */
export interface SelectItem {
  expr: Expr;
  alias?: Identifier;
}

/** One element of GROUP BY. */
export type GroupingElement =
  | { kind: "expr"; expr: Expr }
  | { kind: "groupingSets"; sets: Expr[][] }
  | { kind: "rollup"; exprs: Expr[] }
  | { kind: "cube"; exprs: Expr[] };

/** A table reference in FROM. */
export type FromItem = { loc: SourceLoc } & (
  | {
      kind: "table";
      name: QualifiedName;
      alias?: Identifier;
      columnAliases?: Identifier[];
      /** `FOR SYSTEM_TIME AS OF expr` of a temporal join. */
      systemTime?: Expr;
    }
  | { kind: "subquery"; query: Query; alias?: Identifier; columnAliases?: Identifier[] }
  | {
      /** `TABLE(fn(...))`, e.g. a window TVF, or `LATERAL TABLE(fn(...))`. */
      kind: "tableFunction";
      call: ExprOf<"call">;
      lateral: boolean;
      alias?: Identifier;
      columnAliases?: Identifier[];
    }
  | {
      kind: "join";
      joinType: "INNER" | "LEFT" | "RIGHT" | "FULL" | "CROSS";
      /** Written as `FROM a, b` rather than with JOIN. */
      comma: boolean;
      left: FromItem;
      right: FromItem;
      on?: Expr;
      using?: Identifier[];
    }
);

/** A SELECT block. */
export interface SelectBody {
  kind: "select";
  loc: SourceLoc;
  distinct: boolean;
  items: SelectItem[];
  from?: FromItem;
  where?: Expr;
  groupBy?: GroupingElement[];
  having?: Expr;
  /** `WINDOW w AS (…)`: windows that `OVER w` refers to by name. */
  windows?: { name: Identifier; spec: WindowSpec }[];
}

/** `VALUES (…), (…)`. */
export interface ValuesBody {
  kind: "values";
  loc: SourceLoc;
  rows: Expr[][];
}

/** `left UNION|INTERSECT|EXCEPT [ALL] right`. */
export interface SetOperation {
  kind: "setOperation";
  loc: SourceLoc;
  op: "UNION" | "INTERSECT" | "EXCEPT";
  all: boolean;
  left: QueryBody;
  right: QueryBody;
}

/** The body of a query; a parenthesized query is a nested {@link Query}. */
export type QueryBody = SelectBody | ValuesBody | SetOperation | Query;

/** `name [(columns)] AS (query)` of a WITH clause. */
export interface CommonTableExpr {
  name: Identifier;
  columns?: Identifier[];
  query: Query;
}

/** A full query: WITH, the body, ORDER BY, LIMIT and OFFSET. */
export interface Query {
  kind: "query";
  loc: SourceLoc;
  with: CommonTableExpr[];
  body: QueryBody;
  orderBy: OrderItem[];
  limit?: Expr;
  offset?: Expr;
}

// ---------------------------------------------------------------- statements

/**
 * A column of CREATE TABLE: physical, computed (`AS expr`), or a metadata
 * column (`TYPE METADATA [FROM 'key'] [VIRTUAL]`: the connector's metadata
 * `key`, the column name when no FROM; a VIRTUAL one is read only).
 */
export type ColumnDef =
  | { kind: "physical"; name: Identifier; type: DataType; comment?: string }
  | { kind: "computed"; name: Identifier; expr: Expr; comment?: string }
  | { kind: "metadata"; name: Identifier; type: DataType; key?: string; virtual: boolean; comment?: string };

/** A `'key' = 'value'` pair of WITH (…) or SET. */
export interface TableOption {
  key: string;
  value: string;
  loc: SourceLoc;
}

/** `INSERT INTO t [(cols)] query`. */
export interface InsertStatement {
  kind: "insert";
  loc: SourceLoc;
  table: QualifiedName;
  columns?: Identifier[];
  query: Query;
}

/** A SQL statement. */
export type Statement = { loc: SourceLoc } & (
  | {
      kind: "createTable";
      name: QualifiedName;
      temporary: boolean;
      ifNotExists: boolean;
      columns: ColumnDef[];
      watermark?: { column: Identifier; expr: Expr };
      primaryKey?: { columns: Identifier[]; loc: SourceLoc };
      comment?: string;
      /** `PARTITIONED BY (k1, k2)`: the partition columns, in order. */
      partitionKeys?: Identifier[];
      options: TableOption[];
    }
  | {
      kind: "createView";
      name: QualifiedName;
      temporary: boolean;
      ifNotExists: boolean;
      columns?: Identifier[];
      comment?: string;
      query: Query;
    }
  | { kind: "drop"; object: "TABLE" | "VIEW"; temporary: boolean; ifExists: boolean; name: QualifiedName }
  | {
      /** `CREATE [TEMPORARY [SYSTEM]] FUNCTION [IF NOT EXISTS] f AS 'module#export' [LANGUAGE …]`. */
      kind: "createFunction";
      name: QualifiedName;
      ifNotExists: boolean;
      /** The module and export, as written (`'./udfs.mjs#CountChar'`). */
      identifier: string;
      identifierLoc: SourceLoc;
      /** Upper-case LANGUAGE, when given. */
      language?: string;
    }
  | { kind: "dropFunction"; name: QualifiedName; ifExists: boolean }
  | { kind: "show"; object: "TABLES" | "VIEWS" | "FUNCTIONS" }
  | { kind: "describe"; name: QualifiedName }
  | { kind: "set"; key?: string; value?: string; keyLoc?: SourceLoc }
  | { kind: "reset"; key?: string }
  | {
      kind: "explain";
      /** Upper-case details such as `CHANGELOG_MODE`, `ESTIMATED_COST`. */
      details: string[];
      statement: Statement;
    }
  | InsertStatement
  | { kind: "statementSet"; inserts: InsertStatement[] }
  | { kind: "query"; query: Query }
);

/** The statement variant of the given kind. */
export type StatementOf<K extends Statement["kind"]> = Extract<Statement, { kind: K }>;
