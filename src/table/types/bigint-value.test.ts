/**
 * BIGINT as a number when safe, a bigint beyond: a seeded property test of
 * the arithmetic, casts, comparisons, keys and aggregates on random 64-bit
 * values around ±2^53 and ±2^63 against a pure-bigint oracle of Java's
 * `long`. Inputs come in either form (a bigint of a small value is what an
 * earlier version's state holds); results must equal the oracle's and be
 * canonical.
 */
import { describe, expect, it } from "vitest";
import { aggCall, BIGINT } from "../../../test/support/agg-calls.ts";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { compile } from "../expr/compile-expression.ts";
import { parseExpr, rowTypeOf } from "../expr/expr-test-util.ts";
import { callAggregator } from "../runtime/agg/call-aggregator.ts";
import { sumAgg } from "../runtime/agg/numeric-sum.ts";
import type { ValueCount } from "../runtime/agg/value-counts.ts";
import { rowKeySelector } from "../runtime/row-key.ts";
import { Row } from "../data/row.ts";
import { stateKeyOf } from "../../state/state-key.ts";
import { bigintOf, canonicalBigint } from "./bigint-value.ts";
import { compareForSort, sqlCompare, sqlEquals, sqlNotDistinct } from "./sql-compare.ts";
import { sqlValueKey } from "./sql-value-key.ts";
import type { SqlValue } from "./sql-value.ts";

const I64 = (x: bigint) => BigInt.asIntN(64, x);
const SAFE = 2n ** 53n;
const ROUNDS = 3000;

/** A random 64-bit integer, mostly near the edges where forms and wrap-around change. */
function randomInt64(random: () => number): bigint {
  const sign = random() < 0.5 ? -1n : 1n;
  const near = (edge: bigint) => I64(sign * edge + BigInt(randomInt(random, -3, 3)));
  switch (randomInt(random, 0, 6)) {
    case 0: return BigInt(randomInt(random, -20, 20));
    case 1: return near(SAFE);
    case 2: return near(2n ** 63n);
    case 3: return near(2n ** 32n);
    case 4: return near(BigInt(Math.floor(Math.sqrt(2 ** 53)))); // products near 2^53
    default: {
      // a random bit length, so every magnitude is as likely
      const bits = randomInt(random, 1, 64);
      let x = 0n;
      for (let i = 0; i < bits; i += 26) x = (x << 26n) | BigInt(randomInt(random, 0, 2 ** 26 - 1));
      return I64(sign * (x & ((1n << BigInt(bits)) - 1n)));
    }
  }
}

/** `x` as a value: canonical, or (as old state holds it) a bigint. */
function asInput(x: bigint, random: () => number): SqlValue {
  return random() < 0.3 ? x : bigintOf(x);
}

function isCanonical(v: SqlValue): boolean {
  if (typeof v === "number") return Number.isSafeInteger(v) && !Object.is(v, -0);
  return typeof v === "bigint" && (v >= SAFE || v <= -SAFE);
}

const ROW = rowTypeOf("a BIGINT, b BIGINT, i INT, x DOUBLE, s STRING");
const compiled = new Map<string, (row: SqlValue[]) => SqlValue>();
function run(e: string, row: SqlValue[]): SqlValue {
  let f = compiled.get(e);
  if (f === undefined) compiled.set(e, (f = compile(parseExpr(e), ROW)));
  return f(row);
}

type Oracle = (a: bigint, b: bigint, i: number) => bigint | number | boolean | string | "div0";
const trunc = (a: bigint, b: bigint) => (b === 0n ? "div0" : I64(a / b));

