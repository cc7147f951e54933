import { describe, expect, it } from "vitest";
import { selectList, sexpr } from "../../../test/support/sql-sexpr.ts";
import type { Statement, StatementOf } from "./ast.ts";
import { parseStatement, parseStatements } from "./parser.ts";

function parseAs<K extends Statement["kind"]>(kind: K, sql: string): StatementOf<K> {
  const s = parseStatement(sql);
  expect(s.kind).toBe(kind);
  return s as StatementOf<K>;
}
const names = (ids: { value: string }[]) => ids.map((i) => i.value);

describe("CREATE TABLE", () => {
  it("parses the issue's clicks table: columns, watermark and options", () => {
    const s = parseAs(
      "createTable",
      `CREATE TABLE clicks (
    user STRING, url STRING, cTime TIMESTAMP(3),
    WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND
  ) WITH ('connector' = 'filesystem', 'path' = 'clicks/', 'format' = 'json')`,
    );
    expect(names(s.name)).toEqual(["clicks"]);
    expect(s.columns.map((c) => [c.name.value, c.kind === "physical" ? c.type.kind : "computed"])).toEqual([
      ["user", "varchar"],
      ["url", "varchar"],
      ["cTime", "timestamp"],
    ]);
    expect(s.watermark?.column.value).toBe("cTime");
    expect(sexpr(s.watermark!.expr)).toBe("(- cTime (INTERVAL '1' SECOND))");
    expect(s.options.map((o) => [o.key, o.value])).toEqual([
      ["connector", "filesystem"],
      ["path", "clicks/"],
      ["format", "json"],
    ]);
    expect(s.ifNotExists).toBe(false);
    expect(s.temporary).toBe(false);
  });

  it("parses computed columns, NOT NULL, PRIMARY KEY NOT ENFORCED, comments and IF NOT EXISTS", () => {
    const s = parseAs(
      "createTable",
      `CREATE TEMPORARY TABLE IF NOT EXISTS cat.db.orders (
        id BIGINT NOT NULL COMMENT 'order id',
        price DECIMAL(10, 2),
        qty INT,
        total AS price * qty,
        ts AS PROCTIME(),
        PRIMARY KEY (id) NOT ENFORCED
      ) COMMENT 'orders' WITH ('connector' = 'values')`,
    );
    expect(names(s.name)).toEqual(["cat", "db", "orders"]);
    expect(s.temporary && s.ifNotExists).toBe(true);
    const [id, , , total, ts] = s.columns;
    expect(id).toMatchObject({ kind: "physical", type: { kind: "bigint", nullable: false }, comment: "order id" });
    expect(total!.kind === "computed" && sexpr(total!.expr)).toBe("(* price qty)");
    expect(ts!.kind === "computed" && sexpr(ts!.expr)).toBe("PROCTIME()");
    expect(names(s.primaryKey!.columns)).toEqual(["id"]);
    expect(s.comment).toBe("orders");
  });

  it("parses an inline column PRIMARY KEY and a CONSTRAINT name", () => {
    expect(names(parseAs("createTable", "CREATE TABLE t (k STRING PRIMARY KEY NOT ENFORCED, v INT)").primaryKey!.columns)).toEqual(["k"]);
    expect(names(parseAs("createTable", "CREATE TABLE t (a INT, b INT, CONSTRAINT pk PRIMARY KEY (a, b) NOT ENFORCED)").primaryKey!.columns)).toEqual(["a", "b"]);
  });

  it("parses nested types in columns", () => {
    const s = parseAs("createTable", "CREATE TABLE t (r ROW<a INT, b ARRAY<STRING>>, m MAP<STRING, BIGINT>, ts TIMESTAMP_LTZ(3))");
    expect(s.columns.map((c) => (c.kind === "physical" ? c.type.kind : ""))).toEqual(["row", "map", "timestamp"]);
    expect(s.options).toEqual([]);
  });
});

