import { describe, expect, it } from "vitest";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { tokenize } from "./lexer.ts";
import { parseStatement, parseStatements } from "./parser.ts";
import { SqlParseError } from "./sql-parse-error.ts";
import { MAX_NESTING } from "./token-cursor.ts";

const VALID = [
  `CREATE TABLE clicks (user STRING, url STRING, cTime TIMESTAMP(3), WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND, PRIMARY KEY (user) NOT ENFORCED) WITH ('connector' = 'filesystem', 'path' = 'clicks/')`,
  `INSERT INTO counts SELECT user, COUNT(url) FILTER (WHERE url LIKE '%x') FROM clicks GROUP BY user HAVING COUNT(*) > 1`,
  `SELECT window_start, COUNT(DISTINCT a) FROM TABLE(HOP(DATA => TABLE bid, TIMECOL => DESCRIPTOR(ts), SLIDE => INTERVAL '2' SECOND, SIZE => INTERVAL '10' SECOND)) GROUP BY window_start, window_end`,
  `WITH a AS (SELECT x, CASE WHEN x > 1 THEN 'a' ELSE 'b' END AS k FROM t) SELECT * FROM a LEFT JOIN r FOR SYSTEM_TIME AS OF a.ts AS rr ON a.x = rr.x WHERE a.k IN ('a', 'b') AND NOT EXISTS (SELECT 1 FROM u) ORDER BY x DESC LIMIT 3`,
  `SELECT ROW_NUMBER() OVER (PARTITION BY a ORDER BY b DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), CAST(c AS DECIMAL(10, 2)), EXTRACT(HOUR FROM ts), FLOOR(ts TO MINUTE) FROM t UNION ALL SELECT 1, 2, 3, 4 FROM u`,
  `EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT * FROM t; INSERT INTO b (x) VALUES (1), (2); END`,
  `CREATE TEMPORARY VIEW v (a, b) AS SELECT a, b FROM t GROUP BY GROUPING SETS ((a, b), (a), ())`,
  `EXPLAIN CHANGELOG_MODE SELECT a FROM t; SET 'k' = 'v'; RESET; SHOW TABLES; DESCRIBE t; DROP VIEW IF EXISTS v`,
];

/** Parses and accepts either a result or a SqlParseError; anything else fails the test. */
function parsesOrReportsError(sql: string, seed: number): void {
  try {
    parseStatements(sql);
  } catch (e) {
    if (!(e instanceof SqlParseError)) {
      throw new Error(`seed ${seed}: ${String(e)} for ${JSON.stringify(sql)}`);
    }
    expect(e.offset, `seed ${seed}: ${sql}`).toBeLessThanOrEqual(sql.length);
  }
}

describe("parser robustness", () => {
  it("parses every statement of the corpus", () => {
    for (const sql of VALID) expect(() => parseStatements(sql)).not.toThrow();
  });

  it("answers randomly mutated statements with a result or a SqlParseError, never another error", () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const pool = ["(", ")", ",", ";", "SELECT", "FROM", "AS", "TABLE", "'x'", "1", "*", "NOT", "AND", "INTERVAL", "END", "=>", "`q`", "-"];
    for (let i = 0; i < 3000; i++) {
      const sql = VALID[randomInt(random, 0, VALID.length - 1)]!;
      const tokens = tokenize(sql).slice(0, -1).map((t) => sql.slice(t.loc.offset, t.end));
      const at = randomInt(random, 0, tokens.length - 1);
      switch (randomInt(random, 0, 3)) {
        case 0:
          tokens.splice(at, 1);
          break;
        case 1:
          tokens.splice(at, 0, pool[randomInt(random, 0, pool.length - 1)]!);
          break;
        case 2:
          tokens.splice(at, 2, tokens[at + 1] ?? "", tokens[at]!);
          break;
        default:
          tokens.length = at;
      }
      parsesOrReportsError(tokens.join(" "), seed);
    }
  });

  it.each([
    ["parentheses", `SELECT ${"(".repeat(5000)}1${")".repeat(5000)}`],
    ["unary minus", `SELECT ${"- ".repeat(5000)}1`],
    ["NOT", `SELECT ${"NOT ".repeat(5000)}TRUE`],
    ["subqueries", `SELECT * FROM ${"(SELECT * FROM ".repeat(2000)}t${")".repeat(2000)}`],
    ["types", `SELECT CAST(x AS ${"ARRAY<".repeat(3000)}INT${">".repeat(3000)})`],
  ])("reports deeply nested %s as a located error, not a stack overflow", (_what, sql) => {
    try {
      parseStatement(sql);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SqlParseError);
      expect((e as SqlParseError).detail).toBe(`the statement nests more than ${MAX_NESTING} levels deep`);
    }
  });

  it("accepts nesting within the limit", () => {
    expect(parseStatement(`SELECT ${"(".repeat(50)}1${")".repeat(50)}`).kind).toBe("query");
  });
});
