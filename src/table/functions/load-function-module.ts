/**
 * The function of `CREATE FUNCTION f AS 'module#export'`: the export of a
 * JavaScript or TypeScript module, the same definitions
 * `createTemporarySystemFunction` takes (a `ScalarFunction`,
 * `TableFunction` or `SqlAggregateFunction` class, which is instantiated,
 * or an instance or object literal). The module path is relative to the
 * working directory (or a package name); without `#export` the module's
 * default export. Modules load synchronously, with `require`: `.js`, `.cjs`
 * and `.mjs` on Node (ES modules from Node 20.19 on), TypeScript through
 * tsx, which the project installs.
 */
import { createRequire } from "node:module";
import { resolve } from "node:path";
import type { SourceLoc } from "../sql/ast.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import type { AggregateFunctionDefinition } from "./aggregate-function.ts";
import type { ScalarFunctionDefinition } from "./scalar-function.ts";
import type { TableFunctionDefinition } from "./table-function.ts";

/** A function definition as `createTemporarySystemFunction` takes it. */
export type FunctionDefinition = ScalarFunctionDefinition | AggregateFunctionDefinition | TableFunctionDefinition;

const TYPESCRIPT = /\.[cm]?tsx?$/;
/** Methods that make an exported class a function class (rather than a typed function). */
const FUNCTION_METHODS = ["eval", "accumulate", "createAccumulator", "getValue"];

let tsxRegistered = false;

/**
 * Loads the function `identifier` (`'./udfs.mjs#CountChar'`) names.
 *
 * @throws {SqlValidationError} located at `loc` when the module cannot be loaded or has no such function
 * @example
 * ```ts
 * const countChar = loadFunctionModule("./udfs.mjs#CountChar", loc); // new CountChar()
 * tEnv.createTemporarySystemFunction("count_char", countChar);
 * ```
 */
export function loadFunctionModule(identifier: string, loc: SourceLoc): FunctionDefinition {
  const hash = identifier.lastIndexOf("#");
  const module = hash < 0 ? identifier : identifier.slice(0, hash);
  const name = hash < 0 ? "default" : identifier.slice(hash + 1);
  if (module === "" || name === "") throw new SqlValidationError(`Function identifier '${identifier}' must be '<module>#<export>', such as './udfs.mjs#CountChar'`, loc);
  const require = createRequire(resolve("package.json"));
  const path = module.startsWith(".") || module.startsWith("/") ? resolve(module) : module;
  if (TYPESCRIPT.test(path)) registerTsx(require, module, loc);
  let exports: Record<string, unknown>;
  try {
    exports = require(path) as Record<string, unknown>;
  } catch (e) {
    throw new SqlValidationError(`Cannot load function module '${module}': ${(e as Error).message.split("\n")[0]}`, loc);
  }
  const value = name === "default" ? (exports.default ?? exports) : exports[name];
  if (value === undefined || value === null) {
    const names = Object.keys(exports).filter((k) => k !== "__esModule");
    throw new SqlValidationError(`Module '${module}' has no export '${name}'; its exports are ${names.map((n) => `'${n}'`).join(", ") || "none"}`, loc);
  }
  if (typeof value === "function" && FUNCTION_METHODS.some((m) => typeof (value.prototype as Record<string, unknown> | undefined)?.[m] === "function")) {
    return new (value as new () => FunctionDefinition)();
  }
  if (typeof value === "function" || typeof value === "object") return value as FunctionDefinition;
  throw new SqlValidationError(`Export '${name}' of '${module}' is a ${typeof value}, not a function definition`, loc);
}

/** Lets `require` load TypeScript, through tsx's CommonJS hook. */
function registerTsx(require: NodeJS.Require, module: string, loc: SourceLoc): void {
  if (tsxRegistered) return;
  try {
    (require("tsx/cjs/api") as { register(): void }).register();
  } catch {
    throw new SqlValidationError(`Function module '${module}' is TypeScript, which needs tsx: install it in the project (npm i -D tsx), or name a .js/.mjs module`, loc);
  }
  tsxRegistered = true;
}
