/**
 * User-defined aggregate functions, as Flink's Table API `AggregateFunction` (named `SqlAggregateFunction` here: the DataStream `AggregateFunction` has that name): an
 * accumulator created per group (or window, or OVER partition), rows added
 * to it with `accumulate` (and removed with `retract` when the input updates
 * or an OVER frame slides), accumulators combined with `merge` (HOP,
 * CUMULATE and SESSION windows) and the result read with `getValue`.
 *
 * The accumulator is plain data (objects, arrays, numbers, bigints,
 * strings, `Map`s): it lives in keyed state, so it is checkpointed and
 * restored, and the engine keeps its own copies. `accumulate`, `retract`
 * and `merge` change the accumulator they are given in place. Argument and
 * result values are {@link SqlValue}s as for scalar functions (see
 * `scalar-function.ts`); NULL arguments are passed (the function decides
 * what they mean), and results are checked against the declared result type.
 */
import type { LogicalType } from "../types/logical-type.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { SqlRuntimeError } from "../expr/sql-runtime-error.ts";
import { InvalidFunctionDefinitionError, parseDeclaredType } from "./scalar-function.ts";
import { resultConverter } from "./udf-values.ts";

/**
 * A user-defined aggregate function. Subclass it, declare `resultType` (and
 * optionally `argumentTypes`, which arguments are then checked against and
 * implicitly cast to) and implement `createAccumulator`, `accumulate` and
 * `getValue`; `retract` is needed over updating inputs and bounded OVER
 * frames, `merge` for HOP, CUMULATE and SESSION windows.
 *
 * @example
 * ```ts
 * interface WeightedAvgAcc { sum: number; count: number }
 * class WeightedAvg extends SqlAggregateFunction<number | null, WeightedAvgAcc> {
 *   readonly resultType = "DOUBLE";
 *   readonly argumentTypes = ["DOUBLE", "INT"];
 *   createAccumulator(): WeightedAvgAcc { return { sum: 0, count: 0 }; }
 *   accumulate(acc: WeightedAvgAcc, value: number | null, weight: number | null): void {
 *     if (value === null || weight === null) return;
 *     acc.sum += value * weight;
 *     acc.count += weight;
 *   }
 *   retract(acc: WeightedAvgAcc, value: number | null, weight: number | null): void {
 *     if (value === null || weight === null) return;
 *     acc.sum -= value * weight;
 *     acc.count -= weight;
 *   }
 *   merge(acc: WeightedAvgAcc, others: Iterable<WeightedAvgAcc>): void {
 *     for (const o of others) { acc.sum += o.sum; acc.count += o.count; }
 *   }
 *   getValue(acc: WeightedAvgAcc): number | null { return acc.count === 0 ? null : acc.sum / acc.count; }
 * }
 * tEnv.createTemporarySystemFunction("WeightedAvg", new WeightedAvg());
 * tEnv.sqlQuery("SELECT name, WeightedAvg(points, level) FROM Players GROUP BY name");
 * ```
 */
export abstract class SqlAggregateFunction<T = unknown, ACC = unknown> {
  /** The SQL type of the result, e.g. `"BIGINT"` or `"DECIMAL(10, 2)"`. */
  abstract readonly resultType: string;
  /** The SQL types of the arguments; absent: any arguments are passed as they are. */
  readonly argumentTypes?: readonly string[];
  /** A new, empty accumulator: an object or array, which the other methods change in place. */
  abstract createAccumulator(): ACC;
  /** Adds one row's argument values to `acc`. */
  abstract accumulate(acc: ACC, ...args: never[]): void;
  /** Removes one earlier `accumulate` of these argument values from `acc`. */
  retract?(acc: ACC, ...args: never[]): void;
  /** Adds what each of `others` holds into `acc` (others hold later rows; do not keep references to them). */
  merge?(acc: ACC, others: Iterable<ACC>): void;
  /** The result for `acc` (which it must not change). */
  abstract getValue(acc: ACC): T;
}

