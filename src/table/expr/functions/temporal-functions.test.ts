import { describe, expect, test } from "vitest";
import type { SqlValue } from "../../types/sql-value.ts";
import { parseDate, parseTime, parseTimestamp } from "../../types/temporal.ts";
import { bindExpression } from "../compile-expression.ts";
import { bindError, evaluate, parseExpr, typeOfExpr } from "../expr-test-util.ts";
import { formatWithPattern, parseWithPattern } from "./date-format.ts";

const ts = parseTimestamp;
const SHANGHAI = { timeZone: "Asia/Shanghai" };

describe("date and time functions (Flink's documented examples)", () => {
  test.each([
    ["EXTRACT(DAY FROM DATE '2006-06-05')", 5],
    ["EXTRACT(YEAR FROM TIMESTAMP '2006-06-05 10:11:12')", 2006],
    ["EXTRACT(QUARTER FROM DATE '2006-06-05')", 2],
    ["EXTRACT(DOW FROM DATE '2006-06-05')", 2],
    ["EXTRACT(DOY FROM DATE '2006-02-01')", 32],
    ["EXTRACT(HOUR FROM TIME '12:44:31')", 12],
    ["EXTRACT(MILLISECOND FROM TIMESTAMP '2006-06-05 10:11:12.345')", 345],
    ["EXTRACT(MICROSECOND FROM TIMESTAMP '2006-06-05 10:11:12.345')", 345000],
    ["EXTRACT(EPOCH FROM TIMESTAMP '1969-12-31 23:59:59.5')", 0],
    ["EXTRACT(CENTURY FROM DATE '0000-06-01')", 0],
    ["EXTRACT(HOUR FROM TIMESTAMP '1969-12-31 23:00:00')", 23],
    ["EXTRACT(EPOCH FROM TIMESTAMP '1970-01-02 00:00:01')", 86401],
    ["EXTRACT(CENTURY FROM DATE '2000-12-31')", 20],
    ["EXTRACT(CENTURY FROM DATE '2001-01-01')", 21],
    ["EXTRACT(DECADE FROM DATE '2019-05-01')", 201],
    ["YEAR(DATE '1994-09-27')", 1994],
    ["QUARTER(DATE '1994-09-27')", 3],
    ["MONTH(DATE '1994-09-27')", 9],
    ["WEEK(DATE '1994-09-27')", 39],
    ["WEEK(DATE '2021-01-01')", 53],
    ["DAYOFYEAR(DATE '1994-09-27')", 270],
    ["DAYOFMONTH(DATE '1994-09-27')", 27],
    ["DAYOFWEEK(DATE '1994-09-27')", 3],
    ["HOUR(TIMESTAMP '1994-09-27 13:14:15')", 13],
    ["MINUTE(TIMESTAMP '1994-09-27 13:14:15')", 14],
    ["SECOND(TIMESTAMP '1994-09-27 13:14:15')", 15],
    ["FLOOR(TIME '12:44:31' TO MINUTE)", parseTime("12:44:00")],
    ["CEIL(TIME '12:44:31' TO MINUTE)", parseTime("12:45:00")],
    ["FLOOR(TIMESTAMP '2020-05-17 12:44:31.5' TO HOUR)", ts("2020-05-17 12:00:00")],
    ["CEIL(TIMESTAMP '2020-05-17 12:44:31' TO DAY)", ts("2020-05-18 00:00:00")],
    ["CEIL(TIMESTAMP '2020-05-17 00:00:00' TO DAY)", ts("2020-05-17 00:00:00")],
    ["FLOOR(TIMESTAMP '2020-05-17 12:44:31' TO MONTH)", ts("2020-05-01 00:00:00")],
    ["CEIL(TIMESTAMP '2020-05-17 12:44:31' TO QUARTER)", ts("2020-07-01 00:00:00")],
    ["FLOOR(TIMESTAMP '2020-05-17 12:44:31' TO YEAR)", ts("2020-01-01 00:00:00")],
    ["FLOOR(TIMESTAMP '2020-05-20 12:44:31' TO WEEK)", ts("2020-05-17 00:00:00")],
    ["FLOOR(DATE '2020-05-20' TO MONTH)", parseDate("2020-05-01")],
    ["DATE_FORMAT(TIMESTAMP '2020-04-15 08:05:00.123', 'yyyy/MM/dd HH:mm:ss.SSS')", "2020/04/15 08:05:00.123"],
    ["DATE_FORMAT(TIMESTAMP '2020-04-05 20:05:00', 'yy-M-d h:mm a, EEE EEEE MMM MMMM D')", "20-4-5 8:05 PM, Sun Sunday Apr April 96"],
    ["DATE_FORMAT(TIMESTAMP '2020-04-15 08:05:00', '''at'' HH''h''')", "at 08h"],
    ["DATE_FORMAT('2020-04-15 08:05:00', 'yyyyMMdd')", "20200415"],
    ["DATE_FORMAT('not a time', 'yyyyMMdd')", null],
    ["DATE_FORMAT(DATE '2020-04-15', 'dd.MM.yyyy')", "15.04.2020"],
    ["TO_TIMESTAMP('2020-04-15 08:05:00')", ts("2020-04-15 08:05:00")],
    ["TO_TIMESTAMP('2020-04-15 08:05:00.25')", ts("2020-04-15 08:05:00.25")],
    ["TO_TIMESTAMP('15/04/2020 08:05', 'dd/MM/yyyy HH:mm')", ts("2020-04-15 08:05:00")],
    ["TO_TIMESTAMP('20200415080500123', 'yyyyMMddHHmmssSSS')", ts("2020-04-15 08:05:00.123")],
    ["TO_TIMESTAMP('2020-02-30 00:00:00', 'yyyy-MM-dd HH:mm:ss')", ts("2020-02-29 00:00:00")],
    ["TO_TIMESTAMP('2020-02-32 00:00:00', 'yyyy-MM-dd HH:mm:ss')", null],
    ["TO_TIMESTAMP('1999-9-10 05:20:10', 'yyyy-MM-dd HH:mm:ss')", ts("1999-09-10 05:20:10")],
    ["TO_TIMESTAMP('2020-04-15 08:05:00 trailing', 'yyyy-MM-dd HH:mm:ss')", null],
    ["TO_TIMESTAMP('garbage')", null],
    ["TO_DATE('2020-04-15')", parseDate("2020-04-15")],
    ["TO_DATE('15.04.2020', 'dd.MM.yyyy')", parseDate("2020-04-15")],
    ["TO_DATE('2020-4-15', 'yyyy-MM-dd')", parseDate("2020-04-15")],
    ["TO_DATE('2020-13-01', 'yyyy-MM-dd')", parseDate("2021-01-01")],
    ["TO_DATE('x2020', 'yyyy')", null],
    ["TO_TIMESTAMP_LTZ(1500000000, 0)", 1_500_000_000_000],
    ["TO_TIMESTAMP_LTZ(1500000000123, 3)", 1_500_000_000_123],
    ["TO_TIMESTAMP_LTZ(1500000000123)", 1_500_000_000_123],
    ["TO_TIMESTAMP_LTZ(1.9, 0)", 1900],
    ["TO_TIMESTAMP_LTZ(-1.5, 3)", -1],
    ["TO_TIMESTAMP_LTZ(253402300800, 0)", null],
    ["UNIX_TIMESTAMP('2020-04-15 08:05:00')", 1586937900],
    ["UNIX_TIMESTAMP('2020/04/15', 'yyyy/MM/dd')", 1586908800],
    ["UNIX_TIMESTAMP('oops')", -(2n ** 63n)],
    ["UNIX_TIMESTAMP('2020-04-15 08:05:00.999')", 1586937900],
    ["UNIX_TIMESTAMP('1969-12-31 23:59:59')", -1],
    ["FROM_UNIXTIME(44)", "1970-01-01 00:00:44"],
    ["FROM_UNIXTIME(1586937900, 'yyyy-MM-dd')", "2020-04-15"],
    ["TIMESTAMPDIFF(DAY, TIMESTAMP '2003-01-02 10:00:00', TIMESTAMP '2003-01-03 10:00:00')", 1],
    ["TIMESTAMPDIFF(DAY, TIMESTAMP '2003-01-03 10:00:00', TIMESTAMP '2003-01-02 10:00:01')", 0],
    ["TIMESTAMPDIFF(HOUR, TIMESTAMP '2003-01-02 10:00:00', TIMESTAMP '2003-01-02 07:30:00')", -2],
    ["TIMESTAMPDIFF(MONTH, TIMESTAMP '2003-01-31 10:00:00', TIMESTAMP '2003-02-28 10:00:00')", 1],
    ["TIMESTAMPDIFF(MONTH, TIMESTAMP '2003-01-28 10:00:01', TIMESTAMP '2003-02-28 10:00:00')", 0],
    ["TIMESTAMPDIFF(MONTH, TIMESTAMP '2003-03-28 10:00:00', TIMESTAMP '2003-01-28 11:00:00')", -2],
    ["TIMESTAMPDIFF(MONTH, TIMESTAMP '2003-01-28 10:00:00', TIMESTAMP '2003-02-28 10:00:00')", 1],
    ["TIMESTAMPDIFF(YEAR, DATE '2000-02-29', DATE '2004-02-28')", 3],
    ["TIMESTAMPDIFF(QUARTER, DATE '2000-01-01', DATE '2000-12-31')", 3],
    ["TIMESTAMPADD(WEEK, 1, DATE '2003-01-02')", parseDate("2003-01-09")],
    ["TIMESTAMPADD(MONTH, 1, DATE '2003-01-31')", parseDate("2003-02-28")],
    ["TIMESTAMPADD(HOUR, -3, TIMESTAMP '2003-01-02 01:00:00')", ts("2003-01-01 22:00:00")],
    ["TIMESTAMPADD(HOUR, 1, DATE '2003-01-02')", ts("2003-01-02 01:00:00")],
    ["CONVERT_TZ('1970-01-01 00:00:00', 'UTC', 'America/Los_Angeles')", "1969-12-31 16:00:00"],
    ["CONVERT_TZ('2020-06-01 12:00:00', 'Asia/Shanghai', '+02:00')", "2020-06-01 06:00:00"],
  ] as [string, SqlValue][])("%s = %o", (e, want) => {
    expect(evaluate(e)).toEqual(want);
  });

  test("NULL in, NULL out", () => {
    const cols = "d DATE, t TIMESTAMP(3), s STRING, n BIGINT";
    for (const e of ["YEAR(d)", "EXTRACT(HOUR FROM t)", "FLOOR(t TO DAY)", "DATE_FORMAT(t, 'yyyy')", "DATE_FORMAT(d, s)", "TO_TIMESTAMP(s)",
      "TO_DATE(s, 'yyyy')", "TO_TIMESTAMP_LTZ(n, 3)", "UNIX_TIMESTAMP(s)", "FROM_UNIXTIME(n)", "TIMESTAMPDIFF(DAY, t, t)", "TIMESTAMPADD(DAY, 1, d)",
      "CONVERT_TZ(s, 'UTC', 'UTC')"]) {
      expect(evaluate(e, cols, [null, null, null, null]), e).toBe(null);
    }
  });

  test("result types", () => {
    expect(typeOfExpr("YEAR(d)", "d DATE NOT NULL")).toBe("BIGINT NOT NULL");
    expect(typeOfExpr("EXTRACT(DAY FROM t)", "t TIMESTAMP(3)")).toBe("BIGINT");
    expect(typeOfExpr("FLOOR(t TO HOUR)", "t TIMESTAMP(3) NOT NULL")).toBe("TIMESTAMP(3) NOT NULL");
    expect(typeOfExpr("DATE_FORMAT(t, 'yyyy')", "t TIMESTAMP(3) NOT NULL")).toBe("VARCHAR(2147483647) NOT NULL");
    expect(typeOfExpr("TO_TIMESTAMP(s)", "s STRING NOT NULL")).toBe("TIMESTAMP(3)");
    expect(typeOfExpr("TO_TIMESTAMP_LTZ(n, 0)", "n BIGINT NOT NULL")).toBe("TIMESTAMP_LTZ(3)");
    expect(typeOfExpr("TIMESTAMPDIFF(SECOND, t, t)", "t TIMESTAMP(3) NOT NULL")).toBe("INT NOT NULL");
    expect(typeOfExpr("TIMESTAMPADD(DAY, 1, d)", "d DATE")).toBe("DATE");
    expect(typeOfExpr("CURRENT_TIMESTAMP")).toBe("TIMESTAMP_LTZ(3) NOT NULL");
    expect(typeOfExpr("PROCTIME()")).toBe("TIMESTAMP_LTZ(3) NOT NULL");
    expect(typeOfExpr("LOCALTIMESTAMP")).toBe("TIMESTAMP(3) NOT NULL");
    expect(typeOfExpr("CURRENT_DATE")).toBe("DATE NOT NULL");
    expect(typeOfExpr("CURRENT_TIME")).toBe("TIME(0) NOT NULL");
  });

  test("errors name the argument types and the unsupported unit or pattern", () => {
    expect(bindError("YEAR('2020')")).toBe("line 1, column 8: Cannot apply 'YEAR' to arguments of type <CHAR(4)>");
    expect(bindError("EXTRACT(HOUR FROM DATE '2020-01-01')")).toBe("line 1, column 8: Cannot apply 'EXTRACT(HOUR FROM …)' to arguments of type <DATE>");
    expect(bindError("FLOOR(1 TO DAY)")).toBe("line 1, column 8: Cannot apply 'FLOOR(… TO DAY)' to arguments of type <INT>");
    expect(bindError("DATE_FORMAT(1, 'yyyy')")).toBe("line 1, column 8: Cannot apply 'DATE_FORMAT' to arguments of type <INT>, <CHAR(4)>");
    expect(bindError("DATE_FORMAT(TIMESTAMP '2020-01-01 00:00:00', 'yyyy-qq')")).toBe("line 1, column 8: Illegal pattern character 'q' in date pattern 'yyyy-qq'");
    expect(bindError("TIMESTAMPDIFF(FORTNIGHT, DATE '2020-01-01', DATE '2020-01-02')")).toBe("line 1, column 22: The first argument of TIMESTAMPDIFF must be a time unit such as DAY, got 'FORTNIGHT'");
    expect(bindError("TIMESTAMPDIFF(DAY, 1, 2)")).toBe("line 1, column 8: Cannot apply 'TIMESTAMPDIFF' to arguments of type <INT>, <INT>");
    expect(bindError("TIMESTAMPDIFF(DAY, DATE '2020-01-01')")).toBe("line 1, column 8: Invalid number of arguments to function 'TIMESTAMPDIFF'. Was expecting 3 arguments");
    expect(bindError("TO_TIMESTAMP_LTZ(1, 6)")).toBe("line 1, column 8: The precision of TO_TIMESTAMP_LTZ must be 0 or 3, got 6");
  });
});

