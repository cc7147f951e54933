/**
 * The batch oracle of the SQL suites against the changelog fold: the issue's
 * clicks example (`+I[Mary, 1] +I[Bob, 1] -U[Mary, 1] +U[Mary, 2]`), folded
 * after every input row, equals DuckDB's batch result over the rows so far.
 */
import { describe, expect, it } from "vitest";
import { MultisetTable } from "../src/table/data/changelog.ts";
import { Row } from "../src/table/data/row.ts";
import { decimal } from "../src/table/types/decimal.ts";
import { batchResult } from "./support/duckdb-oracle.ts";

const clicks: [string, string][] = [
  ["Mary", "./home"],
  ["Bob", "./cart"],
  ["Mary", "./prod?id=1"],
];
/** The changelog of `SELECT user, COUNT(url) FROM clicks GROUP BY user`, by the input row that causes it. */
const changes: Row[][] = [
  [Row.of("Mary", 1n)],
  [Row.of("Bob", 1n)],
  [Row.ofKind("-U", "Mary", 1n), Row.ofKind("+U", "Mary", 2n)],
];

describe("the DuckDB batch oracle", () => {
  it("equals the folded changelog of the clicks count after every input row", async () => {
    const table = new MultisetTable();
    for (let n = 1; n <= clicks.length; n++) {
      table.applyAll(changes[n - 1]!);
      const batch = await batchResult(
        [{ name: "clicks", columns: `"user" VARCHAR, url VARCHAR`, rows: clicks.slice(0, n) }],
        `SELECT "user", COUNT(url) FROM clicks GROUP BY "user"`,
      );
      expect(new MultisetTable().applyAll(batch).sortedRows(), `after ${n} clicks`).toEqual(table.sortedRows());
    }
  });

  it("returns decimals exactly, dates in epoch days, timestamps in epoch ms and NULL as null", async () => {
    const [row] = await batchResult(
      [{ name: "t", columns: "d DECIMAL(20, 2), x BIGINT", rows: [[decimal(12345678901234567n, 2), null]] }],
      "SELECT d * 2, x, DATE '1970-01-03', TIMESTAMP '1970-01-01 00:00:01.5' FROM t",
    );
    expect(row!.fields).toEqual([decimal(24691357802469134n, 2), null, 2, 1500]);
  });
});
