/**
 * `map(async (x) => …)` would emit Promises instead of results: element-wise
 * functions run synchronously, per record. The builders refuse an async
 * function at the call that passes it and point to async I/O.
 */
import { ASYNC_IO_HINT } from "../core/async-function.ts";

const asyncFunctionPrototype: unknown = Object.getPrototypeOf(async function () {});

/** True for `async` functions and methods. */
function isAsync(f: unknown): boolean {
  return typeof f === "function" && Object.getPrototypeOf(f) === asyncFunctionPrototype;
}

/**
 * Throws when `fn` (or its `method` on an object) is an async function.
 *
 * @example
 * ```ts
 * refuseAsyncFunction("map", async (x: number) => x); // throws TypeError: map() got an async function ...
 * ```
 */
export function refuseAsyncFunction(method: "map" | "filter" | "flatMap", fn: unknown): void {
  const f = typeof fn === "object" && fn !== null ? (fn as Record<string, unknown>)[method] : fn;
  if (!isAsync(f)) return;
  throw new TypeError(
    `${method}() got an async function: it runs synchronously once per record, so it would ${method === "filter" ? "keep every record (a Promise is truthy)" : "emit Promises, not their results"}; ${ASYNC_IO_HINT}`,
  );
}
