import { describe, expect, it } from "vitest";
import { sexpr } from "../../../test/support/sql-sexpr.ts";
import type { Expr, Statement } from "./ast.ts";
import { parseStatement } from "./parser.ts";

/** Parses `SELECT <sql>` and returns the single select item's expression. */
function expr(sql: string): Expr {
  const s: Statement = parseStatement(`SELECT ${sql}`);
  if (s.kind !== "query" || s.query.body.kind !== "select") throw new Error("not a select");
  expect(s.query.body.items).toHaveLength(1);
  return s.query.body.items[0]!.expr;
}
const p = (sql: string) => sexpr(expr(sql));

describe("expression precedence", () => {
  it.each([
    ["a OR b AND c", "(OR a (AND b c))"],
    ["a AND b OR c", "(OR (AND a b) c)"],
    ["NOT a AND b", "(AND (NOT a) b)"],
    ["NOT a = b", "(NOT (= a b))"],
    ["a = b AND c <> d", "(AND (= a b) (<> c d))"],
    ["a != b", "(<> a b)"],
    ["a + b * c", "(+ a (* b c))"],
    ["(a + b) * c", "(* (+ a b) c)"],
    ["a - b - c", "(- (- a b) c)"],
    ["a / b % c", "(% (/ a b) c)"],
    ["-a * b", "(* (- a) b)"],
    ["-1 + 2", "(+ -1 2)"],
    ["a || b || c", "(|| (|| a b) c)"],
    ["a || b = c", "(= (|| a b) c)"],
    ["a + 1 < b * 2", "(< (+ a 1) (* b 2))"],
    ["a IS NULL AND b IS NOT NULL", "(AND (IS NULL a) (IS NOT NULL b))"],
    ["a IS NOT TRUE OR b IS FALSE", "(OR (IS NOT TRUE a) (IS FALSE b))"],
    ["a IS DISTINCT FROM b + 1 OR c IS NOT DISTINCT FROM d", "(OR (IS DISTINCT FROM a (+ b 1)) (IS NOT DISTINCT FROM c d))"],
    ["a BETWEEN 1 AND 2 AND b", "(AND (BETWEEN a 1 2) b)"],
    ["a NOT BETWEEN b + 1 AND c", "(NOT BETWEEN a (+ b 1) c)"],
    ["a IN (1, 2, 3)", "(IN a 1 2 3)"],
    ["a NOT IN ('x')", "(NOT IN a 'x')"],
    ["a IN (SELECT b FROM t)", "(IN a <query>)"],
    ["NOT a IN (1)", "(NOT (IN a 1))"],
    ["a LIKE 'x%' OR a NOT LIKE '%y'", "(OR (LIKE a 'x%') (NOT LIKE a '%y'))"],
    ["a LIKE 'x!%' ESCAPE '!'", "(LIKE a 'x!%' '!')"],
    ["EXISTS (SELECT 1 FROM t) AND a", "(AND (EXISTS <query>) a)"],
    ["NOT EXISTS (SELECT 1)", "(NOT (EXISTS <query>))"],
    ["(SELECT MAX(x) FROM t) + 1", "(+ <query> 1)"],
  ])("%s", (sql, want) => {
    expect(p(sql)).toBe(want);
  });
});

