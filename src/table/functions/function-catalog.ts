/**
 * The temporary system functions of a table environment: user-defined
 * scalar and aggregate functions registered by name (case-insensitive, as
 * Flink's system functions, one namespace for both), which expressions and
 * aggregations find after the built-in functions.
 */
import type { FunctionLookup, ResolvedScalarFunction } from "../expr/bound-expr.ts";
import { builtinFunction } from "../expr/functions/builtin-functions.ts";
import { resolveScalarFunction, type ScalarFunctionDefinition } from "./scalar-function.ts";
import { AGGREGATE_FUNCTIONS } from "../plan/aggregate-call-type.ts";
import { isAggregateFunctionDefinition, resolveAggregateFunction, type AggregateFunctionDefinition, type ResolvedAggregateFunction } from "./aggregate-function.ts";

/** Thrown when registering a name that is taken (by a built-in or an earlier registration). */
export class FunctionAlreadyExistsError extends Error {
  override readonly name = "FunctionAlreadyExistsError";
}

/**
 * User-defined functions by name; pass it as `BindOptions.functions`.
 *
 * @example
 * ```ts
 * const functions = new FunctionCatalog();
 * functions.registerTemporarySystemFunction("plus_one", { resultType: "INT", eval: (x: number | null) => (x === null ? null : x + 1) });
 * bindExpression(parseExpr("PLUS_ONE(a)"), rowType, { functions }).eval([41]); // 42
 * ```
 */
export class FunctionCatalog implements FunctionLookup {
  private readonly functions = new Map<string, ResolvedScalarFunction>();
  private readonly aggregates = new Map<string, ResolvedAggregateFunction>();

  /**
   * Registers `definition` as `name`. Its types are parsed now, so a bad
   * definition fails here rather than in a query.
   *
   * @throws FunctionAlreadyExistsError when `name` is a built-in function or already registered
   * @throws InvalidFunctionDefinitionError for a definition without a usable result type or eval
   * (an aggregate function: `createAccumulator`, `accumulate` or `getValue`)
   */
  registerTemporarySystemFunction(name: string, definition: ScalarFunctionDefinition | AggregateFunctionDefinition): void {
    const key = name.toUpperCase();
    if (builtinFunction(key) !== undefined || AGGREGATE_FUNCTIONS.has(key)) throw new FunctionAlreadyExistsError(`Could not register temporary system function '${name}': a built-in function of that name exists`);
    if (this.functions.has(key) || this.aggregates.has(key)) throw new FunctionAlreadyExistsError(`Could not register temporary system function '${name}': a function of that name is already registered`);
    if (isAggregateFunctionDefinition(definition)) this.aggregates.set(key, resolveAggregateFunction(name, definition));
    else this.functions.set(key, resolveScalarFunction(name, definition as ScalarFunctionDefinition));
  }

  /** Removes the function called `name`; false when there was none. */
  dropTemporarySystemFunction(name: string): boolean {
    const key = name.toUpperCase();
    return this.functions.delete(key) || this.aggregates.delete(key);
  }

  /** The aggregate function called `name` (any case), or undefined. */
  lookupAggregate(name: string): ResolvedAggregateFunction | undefined {
    return this.aggregates.get(name.toUpperCase());
  }

  /** The function called `name` (any case), or undefined. */
  lookup(name: string): ResolvedScalarFunction | undefined {
    return this.functions.get(name.toUpperCase());
  }

  /** The registered names as they were registered (for SHOW FUNCTIONS and suggestions). */
  names(): string[] {
    return [...this.functions.values(), ...this.aggregates.values()].map((f) => f.name);
  }
}