/** The plain text of the decimal `unscaled × 10^-scale` (as CAST(… AS STRING) gives it). */
function decimalText(unscaled: bigint, scale: number): string {
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(scale + 1, "0");
  return `${unscaled < 0n ? "-" : ""}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
}

/** BIGINT expressions and Java's `long` results. */
const EXPRESSIONS: [string, Oracle][] = [
  ["a + b", (a, b) => I64(a + b)],
  ["a - b", (a, b) => I64(a - b)],
  ["a * b", (a, b) => I64(a * b)],
  ["a / b", trunc],
  ["a % b", (a, b) => (b === 0n ? "div0" : a % b)],
  ["MOD(a, b)", (a, b) => (b === 0n ? "div0" : a % b)],
  ["-a", (a) => I64(-a)],
  ["ABS(a)", (a) => I64(a < 0n ? -a : a)],
  ["SIGN(a)", (a) => (a > 0n ? 1n : a < 0n ? -1n : 0n)],
  ["a + i", (a, _b, i) => I64(a + BigInt(i))],
  ["i * a", (a, _b, i) => I64(BigInt(i) * a)],
  ["a * 3 - 1", (a) => I64(I64(a * 3n) - 1n)],
  ["a = b", (a, b) => a === b],
  ["a <> b", (a, b) => a !== b],
  ["a < b", (a, b) => a < b],
  ["a <= b", (a, b) => a <= b],
  ["a > b", (a, b) => a > b],
  ["a >= b", (a, b) => a >= b],
  ["a = i", (a, _b, i) => a === BigInt(i)],
  ["a IN (0, 1, -1, 9007199254740992, -9223372036854775808)", (a) => [0n, 1n, -1n, SAFE, -(2n ** 63n)].includes(a)],
  ["a BETWEEN b AND 9007199254740993", (a, b) => a >= b && a <= SAFE + 1n],
  ["GREATEST(a, b)", (a, b) => (a > b ? a : b)],
  ["COALESCE(a, b)", (a) => a],
  ["CASE WHEN a > 0 THEN a ELSE b END", (a, b) => (a > 0n ? a : b)],
  ["CAST(a AS INT)", (a) => Number(BigInt.asIntN(32, a))],
  ["CAST(a AS SMALLINT)", (a) => Number(BigInt.asIntN(16, a))],
  ["CAST(a AS DOUBLE)", (a) => Number(a)],
  ["CAST(a AS STRING)", (a) => a.toString()],
  ["CAST(CAST(a AS STRING) AS BIGINT)", (a) => a],
  ["CAST(CAST(a AS DECIMAL(20, 0)) AS BIGINT)", (a) => a],
  ["CAST(CAST(a AS DECIMAL(20, 0)) * 2 AS BIGINT)", (a) => I64(a * 2n)],
  ["CAST(i AS BIGINT)", (_a, _b, i) => BigInt(i)],
  // DECIMAL × an integer, either side, exact in both forms (the result types hold every 64-bit product)
  ["CAST(1.5 * a AS STRING)", (a) => decimalText(a * 15n, 1)],
  ["CAST(a * 0.25 AS STRING)", (a) => decimalText(a * 25n, 2)],
  ["CAST(i * -0.5 AS STRING)", (_a, _b, i) => decimalText(BigInt(i) * -5n, 1)],
];

/** Expressions whose value is one of their inputs, as it was given (a bigint 5n from old state stays 5n, equal to 5). */
const PASS_THROUGH = new Set(["GREATEST(a, b)", "COALESCE(a, b)", "CASE WHEN a > 0 THEN a ELSE b END"]);

function expected(v: ReturnType<Oracle>): SqlValue {
  return typeof v === "bigint" ? bigintOf(v) : v;
}

describe("BIGINT values across 2^53 (property test against a bigint oracle)", () => {
  it("arithmetic, casts and comparisons give the oracle's value, canonical, on inputs of either form", () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    for (let round = 0; round < ROUNDS; round++) {
      const a = randomInt64(random);
      const b = random() < 0.1 ? a : random() < 0.05 ? 0n : randomInt64(random);
      const i = random() < 0.5 ? randomInt(random, -5, 5) : randomInt(random, -(2 ** 31), 2 ** 31 - 1);
      const row = [asInput(a, random), asInput(b, random), i, null, null];
      for (const [e, oracle] of EXPRESSIONS) {
        const msg = `WEIR_SEED=${seed} round ${round}: ${e} with a=${a}n b=${b}n i=${i}`;
        const want = oracle(a, b, i);
        if (want === "div0") {
          expect(() => run(e, row), msg).toThrow("Division by zero");
          continue;
        }
        const got = run(e, row);
        if (PASS_THROUGH.has(e) && typeof want === "bigint") {
          // gives one of its inputs as it is: equal to the oracle's, canonical when the inputs are
          expect(sqlNotDistinct(got, bigintOf(want)), `${msg}: got ${String(got)}`).toBe(true);
          if (isCanonical(row[0]!) && isCanonical(row[1]!)) expect(isCanonical(got), msg).toBe(true);
          continue;
        }
        expect(got, msg).toStrictEqual(expected(want));
        if (typeof want === "bigint") expect(isCanonical(got), `${msg}: ${String(got)} (${typeof got}) is not canonical`).toBe(true);
      }
    }
  });

  it("DOUBLE to BIGINT truncates and saturates as Java's (long) cast", () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const doubles = [0.5, -0.5, -0, 2 ** 53, -(2 ** 53), 2 ** 53 + 2, 2 ** 63, -(2 ** 63), 2 ** 64, 1e300, -Infinity, Infinity, NaN];
    for (let n = 0; n < 500; n++) doubles.push(Number(randomInt64(random)) * (random() < 0.5 ? 1 : 1.5));
    for (const x of doubles) {
      const want = Number.isNaN(x) ? 0n : x >= 2 ** 63 ? 2n ** 63n - 1n : x <= -(2 ** 63) ? -(2n ** 63n) : BigInt(Math.trunc(x));
      const got = run("CAST(x AS BIGINT)", [null, null, null, x, null]);
      expect(got, `WEIR_SEED=${seed} CAST(${x} AS BIGINT)`).toStrictEqual(bigintOf(want));
    }
  });

  it("equal values are equal, ordered and keyed alike in both forms", () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    for (let round = 0; round < ROUNDS; round++) {
      const a = randomInt64(random);
      const b = randomInt64(random);
      const msg = `WEIR_SEED=${seed} a=${a}n b=${b}n`;
      for (const [x, y] of [[a, bigintOf(a)], [bigintOf(a), a]] as const) {
        expect(sqlEquals(x, y), msg).toBe(true);
        expect(sqlNotDistinct(x, y), msg).toBe(true);
        expect(sqlValueKey(x), msg).toBe(sqlValueKey(y));
      }
      const order = a < b ? -1 : a > b ? 1 : 0;
      expect(Math.sign(sqlCompare(bigintOf(a), b)!), msg).toBe(order);
      expect(Math.sign(compareForSort(a, bigintOf(b))), msg).toBe(order);
      expect(sqlValueKey(bigintOf(a)) === sqlValueKey(bigintOf(b)), msg).toBe(a === b);
      expect(canonicalBigint(a), msg).toStrictEqual(bigintOf(a));
    }
  });

  it("SUM, SUM0, AVG, MIN, MAX and COUNT of BIGINT give the oracle's values over adds and retractions", () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const calls = ["SUM", "SUM0", "AVG", "MIN", "MAX", "COUNT"] as const;
    for (let round = 0; round < 300; round++) {
      const values: bigint[] = [];
      const aggs = calls.map((fn) => callAggregator(aggCall(fn, [[0, BIGINT]]), { retractable: true }));
      const counts = calls.map(() => new Map<string, ValueCount>());
      let accs = aggs.map((g) => g.create());
      const steps = randomInt(random, 1, 30);
      for (let s = 0; s < steps; s++) {
        const retract = values.length > 0 && random() < 0.3;
        const v = retract ? values.splice(randomInt(random, 0, values.length - 1), 1)[0]! : randomInt64(random);
        if (!retract) values.push(v);
        accs = accs.map((acc, k) => (retract ? aggs[k]!.retract(acc, [asInput(v, random)], counts[k]!) : aggs[k]!.accumulate(acc, [asInput(v, random)], counts[k]!)));
        const msg = `WEIR_SEED=${seed} round ${round} step ${s}: values ${values.map((x) => `${x}n`).join(" ")}`;
        const n = BigInt(values.length);
        const sum = values.reduce((p, x) => p + x, 0n);
        const want: Record<(typeof calls)[number], SqlValue> = {
          SUM: n === 0n ? null : bigintOf(I64(sum)),
          SUM0: bigintOf(I64(sum)),
          AVG: n === 0n ? null : bigintOf(sum / n),
          MIN: n === 0n ? null : bigintOf(values.reduce((p, x) => (x < p ? x : p))),
          MAX: n === 0n ? null : bigintOf(values.reduce((p, x) => (x > p ? x : p))),
          COUNT: values.length,
        };
        calls.forEach((fn, k) => {
          const got = aggs[k]!.getValue(accs[k]!, counts[k]!);
          if (fn === "MIN" || fn === "MAX") expect(sqlNotDistinct(got, want[fn]), `${msg}: ${fn} ${String(got)}`).toBe(true); // keeps the value it was given
          else expect(got, `${msg}: ${fn}`).toStrictEqual(want[fn]);
        });
      }
    }
  });

  it("a SUM accumulator restored from an earlier version (a bigint sum) goes on with canonical values", () => {
    const f = sumAgg(BIGINT, false);
    const counts = new Map<string, ValueCount>();
    const restored = { sum: 5n as number | bigint, n: 1 };
    expect(f.getValue(restored, counts)).toBe(5);
    expect(f.getValue(f.add(restored, 3, counts), counts)).toBe(8);
    expect(f.getValue(f.add(restored, 2 ** 53, counts), counts)).toBe(2n ** 53n + 8n);
    expect(f.getValue(f.retract(restored, 2n ** 53n, counts), counts)).toBe(8);
    expect(f.getValue(f.merge(restored, counts, { sum: 2n ** 63n - 8n, n: 1 }, counts), counts)).toBe(-(2n ** 63n)); // wraps as before
  });

  it("a key restored as a bigint finds the state of the same key as a number", () => {
    const key = rowKeySelector([0, 1]);
    expect(key(Row.of(5n, "a"))).toBe(key(Row.of(5, "a")));
    expect(key(Row.of(-(2n ** 60n), "a"))).toBe(key(Row.of(bigintOf(-(2n ** 60n)), "a")));
    expect(stateKeyOf(key(Row.of(5n, "a")))).toBe(stateKeyOf(key(Row.of(5, "a"))));
    const single = rowKeySelector([0]);
    const state = new Map([[stateKeyOf(single(Row.of(5n))), "restored"]]);
    expect(state.get(stateKeyOf(single(Row.of(5))))).toBe("restored");
    expect(single(Row.of(2n ** 53n))).not.toBe(single(Row.of(2 ** 53 - 1)));
  });
});
