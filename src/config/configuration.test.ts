import { describe, expect, it } from "vitest";
import { Configuration } from "./configuration.ts";
import { ConfigurationError } from "./configuration-error.ts";
import { ENGINE_OPTIONS, engineOption } from "./engine-options.ts";
import { CHECKPOINTING_INTERVAL, CHECKPOINTING_MODE } from "./options/checkpointing-options.ts";
import { PARALLELISM } from "./options/pipeline-options.ts";
import { REST_ADDRESS, REST_PORT } from "./options/rest-options.ts";
import { CHECKPOINTS_DIRECTORY, STATE_BACKEND } from "./options/state-options.ts";

function errorOf(f: () => unknown): ConfigurationError {
  try {
    f();
  } catch (e) {
    if (e instanceof ConfigurationError) return e;
    throw e;
  }
  throw new Error("no error");
}

describe("Configuration", () => {
  it("reads typed values through their options: as set, else the default, else undefined", () => {
    const c = new Configuration();
    expect(c.get(REST_PORT)).toBe(8081);
    expect(c.get(REST_ADDRESS)).toBe("127.0.0.1");
    expect(c.get(CHECKPOINTING_INTERVAL)).toBeUndefined();
    expect(c.contains(PARALLELISM)).toBe(false);
    c.set(PARALLELISM, 4).setString("execution.checkpointing.interval", "10 s");
    expect(c.get(PARALLELISM)).toBe(4);
    expect(c.get(CHECKPOINTING_INTERVAL)).toBe(10_000);
    expect(c.getOptional(REST_PORT)).toBeUndefined();
    c.remove(PARALLELISM);
    expect(c.get(PARALLELISM)).toBe(1);
  });

  it("round-trips through a map of strings, sorted by key, durations in their largest unit", () => {
    const c = Configuration.fromMap({ "execution.checkpointing.interval": "500ms", "parallelism.default": "2", "execution.checkpointing.mode": "at_least_once" });
    expect(c.toMap()).toEqual({ "execution.checkpointing.interval": "500 ms", "execution.checkpointing.mode": "AT_LEAST_ONCE", "parallelism.default": "2" });
    expect(Object.keys(c.toMap())).toEqual(["execution.checkpointing.interval", "execution.checkpointing.mode", "parallelism.default"]);
    expect(Configuration.fromMap(c.toMap()).toMap()).toEqual(c.toMap());
    expect(new Configuration().set(CHECKPOINTING_INTERVAL, 120_000).toMap()).toEqual({ "execution.checkpointing.interval": "2 min" });
  });

  it("an older key names the same option", () => {
    const c = new Configuration().setString("state.backend", "rocksdb").setString("execution.checkpointing.dir", "/tmp/chk");
    expect(c.get(STATE_BACKEND)).toBe("rocksdb");
    expect(c.get(CHECKPOINTS_DIRECTORY)).toBe("/tmp/chk");
    expect(Object.keys(c.toMap())).toEqual(["state.backend.type", "state.checkpoints.dir"]);
  });

  it("an unknown key is refused, located, with the key it is most likely a typo of", () => {
    const e = errorOf(() => new Configuration().setString("execution.checkpointing.intervall", "1s", "-D execution.checkpointing.intervall=1s"));
    expect(e.message).toBe(
      "-D execution.checkpointing.intervall=1s: unknown configuration key 'execution.checkpointing.intervall' (did you mean 'execution.checkpointing.interval'?)",
    );
    expect(e.meant).toBe("execution.checkpointing.interval");
    expect(errorOf(() => new Configuration().setString("no.such.thing", "1")).message).toBe("unknown configuration key 'no.such.thing'");
  });

  it("a value that does not read as its type, or that its option's check refuses, is refused, naming the key", () => {
    expect(errorOf(() => new Configuration().setString("execution.checkpointing.interval", "soon", "SET")).message).toBe(
      "SET: invalid value 'soon' for 'execution.checkpointing.interval': expected a duration such as '1 s', '500 ms' or '1 min'",
    );
    expect(errorOf(() => new Configuration().setString("parallelism.default", "0")).message).toBe("invalid value '0' for 'parallelism.default': expected a whole number > 0");
    expect(errorOf(() => new Configuration().set(REST_PORT, 70_000)).detail).toBe("invalid value '70000' for 'rest.port': expected a port from 0 to 65535");
    expect(errorOf(() => new Configuration().setString("execution.checkpointing.mode", "twice")).detail).toContain("expected one of 'EXACTLY_ONCE', 'AT_LEAST_ONCE', 'AT_MOST_ONCE'");
    expect(errorOf(() => new Configuration().setString("state.checkpoints.dir", "s3://bucket/x")).detail).toContain("the 's3://' scheme is not supported");
    expect(new Configuration().setString("state.checkpoints.dir", "file:///tmp/x").get(CHECKPOINTS_DIRECTORY)).toBe("file:///tmp/x");
  });

  it("addAll: the other's values win; clone is independent", () => {
    const job = Configuration.fromMap({ "parallelism.default": "2", "execution.checkpointing.mode": "AT_LEAST_ONCE" });
    const commandLine = Configuration.fromMap({ "parallelism.default": "3" });
    const effective = job.clone().addAll(commandLine);
    expect(effective.get(PARALLELISM)).toBe(3);
    expect(effective.get(CHECKPOINTING_MODE)).toBe("AT_LEAST_ONCE");
    expect(job.get(PARALLELISM)).toBe(2);
  });
});

describe("engine options", () => {
  it("are declared once each, with a Flink-style key, a description of one sentence, and a default of their type", () => {
    const keys = ENGINE_OPTIONS.flatMap((o) => [o.key, ...(o.aliases ?? [])]);
    expect(new Set(keys).size).toBe(keys.length);
    for (const o of ENGINE_OPTIONS) {
      // lower case, as Flink's keys, but for the few Flink spells in camel case (taskmanager.numberOfTaskSlots)
      expect(o.key, o.key).toMatch(o.key === "taskmanager.numberOfTaskSlots" ? /^taskmanager\.numberOfTaskSlots$/ : /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/);
      expect(o.description, o.key).toMatch(/^[A-Z0-9].*\.$/);
      if (o.defaultValue !== undefined) expect(o.check?.(o.defaultValue as never), o.key).toBeUndefined();
    }
    for (const key of ["parallelism.default", "pipeline.max-parallelism", "execution.checkpointing.interval", "state.backend.type", "state.checkpoints.dir", "rest.port", "rest.address", "metrics.reporters"]) {
      expect(engineOption(key)?.key).toBe(key);
    }
  });
});
