import { describe, expect, it } from "vitest";
import { compileCalc, type CalcStep } from "./calc-program.ts";
import { bindPlanExpr } from "./bind-plan-expr.ts";
import { planRowType } from "./plan-row-type.ts";
import type { PlanExpr, PlanRowType } from "./rel-node.ts";
import { parseExpr, rowTypeOf } from "../expr/expr-test-util.ts";
import { codeOf } from "../expr/expr-code.ts";
import type { LogicalType } from "../types/logical-type.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { bigintOf } from "../types/bigint-value.ts";
import { SqlRuntimeError } from "../expr/sql-runtime-error.ts";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";

const COLUMNS = "i INT, j INT, l BIGINT, d DOUBLE, b BOOLEAN, c BOOLEAN, s STRING, t STRING, m DECIMAL(10, 2), r ROW<x INT, y STRING, z ROW<w BIGINT>>";
const INPUT = (() => {
  const t = rowTypeOf(COLUMNS);
  return planRowType(t.names.map((name, k) => ({ name, type: t.types[k]! })));
})();

type Category = "bool" | "int" | "bigint" | "double" | "decimal" | "string";

function categoryOf(t: LogicalType): Category | undefined {
  switch (t.kind) {
    case "boolean": return "bool";
    case "int": return "int";
    case "bigint": return "bigint";
    case "double": return "double";
    case "decimal": return "decimal";
    case "varchar": case "char": return "string";
    default: return undefined;
  }
}

/** The column paths of `t` by category, ROW fields included (`r.z.w`). */
function pathsOf(t: PlanRowType): Map<Category, string[]> {
  const paths = new Map<Category, string[]>();
  const add = (path: string, type: LogicalType) => {
    if (type.kind === "row") for (const f of type.fields) add(`${path}.${f.name}`, f.type);
    const c = categoryOf(type);
    if (c !== undefined) paths.set(c, [...(paths.get(c) ?? []), path]);
  };
  t.names.forEach((n, k) => add(n, t.types[k]!));
  return paths;
}

/** Random SQL over `t` that never throws (no integer or decimal division): what the generated code and the closures must agree on. */
function expressions(random: () => number, t: PlanRowType) {
  const paths = pathsOf(t);
  const pick = <T>(xs: readonly T[]): T => xs[randomInt(random, 0, xs.length - 1)]!;
  const literal: Record<Category, () => string> = {
    bool: () => pick(["TRUE", "FALSE", "CAST(NULL AS BOOLEAN)"]),
    int: () => pick(["0", "1", "-3", "7", "2147483647", "CAST(NULL AS INT)"]),
    bigint: () => pick(["9007199254740993", "-5000000000", "CAST(3 AS BIGINT)", "CAST(NULL AS BIGINT)"]),
    double: () => pick(["1.5e0", "-0.0e0", "1e309", "0e0 / 0e0", "CAST(NULL AS DOUBLE)"]),
    decimal: () => pick(["0.5", "-12.25", "CAST(NULL AS DECIMAL(10, 2))"]),
    string: () => pick(["'a'", "''", "'it''s'", "'\u2028\"\\'", "CAST(NULL AS STRING)"]),
  };
  const gen = (c: Category, depth: number): string => {
    const own = paths.get(c) ?? [];
    if (depth <= 0 || random() < 0.25) return own.length > 0 && random() < 0.75 ? pick(own) : literal[c]();
    const d = depth - 1;
    const any = (): Category => pick(["bool", "int", "bigint", "double", "decimal", "string"]);
    const branch = () => `CASE WHEN ${gen("bool", d)} THEN ${gen(c, d)}${random() < 0.5 ? ` WHEN ${gen("bool", d)} THEN ${gen(c, d)}` : ""}${random() < 0.7 ? ` ELSE ${gen(c, d)}` : ""} END`;
    switch (c) {
      case "bool": return pick([
        () => { const k = pick<Category>(["int", "bigint", "double", "decimal", "string", "bool"]); return `(${gen(k, d)}) ${pick(["=", "<>", "<", ">", "<=", ">="])} (${gen(k, d)})`; },
        () => `(${gen(pick<Category>(["int", "bigint"]), d)}) ${pick(["=", "<>", "<"])} (${gen(pick<Category>(["int", "bigint"]), d)})`,
        () => `NOT (${gen("bool", d)})`,
        () => `(${gen("bool", d)}) ${pick(["AND", "OR"])} (${gen("bool", d)})`,
        () => `(${gen(any(), d)}) IS ${pick(["", "NOT "])}NULL`,
        () => `(${gen("bool", d)}) IS ${pick(["", "NOT "])}${pick(["TRUE", "FALSE", "UNKNOWN"])}`,
        branch,
      ])();
      case "int": return pick([
        () => `(${gen("int", d)}) ${pick(["+", "-", "*"])} (${gen("int", d)})`,
        () => `-(${gen("int", d)})`,
        () => `MOD(${gen("int", d)}, ${pick(["7", "-2"])})`,
        branch,
      ])();
      case "bigint": return pick([
        () => `(${gen(pick<Category>(["int", "bigint"]), d)}) ${pick(["+", "-", "*"])} (${gen("bigint", d)})`,
        () => `MOD(${gen("bigint", d)}, 123)`,
        () => `CAST(${gen("int", d)} AS BIGINT)`,
        branch,
      ])();
      case "double": return pick([
        () => `(${gen(pick<Category>(["double", "int"]), d)}) ${pick(["+", "-", "*", "/"])} (${gen("double", d)})`,
        () => `CAST(${gen(pick<Category>(["int", "decimal", "bigint"]), d)} AS DOUBLE)`,
        branch,
      ])();
      case "decimal": return pick([
        () => `(${gen(pick<Category>(["decimal", "int"]), d)}) ${pick(["+", "-", "*"])} (${gen("decimal", d)})`,
        () => `-(${gen("decimal", d)})`,
        () => `0.908 * (${gen("bigint", d)})`,
        branch,
      ])();
      case "string": return pick([
        () => `(${gen("string", d)}) || (${gen("string", d)})`,
        () => `CAST(${gen(pick<Category>(["int", "bool"]), d)} AS STRING)`,
        () => `UPPER(${gen("string", d)})`, // a function without a shape: called as it is
        branch,
      ])();
    }
  };
  return (c: Category, depth: number): PlanExpr => {
    const text = gen(c, depth);
    return bindPlanExpr(parseExpr(text), t, text);
  };
}

