import { describe, expect, it } from "vitest";
import type { QualifiedName, StatementOf } from "../sql/ast.ts";
import { parseStatement } from "../sql/parser.ts";
import { Catalog } from "./catalog.ts";
import { describeTable } from "./describe-table.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";

/** Runs a DDL statement against `catalog`, returning what the catalog method returned. */
function exec(catalog: Catalog, sql: string): boolean {
  const s = parseStatement(sql);
  switch (s.kind) {
    case "createTable":
      return catalog.createTable(s);
    case "createView":
      return catalog.createView(s);
    case "drop":
      return catalog.drop(s);
    default:
      throw new Error(`not DDL: ${sql}`);
  }
}

/** The qualified name of the table in `SELECT * FROM <name>`. */
function nameIn(sql: string): QualifiedName {
  const q = (parseStatement(sql) as StatementOf<"query">).query;
  if (q.body.kind !== "select" || q.body.from?.kind !== "table") throw new Error("expected SELECT ... FROM table");
  return q.body.from.name;
}

function errorOf(f: () => unknown): SqlValidationError {
  try {
    f();
  } catch (e) {
    if (e instanceof SqlValidationError) return e;
    throw e;
  }
  throw new Error("no error");
}

const CLICKS = `CREATE TABLE clicks (
    user STRING, url STRING, cTime TIMESTAMP(3),
    WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND
  ) WITH ('connector' = 'filesystem', 'path' = 'clicks/', 'format' = 'json')`;

describe("Catalog", () => {
  it("creates, looks up, lists and drops tables and views", () => {
    const c = new Catalog();
    expect(exec(c, CLICKS)).toBe(true);
    expect(exec(c, "CREATE VIEW mary (u, n) AS SELECT user, url FROM clicks WHERE user = 'Mary'")).toBe(true);
    expect(exec(c, "CREATE TABLE counts (user STRING, cnt BIGINT) WITH ('connector' = 'print')")).toBe(true);
    expect(c.listTables()).toEqual(["clicks", "counts", "mary"]);
    expect(c.listViews()).toEqual(["mary"]);
    const t = c.getTable(nameIn("SELECT * FROM default_catalog.default_database.clicks"));
    expect([...t.options]).toEqual([
      ["connector", "filesystem"],
      ["path", "clicks/"],
      ["format", "json"],
    ]);
    expect(t.identifier).toEqual({ catalog: "default_catalog", database: "default_database", object: "clicks" });
    const v = c.getObject(nameIn("SELECT * FROM mary"));
    expect(v.kind === "view" && v.columns).toEqual(["u", "n"]);
    expect(v.kind === "view" && v.query.body.kind).toBe("select");
    expect(exec(c, "DROP VIEW mary")).toBe(true);
    expect(exec(c, "DROP TABLE default_database.counts")).toBe(true);
    expect(c.listTables()).toEqual(["clicks"]);
  });

  it("honours IF NOT EXISTS and IF EXISTS, and says what exists or is missing as Flink does", () => {
    const c = new Catalog();
    exec(c, CLICKS);
    expect(exec(c, "CREATE TABLE IF NOT EXISTS clicks (x INT)")).toBe(false);
    expect(c.getTable(nameIn("SELECT * FROM clicks")).schema.columns).toHaveLength(3);
    expect(errorOf(() => exec(c, "CREATE TABLE clicks (x INT)")).message).toBe(
      "line 1, column 14: Table (or view) default_database.clicks already exists in Catalog default_catalog.",
    );
    expect(exec(c, "DROP TABLE IF EXISTS x")).toBe(false);
    expect(errorOf(() => exec(c, "DROP TABLE x")).detail).toBe("Table with identifier 'default_catalog.default_database.x' does not exist.");
    expect(errorOf(() => exec(c, "DROP VIEW x")).detail).toBe("View with identifier 'default_catalog.default_database.x' does not exist.");
    expect(errorOf(() => exec(c, "DROP VIEW clicks")).detail).toBe(
      "View with identifier 'default_catalog.default_database.clicks' does not exist: it is a table. Use DROP TABLE.",
    );
  });

  it("suggests the nearest name for an unknown table, at its position", () => {
    const c = new Catalog();
    exec(c, CLICKS);
    const e = errorOf(() => c.getObject(nameIn("SELECT *\nFROM clikcs")));
    expect(e.message).toBe("line 2, column 6: Object 'clikcs' not found within 'default_catalog.default_database'. Did you mean 'clicks'?");
    expect(errorOf(() => c.getObject(nameIn("SELECT * FROM orders"))).detail).toBe(
      "Object 'orders' not found within 'default_catalog.default_database'.",
    );
  });

  it("is case-sensitive", () => {
    const c = new Catalog();
    exec(c, CLICKS);
    exec(c, "CREATE TABLE Clicks (a INT)");
    expect(c.listTables()).toEqual(["Clicks", "clicks"]);
    expect(errorOf(() => c.getObject(nameIn("SELECT * FROM CLICKS"))).detail).toContain("Did you mean 'Clicks'?");
  });

  it("rejects other catalogs and databases", () => {
    const c = new Catalog();
    expect(errorOf(() => exec(c, "CREATE TABLE mycat.db.t (a INT)")).message).toBe("line 1, column 14: Catalog 'mycat' does not exist.");
    expect(errorOf(() => exec(c, "CREATE TABLE default_catalog.default_databse.t (a INT)")).message).toBe(
      "line 1, column 30: A database with name [default_databse] does not exist in the catalog: [default_catalog]. Did you mean 'default_database'?",
    );
  });

  it("lets a temporary object shadow a permanent one, and drops each with its own statement", () => {
    const c = new Catalog();
    exec(c, "CREATE TABLE t (a INT)");
    exec(c, "CREATE TEMPORARY TABLE t (b STRING)");
    const cols = () => c.getTable(nameIn("SELECT * FROM t")).schema.columns.map((x) => x.name);
    expect(cols()).toEqual(["b"]);
    expect(c.listTables()).toEqual(["t"]);
    expect(errorOf(() => exec(c, "CREATE TEMPORARY TABLE t (c INT)")).detail).toBe(
      "Temporary table '`default_catalog`.`default_database`.`t`' already exists",
    );
    expect(errorOf(() => exec(c, "DROP TABLE t")).detail).toBe(
      "Temporary table with identifier 'default_catalog.default_database.t' exists. Drop it first before removing the permanent table.",
    );
    expect(exec(c, "DROP TEMPORARY TABLE t")).toBe(true);
    expect(cols()).toEqual(["a"]);
    expect(errorOf(() => exec(c, "DROP TEMPORARY TABLE t")).detail).toBe(
      "Temporary table with identifier 'default_catalog.default_database.t' does not exist.",
    );
    expect(exec(c, "DROP TABLE t")).toBe(true);
    expect(c.listTables()).toEqual([]);
    exec(c, "CREATE TEMPORARY VIEW v AS SELECT 1");
    expect(errorOf(() => exec(c, "DROP VIEW v")).detail).toBe(
      "Temporary view with identifier 'default_catalog.default_database.v' exists. Drop it first before removing the permanent view.",
    );
    expect(exec(c, "DROP TEMPORARY VIEW v")).toBe(true);
  });

  it("rejects invalid tables and views without registering them", () => {
    const c = new Catalog();
    expect(errorOf(() => exec(c, "CREATE TABLE t (a INT, a INT)")).detail).toBe("A column named 'a' already exists in the table.");
    expect(errorOf(() => exec(c, "CREATE VIEW v (a, a) AS SELECT 1, 2")).detail).toBe("A column named 'a' already exists in the view.");
    expect(c.listTables()).toEqual([]);
  });
});

