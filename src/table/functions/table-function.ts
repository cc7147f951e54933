/**
 * User-defined table functions (Flink's `TableFunction`): a function that
 * gives any number of rows for one row's arguments, used with
 * `LATERAL TABLE(fn(...))` in FROM (a correlated join: each row of the
 * left side with each row the function gives for it). TypeScript keeps no
 * types at run time, so the rows' type is declared as SQL type text: a
 * `ROW<…>` for several columns, or one type for a single column `f0`.
 *
 * @example
 * ```ts
 * class Split extends TableFunction {
 *   readonly resultType = "ROW<word STRING, length INT>";
 *   *eval(s: string | null) {
 *     for (const w of s?.split(" ") ?? []) yield [w, w.length];
 *   }
 * }
 * tEnv.createTemporarySystemFunction("split", new Split());
 * tEnv.sqlQuery("SELECT line, word, length FROM lines, LATERAL TABLE(split(line))");
 * ```
 */
import { copyPlainData } from "../../state/plain-copy.ts";
import type { LogicalType } from "../types/logical-type.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { SqlRuntimeError } from "../expr/sql-runtime-error.ts";
import { InvalidFunctionDefinitionError, parseDeclaredType } from "./scalar-function.ts";
import { resultConverter } from "./udf-values.ts";

/** A table function as a class: `eval` returns (or yields) the rows for one call. */
export abstract class TableFunction {
  /** The type of the rows: `"ROW<word STRING, length INT>"`, or one type such as `"STRING"` (a column `f0`). */
  abstract readonly resultType: string;
  /** The SQL types of the arguments; absent: any arguments are passed as they are. */
  readonly argumentTypes?: readonly string[];

  /** The rows for one call: each an array of field values (or an object by field name); for a single column, the value. */
  abstract eval(...args: never[]): Iterable<unknown>;
}

/** A table function as an object literal. */
export interface TableFunctionSpec {
  readonly kind: "table";
  readonly resultType: string;
  readonly argumentTypes?: readonly string[];
  eval(...args: never[]): Iterable<unknown>;
}

/** What `createTemporarySystemFunction` takes as a table function. */
export type TableFunctionDefinition = TableFunction | TableFunctionSpec;

/** True for a table function (a `TableFunction`, or a literal with `kind: "table"`). */
export function isTableFunction(d: unknown): d is TableFunctionDefinition {
  return d instanceof TableFunction || (typeof d === "object" && d !== null && (d as { kind?: unknown }).kind === "table");
}

/** A table function ready to call: its columns, declared argument types and an invoker. */
export interface ResolvedTableFunction {
  readonly name: string;
  readonly columns: readonly { name: string; type: LogicalType }[];
  readonly argumentTypes?: readonly LogicalType[];
  /** The rows for one call, converted to the declared types (copies of what the function gave). */
  invoke(args: SqlValue[]): SqlValue[][];
}

/**
 * Checks a table function's declaration and wraps it.
 *
 * @throws {InvalidFunctionDefinitionError}
 */
export function resolveTableFunction(name: string, definition: TableFunctionDefinition): ResolvedTableFunction {
  const d = definition as { eval?: unknown; resultType?: unknown; argumentTypes?: readonly unknown[] };
  if (typeof d.eval !== "function") throw new InvalidFunctionDefinitionError(`Table function '${name}' has no eval method`);
  const call = (d.eval as (...args: unknown[]) => Iterable<unknown>).bind(definition);
  const type = parseDeclaredType(name, "result type", d.resultType);
  const columns = type.kind === "row" ? type.fields.map((f) => ({ name: f.name, type: f.type })) : [{ name: "f0", type }];
  const argumentTypes = d.argumentTypes?.map((t, i) => parseDeclaredType(name, `type of argument ${i + 1}`, t));
  const converters = columns.map((c) => resultConverter(name, c.type));
  const toRow = (item: unknown): SqlValue[] => {
    if (type.kind !== "row") return [converters[0]!(item)];
    if (Array.isArray(item)) return converters.map((conv, i) => conv(item[i] ?? null));
    if (typeof item === "object" && item !== null) return columns.map((c, i) => converters[i]!((item as Record<string, unknown>)[c.name] ?? null));
    throw new SqlRuntimeError(`Table function '${name}' gave ${String(item)}; its rows are arrays (or objects) of ${columns.length} fields`);
  };
  return {
    name,
    columns,
    ...(argumentTypes === undefined ? {} : { argumentTypes }),
    invoke: (args) => {
      const rows: SqlValue[][] = [];
      const out = call(...args.map((a) => (typeof a === "object" && a !== null ? copyPlainData(a) : a)));
      if (out === null || typeof (out as Iterable<unknown>)[Symbol.iterator] !== "function") {
        throw new SqlRuntimeError(`Table function '${name}' must return (or yield) its rows as an iterable`);
      }
      for (const item of out) rows.push(toRow(item));
      return rows;
    },
  };
}
