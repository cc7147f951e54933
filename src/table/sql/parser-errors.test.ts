import { describe, expect, it } from "vitest";
import { parseStatement, parseStatements } from "./parser.ts";
import { SqlParseError } from "./sql-parse-error.ts";

/** Parses `sql` and returns the SqlParseError it must throw. */
function errorOf(parse: () => unknown): SqlParseError {
  try {
    parse();
  } catch (e) {
    if (e instanceof SqlParseError) return e;
    throw e;
  }
  throw new Error("parsed without an error");
}

/** Malformed statements: the SQL, the expected `line:column`, and the message after the position. */
const CASES: [sql: string, at: string, detail: string][] = [
  ["SELECT a FROM", "1:14", "expected a table name but found end of input"],
  ["SELECT a, FROM t", "1:11", "expected an expression but found reserved word 'FROM' (quote it as `FROM` to use it as a name)"],
  ["SELECT FROM t", "1:8", "expected a select list but found 'FROM'"],
  ["SELECT a FROM t WHERE", "1:22", "expected an expression but found end of input"],
  ["SELECT a FROM t WHERE a =", "1:26", "expected an expression but found end of input"],
  ["SELECT (a + b FROM t", "1:15", "expected ')' but found 'FROM'"],
  ["SELECT a + b) FROM t", "1:13", "expected ';' or end of input but found ')'"],
  ["SELECT a FROM t GROUP a", "1:23", "expected BY but found 'a'"],
  ["SELECT a FROM t ORDER a", "1:23", "expected BY but found 'a'"],
  ["SELECT CASE WHEN a THEN b", "1:26", "expected WHEN, ELSE or END but found end of input"],
  ["SELECT CASE a END", "1:15", "expected WHEN but found 'END'"],
  ["SELECT CAST(a BIGINT) FROM t", "1:15", "expected AS but found 'BIGINT'"],
  ["SELECT CAST(a AS BIGNUM) FROM t", "1:18", "expected a data type but found 'BIGNUM'"],
  ["SELECT a FROM t LIMIT x", "1:23", "expected a non-negative integer after LIMIT but found 'x'"],
  ["SELECT COUNT(*  FROM t", "1:17", "expected ')' but found 'FROM'"],
  ["SELECT a FROM t JOIN u", "1:23", "expected ON or USING after JOIN but found end of input"],
  ["SELECT a FROM t LEFT JOIN u WHERE x", "1:29", "expected ON or USING after LEFT JOIN but found 'WHERE'"],
  ["SELECT a FROM t CROSS u", "1:23", "expected JOIN but found 'u'"],
  ["SELECT a IS 5 FROM t", "1:13", "expected NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM but found '5'"],
  ["SELECT a NOT 5 FROM t", "1:14", "expected BETWEEN, IN, LIKE or SIMILAR TO after NOT but found '5'"],
  ["SELECT a BETWEEN 1 FROM t", "1:20", "expected AND but found 'FROM'"],
  ["SELECT a IN 1 FROM t", "1:13", "expected '(' but found '1'"],
  ["SELECT INTERVAL 10 MINUTE", "1:17", "expected a string such as '10' after INTERVAL but found '10'"],
  ["SELECT INTERVAL '10' FORTNIGHT", "1:22", "expected a time unit (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, ...) but found 'FORTNIGHT'"],
  ["SELECT EXTRACT(FOO FROM ts) FROM t", "1:16", "expected a time unit (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, ...) but found 'FOO'"],
  ["SELECT FLOOR(ts TO) FROM t", "1:19", "expected a time unit (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, ...) but found ')'"],
  ["SELECT * FROM t MATCH_RECOGNIZE (PARTITION BY a)", "1:17", "MATCH_RECOGNIZE is not supported"],
  ["SELECT * FROM UNNEST(arr)", "1:15", "UNNEST is not supported"],
  ["SELECT * FROM t NATURAL JOIN u", "1:17", "NATURAL JOIN is not supported"],
  ["SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts) INTERVAL '1' MINUTE))", "1:52", "expected ',' or ')' but found 'INTERVAL'"],
  ["SELECT * FROM TABLE(TUMBLE(TABLE, DESCRIPTOR(ts), INTERVAL '1' MINUTE))", "1:33", "expected a table name but found ','"],
  ["SELECT * FROM TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE)", "1:21", "a table function must be called as TABLE(TUMBLE(...))"],
  ["SELECT * FROM t FOR SYSTEM_TIME OF x", "1:33", "expected AS but found 'OF'"],
  ["SELECT a FROM t UNION", "1:22", "expected SELECT, VALUES or '(' but found end of input"],
  ["SELECT SUM(a) OVER FROM t", "1:20", "expected '(' or a window name after OVER but found reserved word 'FROM' (quote it as `FROM` to use it as a name)"],
  ["SELECT SUM(a) OVER w FROM t WINDOW w (ORDER BY ts)", "1:38", "expected AS but found '('"],
  ["SELECT ROW_NUMBER() OVER (ORDER BY a ROWS BETWEEN 1 AND CURRENT ROW) FROM t", "1:53", "expected PRECEDING or FOLLOWING but found 'AND'"],
  ["SELECT a FROM t WHERE EXISTS SELECT 1", "1:30", "expected '(' and a subquery but found 'SELECT'"],
  ["SELECT a FROM t WHERE a IN (SELECT b FROM u", "1:44", "expected ')' but found end of input"],
  ["SELECT 'abc", "1:8", "unterminated string literal"],
  ["SELECT a FROM t; SELECT", "1:18", "expected end of input but found 'SELECT': parseStatement takes one statement (use parseStatements for several)"],
  ["CREATE TABLE t (a INT,)", "1:23", "expected a column name, WATERMARK or PRIMARY KEY but found ')'"],
  ["CREATE TABLE t (a)", "1:18", "expected a data type but found ')'"],
  ["CREATE TABLE t (a VARCHAR(x))", "1:27", "expected a length but found 'x'"],
  ["CREATE TABLE t (a DECIMAL(40, 2))", "1:19", "DECIMAL precision must be between 1 and 38, not 40"],
  ["CREATE TABLE t (a INT, PRIMARY KEY (a))", "1:39", "expected NOT ENFORCED but found ')'"],
  ["CREATE TABLE t (a INT, PRIMARY KEY (a) ENFORCED)", "1:40", "Flink supports only PRIMARY KEY ... NOT ENFORCED: the key is not checked against the data"],
  ["CREATE TABLE t (a INT, b INT, PRIMARY KEY (a) NOT ENFORCED, PRIMARY KEY (b) NOT ENFORCED)", "1:61", "a table can have only one PRIMARY KEY"],
  ["CREATE TABLE t (ts TIMESTAMP(3), WATERMARK ts AS ts)", "1:44", "expected FOR but found 'ts'"],
  ["CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts, WATERMARK FOR ts AS ts)", "1:58", "a table can have only one WATERMARK"],
  ["CREATE TABLE t (a INT) WITH ('connector' = 'x', 'connector' = 'y')", "1:49", "option 'connector' is given twice"],
  ["CREATE TABLE t (a INT) WITH (connector = 'x')", "1:30", "expected a quoted option key such as 'connector' but found 'connector'"],
  ["CREATE TABLE t (a INT) WITH ('connector' 'x')", "1:42", "expected '=' but found string literal 'x'"],
  ["CREATE TABLE t (a INT METADATA FROM x)", "1:37", "expected a quoted metadata key such as 'timestamp' but found 'x'"],
  ["CREATE TABLE t (a INT) PARTITIONED BY a", "1:39", "expected '(' but found 'a'"],
  ["CREATE TABLE t (a INT) PARTITIONED (a)", "1:36", "expected BY but found '('"],
  ["CREATE TABLE t AS SELECT 1", "1:16", "CREATE TABLE ... AS SELECT is not supported"],
  ["CREATE TABLE t (select INT)", "1:17", "expected a column name, WATERMARK or PRIMARY KEY but found reserved word 'select' (quote it as `select` to use it as a name)"],
  ["CREATE FUNCTION f AS 'm#f' USING JAR 'x.jar'", "1:28", "CREATE FUNCTION ... USING JAR (name a JavaScript module instead) is not supported"],
  ["CREATE VIEW v SELECT 1", "1:15", "expected AS but found 'SELECT'"],
  ["CREATE INDEX i ON t", "1:8", "expected TABLE, TEMPORARY, VIEW or FUNCTION but found 'INDEX'"],
  ["DROP t", "1:6", "expected TABLE, VIEW or FUNCTION but found 't'"],
  ["DROP TABLE IF t", "1:15", "expected EXISTS but found 't'"],
  ["SHOW DATABASES", "1:6", "SHOW DATABASES is not supported"],
  ["SHOW", "1:5", "expected TABLES, VIEWS or FUNCTIONS but found end of input"],
  ["DESCRIBE", "1:9", "expected a table name but found end of input"],
  ["SET a = 'b'", "1:5", "expected a quoted key such as 'table.exec.state.ttl' but found 'a'"],
  ["SET 'a' 'b'", "1:9", "expected '=' but found string literal 'b'"],
  ["RESET a", "1:7", "expected a quoted key but found 'a'"],
  ["EXPLAIN CREATE TABLE t (a INT)", "1:9", "expected a query, INSERT or EXECUTE STATEMENT SET to explain but found 'CREATE'"],
  ["EXPLAIN CHANGELOG_MODE, SELECT 1", "1:25", "expected CHANGELOG_MODE, ESTIMATED_COST, JSON_EXECUTION_PLAN or PLAN_ADVICE but found 'SELECT'"],
  ["INSERT t SELECT 1", "1:8", "expected INTO but found 't'"],
  ["INSERT INTO t", "1:14", "expected a query (SELECT, VALUES or WITH) but found end of input"],
  ["INSERT OVERWRITE t SELECT 1", "1:8", "INSERT OVERWRITE is not supported"],
  ["EXECUTE STATEMENT SET BEGIN SELECT 1; END", "1:29", "expected INSERT INTO but found 'SELECT'"],
  ["EXECUTE STATEMENT SET BEGIN INSERT INTO t SELECT 1 END", "1:52", "expected ';' after the INSERT statement but found 'END'"],
  ["EXECUTE STATEMENT SET BEGIN END", "1:32", "a statement set needs at least one INSERT INTO"],
  ["EXECUTE STATEMENT BEGIN INSERT INTO t SELECT 1; END", "1:19", "expected SET but found 'BEGIN'"],
  ["ALTER TABLE t RENAME TO u", "1:1", "the ALTER statement is not supported"],
  ["USE CATALOG c", "1:1", "the USE statement is not supported"],
  ["FOO BAR", "1:1", "expected a statement (SELECT, INSERT, CREATE, DROP, SHOW, DESCRIBE, SET, RESET, EXPLAIN or EXECUTE) but found 'FOO'"],
  ["SELECT a FROM t WHERE a = 1 SELECT", "1:29", "expected ';' or end of input but found 'SELECT'"],
  ["SELECT a FROM t WHERE b IS DISTINCT c", "1:37", "expected FROM but found 'c'"],
  ["SELECT a b c FROM t", "1:12", "expected ';' or end of input but found 'c'"],
  ["SELECT a FROM t AS", "1:19", "expected an alias but found end of input"],
  ["SELECT t. FROM t", "1:11", "expected a name after '.' but found reserved word 'FROM' (quote it as `FROM` to use it as a name)"],
  ["SELECT CAST(a AS TIMESTAMP(12)) FROM t", "1:18", "TIMESTAMP precision must be between 0 and 9, not 12"],
  ["SELECT CAST(a AS ARRAY<INT) FROM t", "1:27", "expected '>' but found ')'"],
  ["SELECT CAST(a AS MAP<INT>) FROM t", "1:25", "expected ',' but found '>'"],
  ["SELECT a FROM t WHERE a = SELECT 1", "1:27", "a subquery must be in parentheses: expected an expression but found 'SELECT'"],
  ["WITH a AS SELECT 1 SELECT * FROM a", "1:11", "expected '(' but found 'SELECT'"],
  ["WITH a AS (SELECT 1)", "1:21", "expected SELECT, VALUES or '(' but found end of input"],
  ["SELECT a FROM t GROUP BY GROUPING SETS ((a), ROLLUP(b))", "1:46", "ROLLUP inside GROUPING SETS is not supported"],
  ["VALUES", "1:7", "expected an expression but found end of input"],
  ["SELECT CASE WHEN a THEN b ELSE c", "1:33", "expected END but found end of input"],
  ["SELECT a FROM t FETCH FIRST 3 ROWS", "1:35", "expected ONLY but found end of input"],
  ["SELECT 1 +", "1:11", "expected an expression but found end of input"],
  ["SELECT #", "1:8", "unexpected character '#'"],
  ["SELECT a FROM (SELECT 1) x JOIN", "1:32", "expected a table name but found end of input"],
  ["SELECT * FROM TABLE(t)", "1:21", "expected a table function call such as TUMBLE(...) inside TABLE(...)"],
  ["SELECT POSITION('a' FROM s)", "1:21", "expected IN but found 'FROM'"],
  ["SELECT SUBSTRING(s FROM 1 TO 2)", "1:27", "expected ')' but found 'TO'"],
  ["SELECT TRIM(BOTH 'x' s)", "1:22", "expected FROM but found 's'"],
  ["SELECT a FROM t LATERAL (SELECT 1)", "1:17", "expected ';' or end of input but found 'LATERAL'"],
  ["SELECT * FROM t, LATERAL (SELECT 1)", "1:26", "a LATERAL subquery is not supported"],
  ["SELECT LISTAGG(a ORDER BY b) FROM t", "1:18", "ORDER inside a function call is not supported"],
  ["SELECT user,\n       COUNT(url\nFROM clicks\nGROUP BY user", "3:1", "expected ',' or ')' but found 'FROM'"],
  ["CREATE TABLE clicks (\n  user STRING,\n  url STRING\n  cTime TIMESTAMP(3)\n) WITH ('connector' = 'filesystem')", "4:3", "expected ',' or ')' but found 'cTime'"],
  ["INSERT INTO counts\nSELECT user, COUNT(url)\nFROM clicks\nGROUP BY user,", "4:15", "expected an expression but found end of input"],
  ["SELECT *\nFROM TABLE(\n  TUMBLE(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '10' SECONDS, )\n)", "3:66", "expected an expression but found ')'"],
  ["CREATE TABLE t (\n  ts TIMESTAMP(3),\n  WATERMARK FOR ts AS ts - INTERVAL 5 SECOND\n)", "3:37", "expected a string such as '10' after INTERVAL but found '5'"],
  ["SELECT\n  CASE\n    WHEN a > 1 THEN 'x'\n    WHEN a > 0 'y'\n  END\nFROM t", "4:16", "expected THEN but found string literal 'y'"],
  ["EXECUTE STATEMENT SET\nBEGIN\n  INSERT INTO a SELECT * FROM t;\n  DELETE FROM b;\nEND", "4:3", "expected INSERT INTO or END but found 'DELETE'"],
  ["SELECT a FROM t\nWHERE a NOT = 1", "2:13", "expected BETWEEN, IN, LIKE or SIMILAR TO after NOT but found '='"],
  ["SELECT a FROM t WHERE a = 1 AND", "1:32", "expected an expression but found end of input"],
  ["SELECT a FROM t WHERE a IN ()", "1:29", "expected an expression but found ')'"],
  ["SELECT COUNT(DISTINCT) FROM t", "1:22", "expected an expression but found ')'"],
  ["SELECT SUM(a) FILTER (a > 1) FROM t", "1:23", "expected WHERE but found 'a'"],
  ["SELECT a FROM t JOIN u ON", "1:26", "expected an expression but found end of input"],
  ["SELECT 1.2.3", "1:11", "expected ';' or end of input but found '.3'"],
];

