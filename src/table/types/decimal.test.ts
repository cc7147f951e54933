import { describe, expect, it } from "vitest";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import {
  additionType,
  avgType,
  checkDecimalType,
  compareDecimal,
  decimalAdd,
  decimalDigits,
  decimalDivide,
  DecimalDivisionByZeroError,
  decimalFromNumber,
  decimalModulo,
  decimalMultiply,
  decimalMultiplyInteger,
  decimalNegate,
  decimalSubtract,
  decimalToNumber,
  decimalToString,
  divisionType,
  moduloType,
  multiplicationType,
  normalizeDecimal,
  parseDecimal,
  sumType,
  toDecimalType,
  type Decimal,
  type DecimalType,
} from "./decimal.ts";

const d = (text: string): Decimal => parseDecimal(text)!;
const t = (precision: number, scale: number): DecimalType => ({ precision, scale });
const str = (v: Decimal | null): string | null => (v === null ? null : decimalToString(v));

describe("DECIMAL text", () => {
  it.each([
    ["0", 0n, 0, "0"],
    ["12.30", 1230n, 2, "12.30"],
    ["-0.005", -5n, 3, "-0.005"],
    [".5", 5n, 1, "0.5"],
    ["-7.", -7n, 0, "-7"],
    ["+3.25", 325n, 2, "3.25"],
    ["1e3", 1000n, 0, "1000"],
    ["1.5E-2", 15n, 3, "0.015"],
    ["12345678901234567890123456789012345678", 12345678901234567890123456789012345678n, 0, "12345678901234567890123456789012345678"],
  ])("parses %s exactly and prints it back", (text, unscaled, scale, printed) => {
    expect(parseDecimal(text)).toEqual({ unscaled, scale });
    expect(decimalToString(d(text))).toBe(printed);
  });

  it.each(["", "abc", "1.2.3", ".", "--1", "1e", "0x10"])("refuses %j", (text) => {
    expect(() => parseDecimal(text)).toThrow(SyntaxError);
  });

  it("rounds HALF_UP (halves away from zero) to the type's scale", () => {
    expect(str(parseDecimal("2.345", t(3, 2)))).toBe("2.35");
    expect(str(parseDecimal("2.344", t(3, 2)))).toBe("2.34");
    expect(str(parseDecimal("-2.345", t(3, 2)))).toBe("-2.35");
    expect(str(parseDecimal("0.5", t(1, 0)))).toBe("1");
    expect(str(parseDecimal("-0.5", t(1, 0)))).toBe("-1");
    expect(str(parseDecimal("0.49", t(1, 0)))).toBe("0");
    expect(str(parseDecimal("1.5", t(5, 3)))).toBe("1.500");
  });

  it("is NULL when the value overflows the type's precision (after rounding)", () => {
    expect(parseDecimal("1000", t(3, 0))).toBeNull();
    expect(str(parseDecimal("999", t(3, 0)))).toBe("999");
    expect(parseDecimal("9.995", t(3, 2))).toBeNull(); // rounds to 10.00: 4 digits
    expect(parseDecimal("10", t(2, 1))).toBeNull();
  });

  it("checks types", () => {
    expect(() => checkDecimalType(t(39, 0))).toThrow(/between 1 and 38/);
    expect(() => checkDecimalType(t(5, 6))).toThrow(/scale must be between 0 and the precision 5/);
    expect(checkDecimalType(t(38, 38))).toEqual(t(38, 38));
  });

  it("converts from and to numbers", () => {
    expect(str(decimalFromNumber(0.1, t(10, 3)))).toBe("0.100");
    expect(str(decimalFromNumber(1.005, t(10, 2)))).toBe("1.01"); // from the text "1.005", not the binary float
    expect(str(decimalFromNumber(2n ** 70n, t(38, 0)))).toBe("1180591620717411303424");
    expect(decimalFromNumber(Number.NaN, t(10, 0))).toBeNull();
    expect(decimalToNumber(d("-12.5"))).toBe(-12.5);
  });

  it("converts to the double nearest the decimal text, for random values of every size and scale", () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const digits = (n: number) => Array.from({ length: n }, () => randomInt(random, 0, 9)).join("");
    const edges = [0n, 1n, -1n, 2n ** 53n, -(2n ** 53n), 2n ** 53n + 1n, -(2n ** 53n) - 1n, 9007199254740993n, 10n ** 38n - 1n];
    for (let i = 0; i < 20_000; i++) {
      const unscaled = i < edges.length * 40 ? edges[i % edges.length]! : BigInt((random() < 0.5 ? "-" : "") + digits(randomInt(random, 1, random() < 0.8 ? 16 : 38)));
      const value = { unscaled, scale: randomInt(random, 0, random() < 0.9 ? 24 : 38) };
      expect(decimalToNumber(value), `seed ${seed}: ${decimalToString(value)}`).toBe(Number(decimalToString(value)));
    }
  });
});

