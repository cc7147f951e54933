/**
 * The one registry of SQL table factories: the built-in connectors and
 * formats, and the connectors users add with {@link registerTableFactory}
 * (as Flink finds factories through its service loader).
 */
import { FactoryRegistry } from "../catalog/factory-options.ts";
import { BUILTIN_FORMATS } from "../formats/format-options.ts";
import { builtinTableFactories } from "./builtin-table-factories.ts";
import type { DynamicTableFactory } from "./dynamic-table-factory.ts";

/** The factories registered by users, by identifier. */
const userFactories = new Map<string, DynamicTableFactory>();

/**
 * Adds a connector for SQL's `'connector' = '<identifier>'`, in every table
 * environment created afterwards (in this thread: a job module that registers
 * one at its top level does so in the client and in every worker). The
 * table's `WITH` options are checked against the factory's declared options
 * (with Flink's messages) before `createSource` / `createSink` see them.
 *
 * @throws {Error} when another factory already has the identifier.
 * @example
 * ```ts
 * import { ChangelogMode, ConfigOptions, registerTableFactory, Row, StreamExecutionEnvironment, StreamTableEnvironment } from "weirjs";
 *
 * const COUNT = ConfigOptions.int("count", "How many rows to emit.", 3);
 * registerTableFactory({
 *   identifier: "countdown",
 *   requiredOptions: [],
 *   optionalOptions: [COUNT],
 *   createSource: (ctx) => ({
 *     changelogMode: ChangelogMode.INSERT_ONLY,
 *     unbounded: false,
 *     produce: () => ctx.env.fromCollection(Array.from({ length: Number(ctx.options.options.get("count")) }, (_, i) => Row.of(i))),
 *   }),
 * });
 * const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment());
 * tEnv.executeSql("CREATE TABLE c (n INT) WITH ('connector' = 'countdown', 'count' = '5')");
 * ```
 */
export function registerTableFactory(factory: DynamicTableFactory): void {
  const existing = userFactories.get(factory.identifier) ?? builtinTableFactories().get(factory.identifier);
  if (existing === factory) return;
  if (existing !== undefined) throw new Error(`a table factory with the identifier '${factory.identifier}' is already registered`);
  userFactories.set(factory.identifier, factory);
}

/**
 * A registry of every connector (built-in and registered) and every built-in format.
 *
 * @example
 * ```ts
 * const registry = tableFactoryRegistry();
 * const validated = registry.validate(table.options);
 * registry.connector(validated.connector)?.createSource?.(ctx);
 * ```
 */
export function tableFactoryRegistry(): FactoryRegistry<DynamicTableFactory> {
  const registry = new FactoryRegistry<DynamicTableFactory>();
  for (const f of [...builtinTableFactories().values(), ...userFactories.values()]) registry.registerConnector(f);
  for (const f of BUILTIN_FORMATS) registry.registerFormat(f);
  return registry;
}