describe("expression forms", () => {
  it.each([
    ["CASE WHEN a > 1 THEN 'x' WHEN a > 0 THEN 'y' ELSE 'z' END", "(CASE (WHEN (> a 1) 'x') (WHEN (> a 0) 'y') (ELSE 'z'))"],
    ["CASE a WHEN 1 THEN 'one' END", "(CASE a (WHEN 1 'one'))"],
    ["CAST(a AS BIGINT)", "(CAST a bigint)"],
    ["TRY_CAST(a AS DECIMAL(10, 2))", "(TRY_CAST a decimal)"],
    ["COUNT(*)", "COUNT(*)"],
    ["COUNT(DISTINCT user)", "COUNT(DISTINCT user)"],
    ["SUM(price) FILTER (WHERE price > 10)", "SUM(price) FILTER (> price 10)"],
    ["INTERVAL '10' MINUTE", "(INTERVAL '10' MINUTE)"],
    ["INTERVAL '1:30' MINUTE TO SECOND", "(INTERVAL '1:30' MINUTE TO SECOND)"],
    ["INTERVAL -'2' DAY", "(INTERVAL -'2' DAY)"],
    ["EXTRACT(HOUR FROM ts)", "(EXTRACT HOUR ts)"],
    ["FLOOR(ts TO MINUTE)", "(FLOOR ts TO MINUTE)"],
    ["CEIL(ts TO HOUR)", "(CEIL ts TO HOUR)"],
    ["FLOOR(x)", "FLOOR(x)"],
    ["TIMESTAMP '2020-04-15 08:05:00.000'", "(TIMESTAMP '2020-04-15 08:05:00.000')"],
    ["DATE '2020-04-15'", "(DATE '2020-04-15')"],
    ["t.c", "t.c"],
    ["t.*", "t.*"],
    ["`select`.`From`", "select.From"],
    ["'it''s'", "'it''s'".replace("''", "'")],
    ["1.5e3 + .5", "(+ 1.5e3 .5)"],
    ["CURRENT_TIMESTAMP", "CURRENT_TIMESTAMP()"],
    ["PROCTIME()", "PROCTIME()"],
    ["DATE_FORMAT(ts, 'yyyy-MM-dd')", "DATE_FORMAT(ts, 'yyyy-MM-dd')"],
    ["ROW(a, 1)", "(ROW a 1)"],
    ["arr[1]", "(ITEM arr 1)"],
    ["ARRAY[1, 2]", "(ARRAY 1 2)"],
    ["LEFT(s, 2)", "LEFT(s, 2)"],
    ["POSITION('b' IN s)", "POSITION('b', s)"],
    ["SUBSTRING(s FROM 2 FOR 3)", "SUBSTRING(s, 2, 3)"],
    ["SUBSTRING(s FROM 2)", "SUBSTRING(s, 2)"],
    ["SUBSTRING(s, 2, 3)", "SUBSTRING(s, 2, 3)"],
    ["TRIM(s)", "TRIM(s)"],
    ["TRIM(BOTH 'x' FROM s)", "(TRIM BOTH 'x' s)"],
    ["TRIM(LEADING FROM s)", "(TRIM LEADING s)"],
    ["TRIM(' ' FROM s)", "(TRIM BOTH ' ' s)"],
    ["TRUE AND NULL", "(AND TRUE NULL)"],
  ])("%s", (sql, want) => {
    expect(p(sql)).toBe(want);
  });

  it("keeps the case of identifiers and of function names as written", () => {
    const e = expr("myFunc(Col)");
    expect(e.kind === "call" && e.name[0]!.value).toBe("myFunc");
  });

  it("parses OVER with PARTITION BY, ORDER BY and a frame", () => {
    const e = expr("SUM(amount) OVER (PARTITION BY product ORDER BY ts RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW)");
    if (e.kind !== "call" || e.over === undefined) throw new Error("no OVER");
    expect(e.over.partitionBy.map(sexpr)).toEqual(["product"]);
    expect(e.over.orderBy.map((o) => sexpr(o.expr))).toEqual(["ts"]);
    expect(e.over.frame?.unit).toBe("RANGE");
    expect(e.over.frame?.start.kind).toBe("preceding");
    expect(e.over.frame?.end.kind).toBe("currentRow");
  });

  it("parses ROW_NUMBER() OVER with a descending key and a ROWS frame", () => {
    const e = expr("ROW_NUMBER() OVER (PARTITION BY a, b ORDER BY price DESC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)");
    if (e.kind !== "call" || e.over === undefined) throw new Error("no OVER");
    expect(e.over.partitionBy).toHaveLength(2);
    expect(e.over.orderBy[0]).toMatchObject({ descending: true, nulls: "LAST" });
    expect(e.over.frame).toMatchObject({ unit: "ROWS", start: { kind: "unboundedPreceding" }, end: { kind: "currentRow" } });
  });

  it("parses data types in CAST", () => {
    const t = (sql: string) => {
      const e = expr(`CAST(x AS ${sql})`);
      if (e.kind !== "cast") throw new Error("not a cast");
      const { loc: _loc, ...rest } = e.type;
      return rest;
    };
    expect(t("INT")).toEqual({ kind: "int", nullable: true });
    expect(t("INTEGER NOT NULL")).toEqual({ kind: "int", nullable: false });
    expect(t("STRING")).toEqual({ kind: "varchar", length: 2147483647, nullable: true });
    expect(t("VARCHAR(10)")).toEqual({ kind: "varchar", length: 10, nullable: true });
    expect(t("CHAR(3)")).toEqual({ kind: "char", length: 3, nullable: true });
    expect(t("BYTES")).toEqual({ kind: "varbinary", length: 2147483647, nullable: true });
    expect(t("DECIMAL(38, 18)")).toEqual({ kind: "decimal", precision: 38, scale: 18, nullable: true });
    expect(t("DECIMAL")).toEqual({ kind: "decimal", precision: 10, scale: 0, nullable: true });
    expect(t("DOUBLE")).toEqual({ kind: "double", nullable: true });
    expect(t("TIME(3)")).toEqual({ kind: "time", precision: 3, nullable: true });
    expect(t("TIMESTAMP")).toEqual({ kind: "timestamp", precision: 6, withLocalTimeZone: false, nullable: true });
    expect(t("TIMESTAMP(3) WITH LOCAL TIME ZONE")).toEqual({ kind: "timestamp", precision: 3, withLocalTimeZone: true, nullable: true });
    expect(t("TIMESTAMP_LTZ(3)")).toEqual({ kind: "timestamp", precision: 3, withLocalTimeZone: true, nullable: true });
    expect(t("INTERVAL DAY TO SECOND")).toEqual({ kind: "interval", from: "DAY", to: "SECOND", nullable: true });
    expect(t("ARRAY<INT NOT NULL>")).toMatchObject({ kind: "array", element: { kind: "int", nullable: false } });
    expect(t("MAP<STRING, ARRAY<BIGINT>>")).toMatchObject({ kind: "map", key: { kind: "varchar" }, value: { kind: "array", element: { kind: "bigint" } } });
    expect(t("ROW<a INT, b STRING 'the b'>")).toMatchObject({
      kind: "row",
      fields: [{ name: { value: "a" }, type: { kind: "int" } }, { name: { value: "b" }, type: { kind: "varchar" }, description: "the b" }],
    });
    expect(t("ROW(a INT)")).toMatchObject({ kind: "row", fields: [{ name: { value: "a" } }] });
    for (const simple of ["BOOLEAN", "TINYINT", "SMALLINT", "BIGINT", "FLOAT", "DATE"]) {
      expect(t(simple).kind).toBe(simple.toLowerCase());
    }
  });

  it("records the location of each expression", () => {
    const e = expr("a +\n  b");
    if (e.kind !== "binary") throw new Error("not binary");
    expect(e.right.loc).toEqual({ line: 2, column: 3, offset: 13 });
  });
});
