import { describe, expect, it } from "vitest";
import type { StatementOf } from "../sql/ast.ts";
import { parseStatement } from "../sql/parser.ts";
import { exprSqlText } from "./expr-sql-text.ts";
import { formatLogicalType } from "../types/logical-type.ts";
import { resolveSchema } from "./resolved-schema.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";

const ddl = (sql: string) => parseStatement(sql) as StatementOf<"createTable">;
const schemaOf = (sql: string) => resolveSchema(ddl(sql));

function errorOf(sql: string): SqlValidationError {
  try {
    schemaOf(sql);
  } catch (e) {
    if (e instanceof SqlValidationError) return e;
    throw e;
  }
  throw new Error(`no error for ${sql}`);
}

describe("resolveSchema", () => {
  it("resolves the issue's clicks table: physical columns, watermark kept as AST", () => {
    const s = schemaOf(`CREATE TABLE clicks (
    user STRING, url STRING, cTime TIMESTAMP(3),
    WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND
  ) WITH ('connector' = 'filesystem', 'path' = 'clicks/', 'format' = 'json')`);
    expect(s.columns.map((c) => [c.name, c.kind === "physical" ? formatLogicalType(c.type) : "computed"])).toEqual([
      ["user", "STRING"],
      ["url", "STRING"],
      ["cTime", "TIMESTAMP(3)"],
    ]);
    expect(s.watermark?.rowtimeColumn).toBe("cTime");
    expect(exprSqlText(s.watermark!.expr)).toBe("`cTime` - INTERVAL '1' SECOND");
    expect(s.primaryKey).toBeUndefined();
  });

  it("keeps computed columns' expressions and makes primary key columns NOT NULL", () => {
    const s = schemaOf(`CREATE TABLE orders (
        id BIGINT, price DECIMAL(10, 2), qty INT, total AS price * qty,
        PRIMARY KEY (id) NOT ENFORCED)`);
    const [id, price, , total] = s.columns;
    expect(id!.kind === "physical" && formatLogicalType(id!.type)).toBe("BIGINT NOT NULL");
    expect(price!.kind === "physical" && formatLogicalType(price!.type)).toBe("DECIMAL(10, 2)");
    expect(total!.kind === "computed" && exprSqlText(total!.expr)).toBe("`price` * `qty`");
    expect(s.primaryKey).toEqual({ name: "PK_id", columns: ["id"] });
  });

  it("formats nested and sized types as Flink's summary strings", () => {
    const s = schemaOf("CREATE TABLE t (r ROW<a INT NOT NULL, b ARRAY<STRING>>, m MAP<STRING, BIGINT>, v VARCHAR(10), l TIMESTAMP_LTZ(3), b BYTES)");
    expect(s.columns.map((c) => (c.kind === "physical" ? formatLogicalType(c.type) : ""))).toEqual([
      "ROW<`a` INT NOT NULL, `b` ARRAY<STRING>>",
      "MAP<STRING, BIGINT>",
      "VARCHAR(10)",
      "TIMESTAMP_LTZ(3)",
      "BYTES",
    ]);
  });

  it("accepts TIMESTAMP_LTZ(3) and computed rowtime columns (typed later by the planner)", () => {
    expect(schemaOf("CREATE TABLE t (ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts)").watermark?.rowtimeColumn).toBe("ts");
    expect(schemaOf("CREATE TABLE t (s STRING, ts AS TO_TIMESTAMP(s), WATERMARK FOR ts AS ts)").watermark?.rowtimeColumn).toBe("ts");
  });

  it("reports an unknown rowtime column at its position, suggesting the nearest name", () => {
    const e = errorOf("CREATE TABLE t (user STRING, cTime TIMESTAMP(3),\n  WATERMARK FOR ctime AS ctime)");
    expect(e.message).toBe(
      "line 2, column 17: The rowtime attribute field 'ctime' is not defined in the table schema. Available fields: [`user`, `cTime`]. Did you mean 'cTime'?",
    );
    expect([e.line, e.column]).toEqual([2, 17]);
  });

  it("rejects a rowtime column that is not TIMESTAMP(3) or TIMESTAMP_LTZ(3), naming its type", () => {
    expect(errorOf("CREATE TABLE t (ts BIGINT, WATERMARK FOR ts AS ts)").message).toBe(
      "line 1, column 42: Invalid data type of time field for watermark definition. The field must be of type TIMESTAMP(3) or TIMESTAMP_LTZ(3), but the time field type is BIGINT.",
    );
    expect(errorOf("CREATE TABLE t (ts TIMESTAMP(6), WATERMARK FOR ts AS ts)").detail).toContain("but the time field type is TIMESTAMP(6).");
  });

  it("reports unknown, computed and repeated primary key columns", () => {
    expect(errorOf("CREATE TABLE t (order_id BIGINT, PRIMARY KEY (orderid) NOT ENFORCED)").message).toBe(
      "line 1, column 47: Could not create a PRIMARY KEY. Column 'orderid' does not exist. Did you mean 'order_id'?",
    );
    expect(errorOf("CREATE TABLE t (a INT, PRIMARY KEY (zzz) NOT ENFORCED)").detail).toBe("Could not create a PRIMARY KEY. Column 'zzz' does not exist.");
    expect(errorOf("CREATE TABLE t (a INT, b AS a + 1, PRIMARY KEY (b) NOT ENFORCED)").detail).toBe(
      "Could not create a PRIMARY KEY with column 'b'. A PRIMARY KEY constraint must be declared on physical columns.",
    );
    expect(errorOf("CREATE TABLE t (a INT, PRIMARY KEY (a, a) NOT ENFORCED)").detail).toContain("must not contain duplicate columns, but 'a' is repeated");
  });

  it("rejects duplicate column names, case-sensitively", () => {
    expect(errorOf("CREATE TABLE t (a INT, b INT, a STRING)").message).toBe("line 1, column 31: A column named 'a' already exists in the table.");
    expect(schemaOf("CREATE TABLE t (a INT, A INT)").columns.map((c) => c.name)).toEqual(["a", "A"]);
  });
});
