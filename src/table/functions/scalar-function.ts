/**
 * User-defined scalar functions, as Flink's `ScalarFunction`: an `eval`
 * called once per row with the argument values, and a declared result type
 * (TypeScript keeps no types at run time, so it is SQL type text:
 * `"BIGINT"`, `"DECIMAL(10, 2)"`, `"ARRAY<STRING>"`).
 *
 * Values passed to and returned from `eval` are {@link SqlValue}s (see
 * `src/table/types/sql-value.ts`): NULL is `null` (and is passed, so `eval`
 * decides what a NULL argument means, as in Flink), BIGINT a `bigint`,
 * DECIMAL a `{ unscaled, scale }`, DATE epoch days, TIMESTAMP epoch ms, ARRAY
 * a JavaScript array, MAP a `Map`, ROW an array of field values. A result is
 * checked against the result type; a whole `number` for a BIGINT and a
 * `number` for a DECIMAL are converted (see `udf-values.ts`). Arguments may
 * be mutated by `eval` without effect elsewhere only if they are copied: do
 * not mutate them.
 */
import type { SqlValue } from "../types/sql-value.ts";
import type { LogicalType } from "../types/logical-type.ts";
import type { ResolvedScalarFunction } from "../expr/bound-expr.ts";
import { parseSqlType } from "./sql-type-text.ts";
import { resultConverter } from "./udf-values.ts";

/**
 * A user-defined scalar function. Subclass it, declare `resultType` (and
 * optionally `argumentTypes`, which arguments are then checked against and
 * implicitly cast to) and implement `eval`.
 *
 * @example
 * ```ts
 * class SubstringFunction extends ScalarFunction {
 *   readonly resultType = "STRING";
 *   readonly argumentTypes = ["STRING", "INT", "INT"];
 *   eval(s: string | null, begin: number | null, end: number | null): string | null {
 *     return s === null || begin === null || end === null ? null : s.substring(begin, end);
 *   }
 * }
 * tEnv.createTemporarySystemFunction("SubstringFunction", new SubstringFunction());
 * tEnv.sqlQuery("SELECT SubstringFunction(myField, 5, 12) FROM MyTable");
 * ```
 */
export abstract class ScalarFunction {
  /** The SQL type of the result, e.g. `"BIGINT"` or `"DECIMAL(10, 2)"`. */
  abstract readonly resultType: string;
  /** The SQL types of the arguments; absent: any arguments are passed as they are. */
  readonly argumentTypes?: readonly string[];

  /** Computes the result for one row's argument values. */
  abstract eval(...args: never[]): unknown;

  /** False when the result may differ between calls with the same arguments: such calls are never folded at planning time. */
  isDeterministic(): boolean {
    return true;
  }
}

/** A scalar function written as an object literal: `{ resultType: "INT", eval: (a, b) => a + b }`. */
export interface ScalarFunctionSpec {
  readonly resultType: string;
  readonly argumentTypes?: readonly string[];
  readonly deterministic?: boolean;
  eval(...args: never[]): unknown;
}

/** A plain function carrying its result type: `Object.assign((s) => s.length, { resultType: "INT" })`. */
export type TypedFunction = ((...args: never[]) => unknown) & {
  readonly resultType: string;
  readonly argumentTypes?: readonly string[];
  readonly deterministic?: boolean;
};

/** Anything `createTemporarySystemFunction` accepts as a scalar function. */
export type ScalarFunctionDefinition = ScalarFunction | ScalarFunctionSpec | TypedFunction;

/** Thrown for a definition without a result type, with type text that does not parse, or without `eval`. */
export class InvalidFunctionDefinitionError extends Error {
  override readonly name = "InvalidFunctionDefinitionError";
}

/** A user-defined function's declared type, from its SQL type text. @throws {InvalidFunctionDefinitionError} */
export function parseDeclaredType(name: string, what: string, text: unknown): LogicalType {
  if (typeof text !== "string") throw new InvalidFunctionDefinitionError(`Function '${name}' needs a ${what} given as SQL type text such as "BIGINT" or "DECIMAL(10, 2)"`);
  try {
    return parseSqlType(text);
  } catch (err) {
    throw new InvalidFunctionDefinitionError(`Function '${name}': invalid ${what} "${text}": ${(err as Error).message}`);
  }
}

/**
 * The binder's view of a definition: parsed types and a checked call.
 *
 * @throws InvalidFunctionDefinitionError for a definition that is not usable
 * @example
 * ```ts
 * const f = resolveScalarFunction("plus1", Object.assign((x: bigint) => x + 1n, { resultType: "BIGINT" }));
 * f.invoke([41n]); // 42n
 * ```
 */
export function resolveScalarFunction(name: string, definition: ScalarFunctionDefinition): ResolvedScalarFunction {
  const d = definition as Partial<ScalarFunctionSpec> & { isDeterministic?: () => boolean };
  const call: ((...args: unknown[]) => unknown) | undefined =
    typeof definition === "function" ? (definition as unknown as (...args: unknown[]) => unknown)
      : typeof d.eval === "function" ? (d.eval as (...args: unknown[]) => unknown).bind(definition) : undefined;
  if (call === undefined) throw new InvalidFunctionDefinitionError(`Function '${name}' has no eval method`);
  const resultType = parseDeclaredType(name, "result type", d.resultType);
  const argumentTypes = d.argumentTypes?.map((t, i) => parseDeclaredType(name, `type of argument ${i + 1}`, t));
  const deterministic = typeof d.isDeterministic === "function" ? d.isDeterministic() : d.deterministic ?? true;
  const convert = resultConverter(name, resultType);
  return {
    name,
    resultType,
    ...(argumentTypes === undefined ? {} : { argumentTypes }),
    deterministic,
    invoke: (args: SqlValue[]) => convert(call(...args)),
  };
}