describe("malformed statements", () => {
  it.each(CASES)("%j fails at %s", (sql, at, detail) => {
    const e = errorOf(() => parseStatement(sql));
    expect(`${e.line}:${e.column}`).toBe(at);
    expect(e.detail).toBe(detail);
    expect(e.message).toBe(`line ${e.line}, column ${e.column}: ${detail}`);
  });

  it("has at least 100 cases", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(100);
  });
});

describe("SqlParseError", () => {
  it("renders the offending line with a caret under the position", () => {
    const e = errorOf(() => parseStatement("SELECT user,\n       COUNT(url\nFROM clicks"));
    expect(e.render()).toBe("line 3, column 1: expected ',' or ')' but found 'FROM'\nFROM clicks\n^");
    expect(e.found).toBe("FROM");
    expect(e.expected).toEqual(["',' or ')'"]);
    expect(e.name).toBe("SqlParseError");
  });

  it("reports positions in the whole text for a later statement of parseStatements", () => {
    const e = errorOf(() => parseStatements("SET 'a' = 'b';\nSHOW TABLES;\nSELECT a FROM t WHERE;"));
    expect([e.line, e.column]).toEqual([3, 22]);
    expect(e.render()).toBe("line 3, column 22: expected an expression but found ';'\nSELECT a FROM t WHERE;\n                     ^");
  });

  it("requires a ';' between statements in parseStatements", () => {
    const e = errorOf(() => parseStatements("SHOW TABLES SHOW VIEWS"));
    expect(e.message).toBe("line 1, column 13: expected ';' or end of input but found 'SHOW'");
  });
});
