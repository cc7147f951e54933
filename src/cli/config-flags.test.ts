import { describe, expect, it } from "vitest";
import { CliUsageError } from "./cli-usage-error.ts";
import { commandLineConfiguration } from "./config-flags.ts";

describe("commandLineConfiguration", () => {
  it("each flag sets its keys; -D sets any key and wins over a flag for the same key; weir.workers is 1 unless given", () => {
    const c = commandLineConfiguration({
      parallelism: "3",
      mode: "at-least-once",
      "checkpoint-dir": "/tmp/chk",
      "restart-attempts": "5",
      "task-cancellation-timeout": "2000",
      fresh: true,
      "allow-non-restored-state": false,
      "checkpoint-interval": "1000",
      D: ["execution.checkpointing.interval=500ms", "state.backend.type=rocksdb"],
    });
    expect(c.toMap()).toEqual({
      "execution.checkpointing.interval": "500 ms",
      "execution.checkpointing.mode": "AT_LEAST_ONCE",
      "parallelism.default": "3",
      "restart-strategy.exponential-delay.attempts-before-reset-backoff": "5",
      "restart-strategy.type": "exponential-delay",
      "state.backend.type": "rocksdb",
      "state.checkpoint-storage": "filesystem",
      "state.checkpoints.dir": "/tmp/chk",
      "task.cancellation.timeout": "2 s",
      "weir.fresh": "true",
      "weir.workers": "1",
    });
    expect(commandLineConfiguration({ "restart-attempts": "0", workers: "0" }).toMap()).toEqual({ "restart-strategy.type": "none", "weir.workers": "0" });
  });

  it("a bad value or key is a usage error with the flag's own message or the key meant", () => {
    const message = (v: Record<string, unknown>) => {
      try {
        commandLineConfiguration(v);
      } catch (e) {
        expect(e).toBeInstanceOf(CliUsageError);
        return (e as Error).message;
      }
      return "no error";
    };
    expect(message({ parallelism: "0" })).toBe("--parallelism must be a whole number ≥ 1, got '0'");
    expect(message({ mode: "twice" })).toBe("--mode must be exactly-once, at-least-once or at-most-once, got 'twice'");
    expect(message({ "checkpoint-interval": "soon" })).toBe(
      "--checkpoint-interval: invalid value 'soon' for 'execution.checkpointing.interval': expected a duration such as '1 s', '500 ms' or '1 min'",
    );
    expect(message({ D: ["rest.prot=1"] })).toBe("-D rest.prot=1: unknown configuration key 'rest.prot' (did you mean 'rest.port'?)");
    expect(message({ D: ["=1"] })).toBe("-D =1: expected -D key=value");
    // an unset shell variable: neither "no savepoint" nor 0 workers
    expect(message({ "from-savepoint": "" })).toBe("--from-savepoint needs a value, got an empty one");
    expect(message({ workers: " " })).toBe("--workers needs a value, got an empty one");
  });
});