/** An aggregate function written as an object literal with the methods of {@link SqlAggregateFunction}. */
export interface AggregateFunctionSpec<T = unknown, ACC = unknown> {
  readonly resultType: string;
  readonly argumentTypes?: readonly string[];
  createAccumulator(): ACC;
  accumulate(acc: ACC, ...args: never[]): void;
  retract?(acc: ACC, ...args: never[]): void;
  merge?(acc: ACC, others: Iterable<ACC>): void;
  getValue(acc: ACC): T;
}

/** Anything `createTemporarySystemFunction` accepts as an aggregate function. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AggregateFunctionDefinition = SqlAggregateFunction<any, any> | AggregateFunctionSpec<any, any>;

/** The planner's and runtime's view of an aggregate function definition: parsed types and checked calls. */
export interface ResolvedAggregateFunction {
  readonly name: string;
  readonly resultType: LogicalType;
  /** The declared argument types, with their text (for casts of the arguments). */
  readonly argumentTypes?: readonly { type: LogicalType; text: string }[];
  createAccumulator(): unknown;
  accumulate(acc: unknown, args: readonly SqlValue[]): void;
  /** Undefined when the definition has no `retract`. */
  readonly retract: ((acc: unknown, args: readonly SqlValue[]) => void) | undefined;
  /** Undefined when the definition has no `merge`. */
  readonly merge: ((acc: unknown, others: Iterable<unknown>) => void) | undefined;
  /** The checked (and converted) result. */
  getValue(acc: unknown): SqlValue;
}

/** True when `definition` is an aggregate function (an {@link SqlAggregateFunction} or an object with `createAccumulator` and `accumulate`). */
export function isAggregateFunctionDefinition(definition: unknown): definition is AggregateFunctionDefinition {
  if (definition instanceof SqlAggregateFunction) return true;
  const d = definition as Partial<AggregateFunctionSpec> | null;
  return typeof d === "object" && d !== null && typeof d.createAccumulator === "function" && typeof d.accumulate === "function";
}


type Method = (...args: unknown[]) => unknown;

/**
 * The resolved form of an aggregate function definition.
 *
 * @throws InvalidFunctionDefinitionError for a definition without a usable result type, `createAccumulator`, `accumulate` or `getValue`
 * @example
 * ```ts
 * const f = resolveAggregateFunction("total", { resultType: "BIGINT", createAccumulator: () => ({ n: 0 }), accumulate: (acc: { n: number }, x: number) => { acc.n += x; }, getValue: (acc: { n: number }) => acc.n });
 * const acc = f.createAccumulator();
 * f.accumulate(acc, [41]);
 * f.getValue(acc); // 41n
 * ```
 */
export function resolveAggregateFunction(name: string, definition: AggregateFunctionDefinition): ResolvedAggregateFunction {
  const d = definition as unknown as Record<string, unknown>;
  const method = (m: string, required: boolean): Method | undefined => {
    const f = d[m];
    if (typeof f === "function") return (f as Method).bind(definition);
    if (f !== undefined || required) throw new InvalidFunctionDefinitionError(`Aggregate function '${name}' has no ${m} method`);
    return undefined;
  };
  const create = method("createAccumulator", true)!;
  const accumulate = method("accumulate", true)!;
  const getValue = method("getValue", true)!;
  const retract = method("retract", false);
  const merge = method("merge", false);
  const resultType = parseDeclaredType(name, "result type", d["resultType"]);
  const declared = d["argumentTypes"] as readonly unknown[] | undefined;
  const argumentTypes = declared?.map((t, i) => ({ type: parseDeclaredType(name, `type of argument ${i + 1}`, t), text: t as string }));
  const convert = resultConverter(name, resultType);
  return {
    name,
    resultType,
    ...(argumentTypes === undefined ? {} : { argumentTypes }),
    createAccumulator() {
      const acc = create();
      if (typeof acc !== "object" || acc === null) {
        throw new SqlRuntimeError(`Aggregate function '${name}': createAccumulator returned ${String(acc)}; an accumulator is an object or array that accumulate changes in place`);
      }
      return acc;
    },
    accumulate: (acc, args) => void accumulate(acc, ...args),
    retract: retract === undefined ? undefined : (acc, args) => void retract(acc, ...args),
    merge: merge === undefined ? undefined : (acc, others) => void merge(acc, others),
    getValue: (acc) => convert(getValue(acc)),
  };
}
