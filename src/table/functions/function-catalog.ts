/**
 * The temporary system functions of a table environment: user-defined
 * scalar functions registered by name (case-insensitive, as Flink's system
 * functions), which expressions find after the built-in functions.
 */
import type { FunctionLookup, ResolvedScalarFunction } from "../expr/bound-expr.ts";
import { builtinFunction } from "../expr/functions/builtin-functions.ts";
import { resolveScalarFunction, type ScalarFunctionDefinition } from "./scalar-function.ts";

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

  /**
   * Registers `definition` as `name`. Its types are parsed now, so a bad
   * definition fails here rather than in a query.
   *
   * @throws FunctionAlreadyExistsError when `name` is a built-in function or already registered
   * @throws InvalidFunctionDefinitionError for a definition without a usable result type or eval
   */
  registerTemporarySystemFunction(name: string, definition: ScalarFunctionDefinition): void {
    const key = name.toUpperCase();
    if (builtinFunction(key) !== undefined) throw new FunctionAlreadyExistsError(`Could not register temporary system function '${name}': a built-in function of that name exists`);
    if (this.functions.has(key)) throw new FunctionAlreadyExistsError(`Could not register temporary system function '${name}': a function of that name is already registered`);
    this.functions.set(key, resolveScalarFunction(name, definition));
  }

  /** Removes the function called `name`; false when there was none. */
  dropTemporarySystemFunction(name: string): boolean {
    return this.functions.delete(name.toUpperCase());
  }

  /** The function called `name` (any case), or undefined. */
  lookup(name: string): ResolvedScalarFunction | undefined {
    return this.functions.get(name.toUpperCase());
  }

  /** The registered names as they were registered (for SHOW FUNCTIONS and suggestions). */
  names(): string[] {
    return [...this.functions.values()].map((f) => f.name);
  }
}
