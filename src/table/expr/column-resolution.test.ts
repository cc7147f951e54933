import { describe, expect, test } from "vitest";
import type { RowType } from "./type-rules.ts";
import { bindExpression } from "./compile-expression.ts";
import { bindError, parseExpr, rowTypeOf } from "./expr-test-util.ts";

/** `ord JOIN cust`: ord(id, amount, info ROW<city, zip>), cust(id, name), plus an unqualified `extra`. */
const orders = rowTypeOf("id INT, amount BIGINT, info ROW<city STRING, zip INT>");
const customers = rowTypeOf("id INT, name STRING");
const JOINED: RowType = {
  names: [...orders.names, ...customers.names, "extra"],
  types: [...orders.types, ...customers.types, { kind: "boolean", nullable: true }],
  qualifiers: ["ord", "ord", "ord", "cust", "cust", undefined],
};
const ROW = [1, 10, ["Paris", 75001], 2, "Ann", true];

function value(e: string) {
  return bindExpression(parseExpr(e), JOINED).eval(ROW);
}

describe("column resolution", () => {
  test("qualified names pick the field of their table; unique unqualified names resolve", () => {
    expect(value("ord.id")).toBe(1);
    expect(value("cust.id")).toBe(2);
    expect(value("amount + 1")).toBe(11);
    expect(value("name")).toBe("Ann");
    expect(value("cust.name")).toBe("Ann");
    expect(value("extra")).toBe(true);
  });

  test("ROW fields: col.field and t.col.field", () => {
    expect(value("info.city")).toBe("Paris");
    expect(value("ord.info.zip")).toBe(75001);
    expect(bindExpression(parseExpr("ord.info.zip"), JOINED).eval([1, 10, null, 2, "Ann", true])).toBe(null);
    expect(bindError("info.street", JOINED)).toBe("line 1, column 13: Unknown field 'street' of <ROW<`city` VARCHAR(2147483647), `zip` INT>>");
    expect(bindError("info.cty", JOINED)).toBe("line 1, column 13: Unknown field 'cty' of <ROW<`city` VARCHAR(2147483647), `zip` INT>>; did you mean 'city'?");
    expect(bindError("amount.x", JOINED)).toBe("line 1, column 15: Cannot access field 'x' of a value of type <BIGINT>: it is not a ROW");
  });

  test("a name in two inputs is ambiguous; unknown names and tables are located and suggest the nearest name", () => {
    expect(bindError("id + 1", JOINED)).toBe("line 1, column 8: Column 'id' is ambiguous");
    expect(bindError("ord.nme", JOINED)).toBe("line 1, column 12: Column 'nme' not found in table 'ord'");
    expect(bindError("cust.nme", JOINED)).toBe("line 1, column 13: Column 'nme' not found in table 'cust'; did you mean 'name'?");
    expect(bindError("x.id", JOINED)).toBe("line 1, column 8: Table 'x' not found");
    expect(bindError("cst.id", JOINED)).toBe("line 1, column 8: Table 'cst' not found; did you mean 'cust'?");
    expect(bindError("nam", JOINED)).toBe("line 1, column 8: Column 'nam' not found in any table; did you mean 'name'?");
  });

  test("without qualifiers, t.a is an unknown table (or a ROW field of a column named t)", () => {
    const plain = rowTypeOf("a INT, r ROW<x INT>");
    expect(bindError("t.a", plain)).toBe("line 1, column 8: Table 't' not found");
    expect(bindExpression(parseExpr("r.x"), plain).eval([1, [5]])).toBe(5);
  });

  test("a name that is both a table and a ROW column is the table, as in Calcite", () => {
    const rt: RowType = { names: ["t", "a"], types: [{ kind: "row", nullable: true, fields: [{ name: "a", type: { kind: "int", nullable: true } }] }, { kind: "int", nullable: true }], qualifiers: ["s", "t"] };
    expect(bindExpression(parseExpr("t.a"), rt).eval([[7], 9])).toBe(9);
    expect(bindExpression(parseExpr("s.t.a"), rt).eval([[7], 9])).toBe(7);
  });
});
