import { describe, expect, it } from "vitest";
import { Row } from "../data/row.ts";
import type { LogicalType } from "../types/logical-type.ts";
import { parseTime, parseTimestamp } from "../types/temporal.ts";
import { TableauPrinter } from "./tableau.ts";

const TIMESTAMP: LogicalType = { kind: "timestamp", precision: 3, withLocalTimeZone: false, nullable: true };
const TIME: LogicalType = { kind: "time", precision: 0, nullable: true };
const PRICE: LogicalType = { kind: "decimal", precision: 10, scale: 2, nullable: true };

describe("tableau printing", () => {
  it("shows TIMESTAMP and TIME as the SQL client does (Flink's pages: 2020-04-15 08:05 is 2020-04-15 08:05:00.000)", () => {
    const lines: string[] = [];
    const p = new TableauPrinter(
      [
        { name: "bidtime", type: TIMESTAMP },
        { name: "at", type: TIME },
        { name: "price", type: PRICE },
      ],
      true,
      (l) => lines.push(l),
    );
    p.header();
    p.row(Row.ofKind("+I", parseTimestamp("2020-04-15 08:05"), parseTime("08:05"), { unscaled: 400n, scale: 2 }));
    p.row(Row.ofKind("-U", parseTimestamp("2020-04-15 08:09:59.999"), null, null));
    p.footer(2);
    expect(lines).toEqual([
      "+----+-------------------------+--------------+--------------+",
      "| op |                 bidtime |           at |        price |",
      "+----+-------------------------+--------------+--------------+",
      "| +I | 2020-04-15 08:05:00.000 |     08:05:00 |         4.00 |",
      "| -U | 2020-04-15 08:09:59.999 |       <NULL> |       <NULL> |",
      "+----+-------------------------+--------------+--------------+",
      "2 rows in set",
    ]);
  });

  it("lines up CJK and emoji values by terminal columns, cutting long ones at a whole character", () => {
    const STRING: LogicalType = { kind: "varchar", length: 2147483647, nullable: true };
    const lines: string[] = [];
    const p = new TableauPrinter([{ name: "名前", type: { kind: "varchar", length: 6, nullable: true } }, { name: "note", type: STRING }], false, (l) => lines.push(l), 12);
    p.header();
    p.row(Row.of("Mary", "ok"));
    p.row(Row.of("東京", "🎉🎉"));
    p.row(Row.of("e\u0301", "日本語のテキストです"));
    p.footer(3);
    expect(lines).toEqual([
      "+--------+--------------+",
      "|   名前 |         note |",
      "+--------+--------------+",
      "|   Mary |           ok |",
      "|   東京 |         🎉🎉 |",
      "|      e\u0301 |  日本語の... |",
      "+--------+--------------+",
      "3 rows in set",
    ]);
  });
});