describe("other statements", () => {
  it("CREATE [TEMPORARY] VIEW [(cols)] AS query", () => {
    const v = parseAs("createView", "CREATE TEMPORARY VIEW v (a, b) AS SELECT x, y FROM t");
    expect(v.temporary).toBe(true);
    expect(names(v.columns!)).toEqual(["a", "b"]);
    expect(selectList(v.query)).toEqual(["x", "y"]);
    const w = parseAs("createView", "CREATE VIEW IF NOT EXISTS w COMMENT 'one' AS SELECT 1");
    expect(w.comment).toBe("one");
    expect(w.temporary).toBe(false);
    expect(w.ifNotExists).toBe(true);
  });

  it("DROP TABLE|VIEW [IF EXISTS]", () => {
    expect(parseAs("drop", "DROP TABLE IF EXISTS t")).toMatchObject({ object: "TABLE", ifExists: true, temporary: false });
    expect(parseAs("drop", "DROP TEMPORARY VIEW db.v")).toMatchObject({ object: "VIEW", ifExists: false, temporary: true });
  });

  it("SHOW, DESCRIBE, SET, RESET", () => {
    expect(parseAs("show", "SHOW TABLES").object).toBe("TABLES");
    expect(parseAs("show", "show views").object).toBe("VIEWS");
    expect(parseAs("show", "SHOW FUNCTIONS;").object).toBe("FUNCTIONS");
    expect(names(parseAs("describe", "DESCRIBE clicks").name)).toEqual(["clicks"]);
    expect(names(parseAs("describe", "DESC `my table`").name)).toEqual(["my table"]);
    expect(parseAs("set", "SET 'table.exec.state.ttl' = '1 h'")).toMatchObject({ key: "table.exec.state.ttl", value: "1 h" });
    expect(parseAs("set", "SET").key).toBeUndefined();
    expect(parseAs("reset", "RESET 'table.exec.state.ttl'").key).toBe("table.exec.state.ttl");
    expect(parseAs("reset", "RESET").key).toBeUndefined();
  });

  it("EXPLAIN [CHANGELOG_MODE] of a query, an INSERT and a statement set", () => {
    const e = parseAs("explain", "EXPLAIN CHANGELOG_MODE SELECT user, COUNT(url) FROM clicks GROUP BY user");
    expect(e.details).toEqual(["CHANGELOG_MODE"]);
    expect(e.statement.kind).toBe("query");
    expect(parseAs("explain", "EXPLAIN ESTIMATED_COST, CHANGELOG_MODE INSERT INTO s SELECT * FROM t").statement.kind).toBe("insert");
    expect(parseAs("explain", "EXPLAIN PLAN FOR SELECT 1").details).toEqual([]);
    expect(parseAs("explain", "EXPLAIN EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1; END").statement.kind).toBe("statementSet");
  });

  it("INSERT INTO [(cols)] query", () => {
    const i = parseAs("insert", "INSERT INTO counts SELECT user, COUNT(url) FROM clicks GROUP BY user");
    expect(names(i.table)).toEqual(["counts"]);
    expect(i.columns).toBeUndefined();
    expect(selectList(i.query)).toEqual(["user", "COUNT(url)"]);
    const j = parseAs("insert", "INSERT INTO t (a, b) VALUES (1, 'x'), (2, 'y')");
    expect(names(j.columns!)).toEqual(["a", "b"]);
    expect(j.query.body.kind === "values" && j.query.body.rows.map((r) => r.map(sexpr))).toEqual([
      ["1", "'x'"],
      ["2", "'y'"],
    ]);
    expect(parseAs("insert", "INSERT INTO t (SELECT 1)").columns).toBeUndefined();
  });

  it("EXECUTE STATEMENT SET BEGIN insert; … END", () => {
    const s = parseAs("statementSet", `EXECUTE STATEMENT SET BEGIN
      INSERT INTO a SELECT * FROM t;
      INSERT INTO b SELECT x FROM t WHERE x > 1;
    END;`);
    expect(s.inserts.map((i) => names(i.table)[0])).toEqual(["a", "b"]);
  });
});

describe("parseStatements", () => {
  it("splits at top-level semicolons and keeps positions in the whole text", () => {
    const sql = "SET 'a' = 'b';\nSHOW TABLES;;\n  EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1; INSERT INTO b SELECT 2; END;\nSELECT 1";
    const s = parseStatements(sql);
    expect(s.map((x) => x.kind)).toEqual(["set", "show", "statementSet", "query"]);
    expect(s[2]!.loc).toEqual({ line: 3, column: 3, offset: sql.indexOf("EXECUTE") });
    expect(s[3]!.loc.line).toBe(4);
  });

  it("returns no statements for empty input or only comments", () => {
    expect(parseStatements("")).toEqual([]);
    expect(parseStatements("  -- nothing\n/* here */ ;")).toEqual([]);
  });
});