describe("the session time zone and the clock", () => {
  const clock = () => ts("2020-04-15 08:05:00.123"); // an instant: 08:05 UTC

  test("current-time functions read the clock on every evaluation and in the session zone", () => {
    let now = clock();
    const opts = { ...SHANGHAI, clock: () => now };
    const b = bindExpression(parseExpr("CURRENT_TIMESTAMP"), { names: [], types: [] }, opts);
    expect(b.constant).toBe(false);
    expect(b.eval([])).toBe(now);
    now += 1000;
    expect(b.eval([])).toBe(now);
    expect(evaluate("NOW()", undefined, [], opts)).toBe(now);
    expect(evaluate("PROCTIME()", undefined, [], opts)).toBe(now);
    expect(evaluate("LOCALTIMESTAMP", undefined, [], opts)).toBe(ts("2020-04-15 16:05:01.123"));
    expect(evaluate("CURRENT_DATE", undefined, [], opts)).toBe(parseDate("2020-04-15"));
    expect(evaluate("CURRENT_TIME", undefined, [], opts)).toBe(parseTime("16:05:01"));
    expect(evaluate("CURRENT_DATE", undefined, [], { timeZone: "America/Los_Angeles", clock: () => ts("2020-04-15 03:00:00") })).toBe(parseDate("2020-04-14"));
    expect(evaluate("UNIX_TIMESTAMP()", undefined, [], opts)).toBe(1586937901);
  });

  test("an unknown session time zone fails when binding", () => {
    expect(() => evaluate("1", undefined, [], { timeZone: "Mars/Olympus" })).toThrow("unknown time zone 'Mars/Olympus'");
  });

  test("TIMESTAMP_LTZ converts to TIMESTAMP, DATE and text on the session wall clock", () => {
    const instant = ts("2020-04-15 20:00:00"); // 2020-04-16 04:00 in Shanghai
    const cols = "l TIMESTAMP_LTZ(3)";
    expect(evaluate("CAST(l AS TIMESTAMP(3))", cols, [instant], SHANGHAI)).toBe(ts("2020-04-16 04:00:00"));
    expect(evaluate("CAST(l AS DATE)", cols, [instant], SHANGHAI)).toBe(parseDate("2020-04-16"));
    expect(evaluate("CAST(l AS STRING)", cols, [instant], SHANGHAI)).toBe("2020-04-16 04:00:00.000");
    expect(evaluate("CAST(CAST(l AS TIMESTAMP(3)) AS TIMESTAMP_LTZ(3))", cols, [instant], SHANGHAI)).toBe(instant);
    expect(evaluate("CAST(l AS TIMESTAMP(3))", cols, [instant])).toBe(instant);
    expect(evaluate("DATE_FORMAT(l, 'yyyy-MM-dd HH:mm XXX')", cols, [instant], SHANGHAI)).toBe("2020-04-16 04:00 +08:00");
    expect(evaluate("HOUR(l)", cols, [instant], SHANGHAI)).toBe(4);
    expect(evaluate("FLOOR(l TO DAY)", cols, [instant], SHANGHAI)).toBe(ts("2020-04-15 16:00:00"));
    expect(evaluate("TIMESTAMPADD(DAY, 1, l)", cols, [instant], SHANGHAI)).toBe(instant + 86_400_000);
    expect(evaluate("TIMESTAMP_LTZ '2020-04-16 04:00:00'", undefined, [], SHANGHAI)).toBe(instant);
    expect(evaluate("FROM_UNIXTIME(0)", undefined, [], SHANGHAI)).toBe("1970-01-01 08:00:00");
    expect(evaluate("UNIX_TIMESTAMP('1970-01-01 08:00:00')", undefined, [], SHANGHAI)).toBe(0);
    expect(evaluate("FROM_UNIXTIME(44)", undefined, [], { timeZone: "Asia/Tokyo" })).toBe("1970-01-01 09:00:44");
  });

  test("UNIX_TIMESTAMP: Flink's documented examples in Europe/Berlin", () => {
    const berlin = { timeZone: "Europe/Berlin" };
    expect(evaluate("UNIX_TIMESTAMP('1970-01-01 08:00:01.001', 'yyyy-MM-dd HH:mm:ss.SSS')", undefined, [], berlin)).toBe(25201);
    expect(evaluate("UNIX_TIMESTAMP('1970-01-01 08:00:01.001 +0800', 'yyyy-MM-dd HH:mm:ss.SSS X')", undefined, [], berlin)).toBe(1);
    expect(evaluate("UNIX_TIMESTAMP('1970-01-01 08:00:01.001 +0800', 'yyyy-MM-dd HH:mm:ss.SSS')", undefined, [], berlin)).toBe(25201);
    expect(evaluate("UNIX_TIMESTAMP('1970-01-01 08:00:01.001', 'yyyy-MM-dd HH:mm:ss.SSS X')", undefined, [], berlin)).toBe(-(2n ** 63n));
  });
});

