/**
 * Writing evaluators as JavaScript source (Flink's code generation): an
 * evaluator with a shape (see `expr-code.ts`) is written out inline, any
 * other is called as it is. Only indexes, operators and JSON literals are
 * written into the source; every other value (a function, a DECIMAL, a
 * bigint) is passed in, so no text of a query ever becomes code.
 */
import type { SqlValue } from "../types/sql-value.ts";
import type { Evaluator } from "./bound-expr.ts";
import { codeOf } from "./expr-code.ts";

/** Where the written code reads its input: the source of a field, and of the whole row as an array (for an evaluator called as it is). */
export interface Scope {
  field(i: number): string;
  array(): string;
  /**
   * The source of field `index` of the ROW value of field `field`, when the input reads it directly (a
   * source's record: `e.bid.price`); undefined (or absent): taken from the ROW value of `field(field)`.
   */
  rowField?(field: number, index: number): string | undefined;
}

/** The input row as the parameter `f` of the generated function. */
export const PARAMETER_SCOPE: Scope = { field: (i) => `f[${i}]`, array: () => "f" };

/**
 * Writes expressions into the body of one function, then compiles it.
 *
 * @example
 * ```ts
 * const w = new ExprWriter();
 * const plusOne = w.compile<Evaluator>("f", [`return ${w.write(ev, PARAMETER_SCOPE)};`]);
 * ```
 */
export class ExprWriter {
  private readonly externals: unknown[] = [];
  private temps = 0;

  /** The source of an expression that computes what `ev` does on the row of `scope`. */
  write(ev: Evaluator, scope: Scope): string {
    const code = codeOf(ev);
    if (code === undefined) return `${this.external(ev)}(${scope.array()})`;
    switch (code.op) {
      case "field": return scope.field(code.index);
      case "literal": return literal(code.value) ?? this.external(code.value);
      case "rowField": {
        const row = codeOf(code.row);
        const direct = row?.op === "field" ? scope.rowField?.(row.index, code.index) : undefined;
        if (direct !== undefined) return direct;
        const t = this.temp();
        return `((${t} = ${this.write(code.row, scope)}) === null ? null : ${t}[${code.index}])`;
      }
      case "not": { const t = this.temp(); return `((${t} = ${this.write(code.x, scope)}) === null ? null : !${t})`; }
      case "and": case "or": {
        const [a, b] = [this.temp(), this.temp()];
        const decides = code.op === "and" ? "false" : "true";
        const otherwise = code.op === "and" ? "true" : "false";
        return `((${a} = ${this.write(code.l, scope)}) === ${decides} ? ${decides} : (${b} = ${this.write(code.r, scope)}) === ${decides} ? ${decides} : ${a} === null || ${b} === null ? null : ${otherwise})`;
      }
      case "compare": {
        const [a, b] = [this.temp(), this.temp()];
        return `((${a} = ${this.write(code.l, scope)}) === null ? null : (${b} = ${this.write(code.r, scope)}) === null ? null : ${a} ${code.operator} ${b})`;
      }
      case "is": return `(${this.write(code.x, scope)} ${code.not ? "!==" : "==="} ${literal(code.want)})`;
      case "strict": {
        const ts = code.args.map(() => this.temp());
        const tests = code.args.map((a, i) => `(${ts[i]} = ${this.write(a, scope)}) === null ? null : `).join("");
        return `(${tests}${this.external(code.fn)}(${ts.join(", ")}))`;
      }
      case "case": return `(${code.whens.map(([w, t]) => `${this.write(w, scope)} === true ? ${this.write(t, scope)} : `).join("")}${this.write(code.otherwise, scope)})`;
    }
  }

  /** The function of parameter `parameter` whose body is `body` (statements that use what was written). */
  compile<F>(parameter: string, body: readonly string[]): F {
    const lines = [
      `"use strict";`,
      ...(this.externals.length === 0 ? [] : [`const ${this.externals.map((_, k) => `x${k} = x[${k}]`).join(", ")};`]),
      `return function generated(${parameter}) {`,
      ...(this.temps === 0 ? [] : [`  let ${Array.from({ length: this.temps }, (_, k) => `t${k}`).join(", ")};`]),
      ...body.map((l) => `  ${l}`),
      `};`,
    ];
    return new Function("x", lines.join("\n"))(this.externals) as F;
  }

  private external(v: unknown): string {
    return `x${this.externals.push(v) - 1}`;
  }

  private temp(): string {
    return `t${this.temps++}`;
  }
}

/**
 * `ev` as one generated function when it has a shape (else `ev` itself): the same values, without a call per node.
 *
 * @example
 * ```ts
 * const rowtime = generateEvaluator(computed[field]); // a CASE over ROW fields, inline
 * ```
 */
export function generateEvaluator(ev: Evaluator): Evaluator {
  if (codeOf(ev) === undefined) return ev;
  const w = new ExprWriter();
  return w.compile<Evaluator>("f", [`return ${w.write(ev, PARAMETER_SCOPE)};`]);
}

/** The source of a literal written in the code: null, a boolean, a finite number (not -0) or a string; else undefined. */
function literal(v: SqlValue): string | undefined {
  if (v === null || typeof v === "boolean") return String(v);
  if (typeof v === "number") return Number.isFinite(v) && !Object.is(v, -0) ? `(${v})` : undefined;
  if (typeof v === "string") return JSON.stringify(v);
  return undefined;
}
