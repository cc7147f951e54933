import { afterEach, describe, expect, it } from "vitest";
import { Configuration } from "../src/config/configuration.ts";
import { CHECKPOINTING_INTERVAL, CHECKPOINTING_MODE, CHECKPOINTING_TIMEOUT } from "../src/config/options/checkpointing-options.ts";
import { OBJECT_REUSE, PARALLELISM } from "../src/config/options/pipeline-options.ts";
import { RESTART_STRATEGY } from "../src/config/options/restart-options.ts";
import { setLaunch } from "../src/deploy/launch-context.ts";
import { RestartStrategies } from "../src/runtime/execution/restart-strategy.ts";
import { StreamTableEnvironment } from "../src/table/api/table-environment.ts";
import { StreamExecutionEnvironment } from "../src/api/environment.ts";
import { restartStrategyOf } from "../src/api/configured-restart-strategy.ts";

afterEach(() => setLaunch(undefined));

describe("StreamExecutionEnvironment and its configuration", () => {
  it("the setters write the keys; create accepts options (shorthands of keys) or a Configuration", () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 2, checkpointInterval: 500 });
    env.getConfig().enableObjectReuse();
    env.getCheckpointConfig().setCheckpointTimeout(60_000);
    env.enableCheckpointing(1_000, "at-least-once");
    const c = env.getConfiguration();
    expect(c.get(PARALLELISM)).toBe(2);
    expect(c.get(CHECKPOINTING_INTERVAL)).toBe(1_000);
    expect(c.get(CHECKPOINTING_MODE)).toBe("AT_LEAST_ONCE");
    expect(c.get(CHECKPOINTING_TIMEOUT)).toBe(60_000);
    expect(c.get(OBJECT_REUSE)).toBe(true);
    const same = StreamExecutionEnvironment.create(Configuration.fromMap({ "parallelism.default": "4", "state.backend.type": "disk" }));
    expect(same.getParallelism()).toBe(4);
    expect(same.getCheckpointConfig().isIncrementalCheckpointingEnabled()).toBe(true);
  });

  it("under a launch, the command line's keys win over the job's configuration, setters and SQL SET", () => {
    setLaunch({ role: "client", args: [], configuration: { "parallelism.default": "3", "execution.checkpointing.interval": "500 ms" } });
    const env = StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap({ "parallelism.default": "8", "execution.checkpointing.timeout": "1 min" }));
    env.setParallelism(5);
    const tEnv = StreamTableEnvironment.create(env);
    tEnv.executeSql("SET 'execution.checkpointing.interval' = '1 h'");
    expect(env.getParallelism()).toBe(3);
    expect(env.getConfiguration().get(CHECKPOINTING_INTERVAL)).toBe(500);
    expect(env.getConfiguration().get(CHECKPOINTING_TIMEOUT)).toBe(60_000); // the job's own, where the command line says nothing
    expect(tEnv.getConfig().get("execution.checkpointing.interval")).toBe("500 ms");
    expect(env.checkpointSettings().intervalMs).toBe(500);
  });

  it("SQL SET and RESET of an engine key change the environment's configuration", () => {
    const env = StreamExecutionEnvironment.create();
    const tEnv = StreamTableEnvironment.create(env);
    tEnv.executeSql("SET 'parallelism.default' = '6'");
    tEnv.executeSql("SET 'state.backend' = 'rocksdb'");
    expect(env.getParallelism()).toBe(6);
    expect(env.checkpointSettings().stateBackend?.type).toBe("disk");
    tEnv.executeSql("RESET 'parallelism.default'");
    expect(env.getParallelism()).toBe(1);
    expect(() => tEnv.executeSql("SET 'parallelism.default' = 'many'")).toThrow("Invalid value 'many' for 'parallelism.default': expected an integer");
  });

  it("the job's client carries the configuration it runs with, as strings", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 2, checkpointInterval: 500 });
    env.fromSequence(1, 10).map((n) => n + 1).sinkTo({ createWriter: () => ({ write: () => {} }) });
    const client = await env.executeAsync("configured");
    await client.getJobExecutionResult();
    expect(client.getConfiguration()).toEqual({ "execution.checkpointing.interval": "500 ms", "parallelism.default": "2" });
  });

  it("setRestartStrategy writes the restart-strategy keys, read back as the same strategy", () => {
    const env = StreamExecutionEnvironment.create();
    for (const s of [
      RestartStrategies.noRestart(),
      RestartStrategies.fixedDelayRestart(4, 250),
      RestartStrategies.exponentialDelayRestart({ attempts: 7, initialBackoffMs: 10 }),
      RestartStrategies.failureRateRestart(2, 60_000, 500),
    ]) {
      env.setRestartStrategy(s);
      expect(restartStrategyOf(env.getConfiguration(), true)).toEqual(s);
    }
    const none = StreamExecutionEnvironment.create().getConfiguration();
    expect(none.get(RESTART_STRATEGY)).toBeUndefined();
    expect(restartStrategyOf(none, false)).toEqual(RestartStrategies.noRestart());
  });
});