describe("DECIMAL result types (Flink's LogicalTypeMerging)", () => {
  it.each([
    ["+", additionType, t(5, 2), t(10, 4), t(11, 4)],
    ["+", additionType, t(38, 0), t(38, 0), t(38, 0)],
    ["+", additionType, t(38, 10), t(38, 2), t(38, 6)], // p = 36 + 10 + 1 = 47 > 38: 37 integer digits leave 1, at least 6 kept
    ["*", multiplicationType, t(5, 2), t(4, 1), t(10, 3)],
    ["*", multiplicationType, t(38, 10), t(38, 10), t(38, 6)], // 57 integer digits: at least 6 fraction digits
    ["*", multiplicationType, t(20, 2), t(20, 2), t(38, 4)], // scale below 6 is kept
    ["/", divisionType, t(10, 0), t(10, 0), t(21, 11)],
    ["/", divisionType, t(1, 0), t(1, 0), t(7, 6)],
    ["/", divisionType, t(5, 2), t(3, 1), t(10, 6)],
    ["/", divisionType, t(10, 4), t(5, 2), t(18, 10)],
    ["/", divisionType, t(38, 2), t(10, 0), t(38, 6)],
    ["%", moduloType, t(5, 2), t(3, 1), t(4, 2)],
  ])("%s, case %#", (_op, rule, a, b, expected) => {
    expect(rule(a, b)).toEqual(expected);
  });

  it("SUM and AVG", () => {
    expect(sumType(t(10, 2))).toEqual(t(38, 2));
    expect(avgType(t(10, 2))).toEqual(t(38, 6));
    expect(avgType(t(20, 8))).toEqual(t(38, 8));
  });
});

