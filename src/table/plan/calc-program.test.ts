import { describe, expect, it } from "vitest";
import { compileCalc, type CalcStep } from "./calc-program.ts";
import type { PlanExpr } from "./rel-node.ts";
import type { SqlValue } from "../types/sql-value.ts";

const INT = { kind: "int", nullable: true } as unknown as PlanExpr["type"];

function ref(i: number): PlanExpr {
  return { eval: (f) => f[i]!, type: INT, text: `$${i}`, inputRef: i, constant: false, reads: [i] };
}

/** An expression over `reads` that counts its evaluations. */
function counted(reads: number[], fn: (f: SqlValue[]) => SqlValue): PlanExpr & { calls: () => number } {
  let n = 0;
  return {
    eval: (f) => {
      n++;
      return fn(f);
    },
    type: INT,
    text: "e",
    constant: false,
    reads,
    calls: () => n,
  };
}

describe("compileCalc", () => {
  it("filters and projects, and returns a new array for a projection", () => {
    const steps: CalcStep[] = [
      { kind: "filter", condition: counted([0], (f) => (f[0] as number) > 1) },
      { kind: "project", exprs: [ref(1), counted([0, 1], (f) => (f[0] as number) + (f[1] as number))] },
    ];
    const calc = compileCalc(steps, 2);
    expect(calc([1, 10])).toBeUndefined();
    const input = [2, 10];
    const out = calc(input)!;
    expect(out).toEqual([10, 12]);
    out[0] = 99; // the consumer may mutate what it gets
    expect(input).toEqual([2, 10]);
  });

  it("computes only the values read above, each once", () => {
    const unread = counted([0], () => {
      throw new Error("never read");
    });
    const twice = counted([0], (f) => (f[0] as number) * 2);
    const steps: CalcStep[] = [
      { kind: "project", exprs: [ref(0), unread, twice] },
      { kind: "project", exprs: [counted([2], (f) => (f[2] as number) + 1), counted([2], (f) => (f[2] as number) + 2)] },
    ];
    const calc = compileCalc(steps, 1);
    expect(calc([5])).toEqual([11, 12]);
    expect(unread.calls()).toBe(0);
    expect(twice.calls()).toBe(1);
  });

  it("merges a projection that passes columns on (a computed column, a view) into the projection above, after the filters", () => {
    // scan (type, payload) -> computed (type, payload, time) -> WHERE type = 2 -> SELECT payload, time
    const time = counted([1], (f) => (f[1] as number[])[1]!);
    const where = counted([0], (f) => f[0] === 2);
    const steps: CalcStep[] = [
      { kind: "project", exprs: [ref(0), ref(1), time] },
      { kind: "filter", condition: where },
      { kind: "project", exprs: [counted([1], (f) => (f[1] as number[])[0]!), ref(2)] },
    ];
    const calc = compileCalc(steps, 2);
    expect(calc([0, [7, 70]])).toBeUndefined();
    expect(time.calls()).toBe(0); // not computed for the rows the filter drops
    expect(calc([2, [8, 80]])).toEqual([8, 80]);
    expect(time.calls()).toBe(1);
  });

  it("does not merge when a computed column would be computed twice per row", () => {
    const rand = counted([0], (f) => (f[0] as number) + 0.5);
    const steps: CalcStep[] = [
      { kind: "project", exprs: [ref(0), rand] },
      { kind: "project", exprs: [ref(1), ref(1)] },
    ];
    const out = compileCalc(steps, 1)([1])!;
    expect(out).toEqual([1.5, 1.5]);
    expect(rand.calls()).toBe(1);
  });

  it("a chain of filters passes the row's own fields on", () => {
    const calc = compileCalc([{ kind: "filter", condition: counted([0], (f) => f[0] === 1) }], 1);
    const fields = [1];
    expect(calc(fields)).toBe(fields);
    expect(calc([2])).toBeUndefined();
  });
});