describe("describeTable", () => {
  it("prints Flink's DESCRIBE rows: rowtime, watermark, key, computed extras", () => {
    const c = new Catalog();
    exec(c, CLICKS);
    expect(describeTable(c.getTable(nameIn("SELECT * FROM clicks")))).toEqual([
      { name: "user", type: "STRING", null: true, key: null, extras: null, watermark: null },
      { name: "url", type: "STRING", null: true, key: null, extras: null, watermark: null },
      { name: "cTime", type: "TIMESTAMP(3) *ROWTIME*", null: true, key: null, extras: null, watermark: "`cTime` - INTERVAL '1' SECOND" },
    ]);
    exec(c, "CREATE TABLE o (id BIGINT, k INT NOT NULL, price DECIMAL(10, 2), total AS price * 2, PRIMARY KEY (id, k) NOT ENFORCED)");
    const rows = describeTable(c.getTable(nameIn("SELECT * FROM o")), () => ({ kind: "decimal", precision: 21, scale: 2, nullable: true }));
    expect(rows).toEqual([
      { name: "id", type: "BIGINT", null: false, key: "PRI(id, k)", extras: null, watermark: null },
      { name: "k", type: "INT", null: false, key: "PRI(id, k)", extras: null, watermark: null },
      { name: "price", type: "DECIMAL(10, 2)", null: true, key: null, extras: null, watermark: null },
      { name: "total", type: "DECIMAL(21, 2)", null: true, key: null, extras: "AS `price` * 2", watermark: null },
    ]);
    expect(describeTable(c.getTable(nameIn("SELECT * FROM o")))[3]!.type).toBeNull();
  });
});