function randomValue(random: () => number, t: LogicalType): SqlValue {
  if (random() < 0.2) return null;
  switch (t.kind) {
    case "boolean": return random() < 0.5;
    case "int": return randomInt(random, -3, 3) * (random() < 0.1 ? 1_000_000_000 : 1);
    case "bigint": return random() < 0.1 ? bigintOf(2n ** 60n + BigInt(randomInt(random, -3, 3))) : randomInt(random, -1000, 1000);
    case "double": return random() < 0.1 ? -0 : randomInt(random, -8, 8) / 4;
    case "decimal": return { unscaled: BigInt(randomInt(random, -10_000, 10_000)), scale: t.scale };
    case "varchar": case "char": return ["", "a", "b", "it's", "\u2028"][randomInt(random, 0, 4)]!;
    case "row": return t.fields.map((f) => randomValue(random, f.type));
    default: throw new Error(`no values of ${t.kind}`);
  }
}

/** The chain evaluated step by step with each expression's own evaluator. */
function byClosures(steps: readonly CalcStep[], fields: SqlValue[]): SqlValue[] | undefined {
  let f: SqlValue[] | undefined = fields;
  for (const s of steps) {
    if (s.kind === "filter") f = s.condition.eval(f) === true ? f : undefined;
    else f = s.exprs.map((e) => e.eval(f!));
    if (f === undefined) return undefined;
  }
  return f;
}

describe("generated Calc code", () => {
  it("computes what the expressions' evaluators compute, on random chains and rows with NULLs", () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const categories: Category[] = ["bool", "int", "bigint", "double", "decimal", "string"];
    let generated = 0;
    for (let chain = 0; chain < 300; chain++) {
      const steps: CalcStep[] = [];
      let t = INPUT;
      for (let k = randomInt(random, 1, 4); k > 0; k--) {
        const exprs = expressions(random, t);
        if (random() < 0.4) {
          steps.push({ kind: "filter", condition: exprs("bool", randomInt(random, 0, 3)) });
          continue;
        }
        // pass some input columns on (so that projections merge), compute others
        const project: PlanExpr[] = [];
        for (let n = randomInt(random, 1, 6); n > 0; n--) {
          project.push(exprs(categories[randomInt(random, 0, categories.length - 1)]!, randomInt(random, 0, 3)));
        }
        if (random() < 0.5) t.names.forEach((n) => project.splice(randomInt(random, 0, project.length), 0, bindPlanExpr(parseExpr(n), t, n)));
        steps.push({ kind: "project", exprs: project });
        t = planRowType(project.map((e, c) => ({ name: `p${c}`, type: e.type })));
      }
      for (const s of steps) for (const e of s.kind === "filter" ? [s.condition] : s.exprs) if (codeOf(e.eval) !== undefined) generated++;
      const calc = compileCalc(steps, INPUT.names.length);
      for (let row = 0; row < 40; row++) {
        const fields = INPUT.types.map((type) => randomValue(random, type));
        const texts = steps.map((s) => (s.kind === "filter" ? `WHERE ${s.condition.text}` : `SELECT ${s.exprs.map((e) => e.text).join(", ")}`));
        expect(calc([...fields]), `seed ${seed}, chain ${chain}: ${texts.join(" | ")} on ${JSON.stringify(fields, (_, v) => (typeof v === "bigint" ? `${v}n` : v))}`).toEqual(byClosures(steps, fields));
      }
    }
    expect(generated).toBeGreaterThan(500); // most expressions have a shape: the test covers generated code
  });

  const bind = (text: string) => bindPlanExpr(parseExpr(text), INPUT, text);
  const row = (i: SqlValue, l: SqlValue = 0): SqlValue[] => [i, 1, l, 0, true, false, "", "", null, null];

  it("evaluates AND, OR and CASE operands only when SQL does, and throws as the evaluators do", () => {
    const calc = compileCalc([
      { kind: "filter", condition: bind("i <> 0 AND 10 / i > 1 OR i = 0") },
      { kind: "project", exprs: [bind("CASE WHEN i = 0 THEN -1 ELSE 10 / i END"), bind("10 / j")] },
    ], INPUT.names.length);
    expect(calc(row(0))).toEqual([-1, 10]);
    expect(calc(row(5))).toEqual([2, 10]);
    expect(calc(row(20))).toBeUndefined();
    const divide = compileCalc([{ kind: "project", exprs: [bind("l"), bind("MOD(l, i)")] }], INPUT.names.length);
    expect(divide(row(3, 7))).toEqual([7, 1]);
    expect(() => divide(row(0, 7))).toThrow(SqlRuntimeError);
    expect(() => divide(row(0, 7))).toThrow("Division by zero");
    expect(divide(row(0, null))).toEqual([null, null]); // NULL first: no division
  });
});