describe("DECIMAL arithmetic", () => {
  it("adds and subtracts exactly, aligning scales", () => {
    const rt = additionType(t(3, 2), t(3, 1));
    expect(rt).toEqual(t(5, 2));
    expect(str(decimalAdd(d("1.25"), d("10.5"), rt))).toBe("11.75");
    expect(str(decimalSubtract(d("1.25"), d("10.5"), rt))).toBe("-9.25");
    // 0.1 + 0.2 is 0.3 exactly (not 0.30000000000000004)
    expect(str(decimalAdd(d("0.1"), d("0.2"), additionType(t(2, 1), t(2, 1))))).toBe("0.3");
  });

  it("is exact beyond 2^53", () => {
    const big = t(38, 2);
    const a = parseDecimal("9007199254740993.01", big)!; // 2^53 + 1
    const rt = additionType(big, big);
    expect(str(decimalAdd(a, a, rt))).toBe("18014398509481986.02");
    expect(str(decimalMultiply(d("9007199254740993"), d("9007199254740993"), multiplicationType(t(16, 0), t(16, 0))))).toBe(
      "81129638414606699710187514626049" // (2^53 + 1)^2 = 2^106 + 2^54 + 1,
    );
  });

  it("multiplies, rounding HALF_UP when the capped type has fewer fraction digits", () => {
    expect(str(decimalMultiply(d("1.5"), d("2.25"), multiplicationType(t(2, 1), t(3, 2))))).toBe("3.375");
    // DECIMAL(38,10) × DECIMAL(38,10) is DECIMAL(38,6): 20 fraction digits rounded to 6
    const rt = multiplicationType(t(38, 10), t(38, 10));
    expect(str(decimalMultiply(parseDecimal("1.0000005", t(38, 10))!, parseDecimal("1", t(38, 10))!, rt))).toBe("1.000001");
    expect(str(decimalMultiply(parseDecimal("-1.0000005", t(38, 10))!, parseDecimal("1", t(38, 10))!, rt))).toBe("-1.000001");
    expect(str(decimalMultiply(parseDecimal("1.00000049", t(38, 10))!, parseDecimal("1", t(38, 10))!, rt))).toBe("1.000000");
  });

  it("multiplies by an integer as by the integer as a DECIMAL, for random values of every size (NULL on overflow, rounded when the type is capped)", () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const digits = (n: number) => Array.from({ length: n }, () => randomInt(random, 0, 9)).join("");
    const integers = [0, 1, -1, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 31, 94_906_267, 3];
    for (let i = 0; i < 20_000; i++) {
      const precision = randomInt(random, 1, 38);
      const type = t(precision, randomInt(random, 0, Math.min(precision, random() < 0.8 ? 6 : 38)));
      // a value of the type: at most `precision` digits
      const value = { unscaled: BigInt(`${random() < 0.3 ? "-" : ""}${digits(randomInt(random, 1, precision))}`), scale: type.scale };
      const n = i < integers.length * 100 ? integers[i % integers.length]! : (random() < 0.5 ? -1 : 1) * Math.floor(random() * 10 ** randomInt(random, 0, 16));
      const res = multiplicationType(type, t(19, 0));
      const want = decimalMultiply(value, { unscaled: BigInt(n), scale: 0 }, res);
      const got = decimalMultiplyInteger(value, n, res);
      expect(got === null ? null : { ...got }, `seed ${seed}: ${decimalToString(value)} × ${n} as DECIMAL(${res.precision}, ${res.scale})`).toStrictEqual(want === null ? null : { ...want });
    }
    // a narrow result type: NULL on overflow in either path
    expect(decimalMultiplyInteger(d("9.9"), 9, t(2, 1))).toBeNull();
    expect(str(decimalMultiplyInteger(d("0.908"), 250, multiplicationType(t(3, 3), t(19, 0))))).toBe("227.000");
  });

  it("divides to the result scale with HALF_UP", () => {
    expect(str(decimalDivide(d("2"), d("3"), divisionType(t(1, 0), t(1, 0))))).toBe("0.666667");
    expect(str(decimalDivide(d("1"), d("3"), divisionType(t(1, 0), t(1, 0))))).toBe("0.333333");
    expect(str(decimalDivide(d("-2"), d("3"), divisionType(t(1, 0), t(1, 0))))).toBe("-0.666667");
    expect(str(decimalDivide(d("10.00"), d("4.0"), divisionType(t(4, 2), t(2, 1))))).toBe("2.500000");
    expect(str(decimalDivide(d("1"), d("0.0000001"), { precision: 20, scale: 2 }))).toBe("10000000.00");
    expect(str(decimalDivide(d("7"), d("-2"), { precision: 5, scale: 0 }))).toBe("-4"); // -3.5 rounds away from zero
  });

  it("throws on division by zero and is NULL on overflow", () => {
    expect(() => decimalDivide(d("1"), d("0.00"), t(10, 6))).toThrow(DecimalDivisionByZeroError);
    expect(() => decimalModulo(d("1"), d("0"), t(10, 0))).toThrow(DecimalDivisionByZeroError);
    const max = parseDecimal("9".repeat(38), t(38, 0))!;
    expect(decimalAdd(max, d("1"), additionType(t(38, 0), t(1, 0)))).toBeNull();
    expect(decimalMultiply(max, d("2"), multiplicationType(t(38, 0), t(1, 0)))).toBeNull();
    expect(str(decimalSubtract(max, d("1"), additionType(t(38, 0), t(1, 0))))).toBe("9".repeat(37) + "8");
  });

  it("takes the remainder with the sign of the dividend", () => {
    const rt = moduloType(t(5, 2), t(3, 1));
    expect(str(decimalModulo(d("10.25"), d("3.0"), rt))).toBe("1.25");
    expect(str(decimalModulo(d("-10.25"), d("3.0"), rt))).toBe("-1.25");
    expect(str(decimalModulo(d("10.25"), d("-3.0"), rt))).toBe("1.25");
  });

  it("compares by value across scales, and normalizes", () => {
    expect(compareDecimal(d("1.50"), d("1.5"))).toBe(0);
    expect(compareDecimal(d("-1.5"), d("1.49"))).toBeLessThan(0);
    expect(compareDecimal(d("100000000000000000000.1"), d("100000000000000000000.01"))).toBeGreaterThan(0);
    expect(normalizeDecimal(d("1.500"))).toEqual({ unscaled: 15n, scale: 1 });
    expect(normalizeDecimal(d("100"))).toEqual({ unscaled: 100n, scale: 0 });
    expect(toDecimalType(d("1.5"), t(4, 3))).toEqual({ unscaled: 1500n, scale: 3 });
    expect([d("0"), d("0.05"), d("-123.45")].map(decimalDigits)).toEqual([1, 1, 5]);
    expect(str(decimalNegate(d("-0.50")))).toBe("0.50");
  });
});
