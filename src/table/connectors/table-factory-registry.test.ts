import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { ConfigOptions } from "../../config/config-option.ts";
import { StreamTableEnvironment } from "../api/table-environment.ts";
import { Row } from "../data/row.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import { PRINT_TABLE_FACTORY } from "./print-table-factory.ts";
import type { DynamicTableFactory } from "./dynamic-table-factory.ts";
import { registerTableFactory, tableFactoryRegistry } from "./table-factory-registry.ts";

const COUNT = ConfigOptions.int("count", "How many rows to emit.", 3);
const START = ConfigOptions.int("start", "The first value.");

/** A user's connector: the numbers `start`, `start + 1` … (`count` of them). */
const COUNTDOWN: DynamicTableFactory = {
  identifier: "countdown",
  requiredOptions: [START],
  optionalOptions: [COUNT],
  createSource: (ctx) => ({
    changelogMode: ChangelogMode.INSERT_ONLY,
    unbounded: false,
    produce: () => {
      const start = ctx.options.options.get(START.key) as number;
      const count = ctx.options.options.get(COUNT.key) as number;
      return ctx.env.fromCollection(Array.from({ length: count }, (_, i) => Row.of(start + i))).uid(`${ctx.uid}-numbers`);
    },
  }),
};

async function rows(tEnv: StreamTableEnvironment, query: string): Promise<string[]> {
  const out: string[] = [];
  for await (const r of tEnv.executeSql(query).collect()) out.push(Row.toString(r));
  return out;
}

describe("registerTableFactory", () => {
  it("a user's connector is used from SQL, its options checked and read with their defaults", async () => {
    registerTableFactory(COUNTDOWN);
    registerTableFactory(COUNTDOWN); // the same factory again (a module imported twice): no change
    expect(tableFactoryRegistry().connectorIdentifiers()).toContain("countdown");
    const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.create());
    tEnv.executeSql("CREATE TABLE c (n INT) WITH ('connector' = 'countdown', 'start' = '10')");
    expect(await rows(tEnv, "SELECT n * 2 AS twice FROM c")).toEqual(["+I[20]", "+I[22]", "+I[24]"]);
    tEnv.executeSql("CREATE TABLE five (n INT) WITH ('connector' = 'countdown', 'start' = '1', 'count' = '5')");
    expect(await rows(tEnv, "SELECT SUM(n) AS s FROM five")).toContain("+U[15]");

    tEnv.executeSql("CREATE TABLE bad (n INT) WITH ('connector' = 'countdown', 'start' = '1', 'cont' = '5')");
    expect(() => tEnv.executeSql("SELECT * FROM bad")).toThrow("cont (did you mean 'count'?)");
    tEnv.executeSql("CREATE TABLE missing (n INT) WITH ('connector' = 'countdown')");
    expect(() => tEnv.executeSql("SELECT * FROM missing")).toThrow("Missing required options are:\n\nstart");
    tEnv.executeSql("CREATE TABLE wrong (n INT) WITH ('connector' = 'countdown', 'start' = 'one')");
    expect(() => tEnv.executeSql("SELECT * FROM wrong")).toThrow("Invalid value for option 'start': 'one' (expected an integer).");
  });

  it("a user's source that knows nothing of watermarks gets them from an operator after it (its table's WATERMARK still holds)", async () => {
    // rows (n, ts) with ts = n seconds; the source ignores the `watermarks` argument of `produce`
    registerTableFactory({
      identifier: "ticks",
      requiredOptions: [],
      optionalOptions: [],
      createSource: (ctx) => ({
        changelogMode: ChangelogMode.INSERT_ONLY,
        unbounded: false,
        produce: () => ctx.env.fromCollection(Array.from({ length: 25 }, (_, n) => Row.of(n, n * 1000))).uid(`${ctx.uid}-ticks`),
      }),
    });
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    const tEnv = StreamTableEnvironment.create(env);
    tEnv.executeSql("CREATE TABLE t (n INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'ticks')");
    const windows = await rows(tEnv, "SELECT window_start, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end");
    expect(windows.sort()).toEqual(["+I[0, 10]", "+I[10000, 10]", "+I[20000, 5]"]);
    // handed to a source that does not generate them, an unbounded table would have had no watermark at all
    expect(env.graph.nodes.map((n) => n.type)).toContain("timestamps-watermarks");
  });

  it("an identifier already taken by another factory is refused", () => {
    expect(() => registerTableFactory({ ...PRINT_TABLE_FACTORY })).toThrow("a table factory with the identifier 'print' is already registered");
    registerTableFactory(COUNTDOWN);
    expect(() => registerTableFactory({ ...COUNTDOWN })).toThrow("'countdown' is already registered");
  });

  it("every built-in connector declares its own options", () => {
    const registry = tableFactoryRegistry();
    for (const id of ["filesystem", "print", "blackhole", "datagen", "nexmark", "kafka", "upsert-kafka", "postgres-cdc", "jdbc"]) {
      const f = registry.connector(id);
      expect(f?.identifier, id).toBe(id);
      expect(Array.isArray(f?.optionalOptions) && Array.isArray(f?.requiredOptions), id).toBe(true);
    }
    expect(registry.connector("kafka")!.requiredOptions.map((o) => o.key)).toEqual(["properties.bootstrap.servers"]);
  });
});
