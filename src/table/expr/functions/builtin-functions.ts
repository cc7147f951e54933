/**
 * The registry of built-in scalar functions: every family's entries by
 * upper-case name and alias.
 */
import type { BuiltinFunction } from "./builtin-function.ts";
import { COLLECTION_FUNCTIONS } from "./collection-functions.ts";
import { CONDITIONAL_FUNCTIONS } from "./conditional-functions.ts";
import { MATH_FUNCTIONS } from "./math-functions.ts";
import { REGEX_JSON_FUNCTIONS } from "./regex-json-functions.ts";
import { STRING_FUNCTIONS } from "./string-functions.ts";
import { TEMPORAL_FUNCTIONS } from "./temporal-functions.ts";

const BUILTINS = new Map<string, BuiltinFunction>();
for (const f of [...STRING_FUNCTIONS, ...MATH_FUNCTIONS, ...CONDITIONAL_FUNCTIONS, ...TEMPORAL_FUNCTIONS, ...REGEX_JSON_FUNCTIONS, ...COLLECTION_FUNCTIONS]) {
  for (const n of f.names) {
    if (BUILTINS.has(n)) throw new Error(`internal: built-in function ${n} defined twice`);
    BUILTINS.set(n, f);
  }
}

/**
 * The built-in function called `name` (any case), or undefined.
 *
 * @example
 * ```ts
 * builtinFunction("date_format")?.arity; // [2, 2]
 * ```
 */
export function builtinFunction(name: string): BuiltinFunction | undefined {
  return BUILTINS.get(name.toUpperCase());
}

/** The names of all built-in scalar functions (upper case), e.g. for SHOW FUNCTIONS. */
export function builtinFunctionNames(): string[] {
  return [...BUILTINS.keys()];
}