describe("date patterns", () => {
  test("format and parse are inverse for the numeric fields", () => {
    const patterns = ["yyyy-MM-dd HH:mm:ss.SSS", "dd/MM/yyyy'T'HHmmss.SSS", "yyyyMMddHHmmssSSS", "yyyy-MM-dd hh:mm:ss.SSS a"];
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 500; i++) {
      const wall = (next() % 5_000_000) * 1_000_000 + (next() % 1_000_000) - 1_000_000_000_000;
      if (wall < ts("1000-01-01 00:00:00")) continue;
      for (const p of patterns) {
        expect(parseWithPattern(formatWithPattern(wall, p), p), `${p} at ${wall} (seed 12345)`).toBe(wall);
      }
    }
  });

  test("fractions as java.time: S… are the leading digits of the second's fraction", () => {
    const w = ts("2020-01-01 00:00:00.123");
    expect(formatWithPattern(w, "S")).toBe("1");
    expect(formatWithPattern(w, "SSSSSS")).toBe("123000");
    expect(parseWithPattern("2020-01-01 00:00:00.123456", "yyyy-MM-dd HH:mm:ss.SSSSSS")).toBe(w);
  });

  test("lenient reading as SimpleDateFormat: any digits, trailing text, roll-over, S as milliseconds", () => {
    expect(parseWithPattern("2020-4-5 7:3:9 and more", "yyyy-MM-dd HH:mm:ss", "lenient")).toBe(ts("2020-04-05 07:03:09"));
    expect(parseWithPattern("2020-02-30", "yyyy-MM-dd", "lenient")).toBe(ts("2020-03-01 00:00:00"));
    expect(parseWithPattern("20200415", "yyyyMMdd", "lenient")).toBe(ts("2020-04-15 00:00:00"));
    expect(parseWithPattern("5", "S", "lenient")).toBe(5);
    expect(parseWithPattern("2020-04", "yyyy-MM-dd", "lenient")).toBe(null);
  });
});
