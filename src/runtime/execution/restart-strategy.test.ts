import { describe, expect, it } from "vitest";
import { DEFAULT_RESTART_ATTEMPTS, defaultRestartStrategy, RestartBackoff, RestartStrategies } from "./restart-strategy.ts";

const noJitter = () => 0.5;

/** Delays of consecutive failures at the given times, until the first refusal (-1). */
function delays(backoff: RestartBackoff, times: number[]): number[] {
  return times.map((t) => {
    const d = backoff.onFailure(t);
    return d.restart ? d.delayMs : -1;
  });
}

describe("defaultRestartStrategy", () => {
  it("is bounded with checkpointing: 3 restarts, 1 s, 2 s, 4 s apart, then the job fails", () => {
    expect(DEFAULT_RESTART_ATTEMPTS).toBe(3);
    const backoff = new RestartBackoff(defaultRestartStrategy(true), noJitter);
    expect(delays(backoff, [0, 1_000, 3_000, 7_000, 15_000])).toEqual([1_000, 2_000, 4_000, -1, -1]);
    const refusal = new RestartBackoff(defaultRestartStrategy(true), noJitter);
    delays(refusal, [0, 1, 2]);
    expect(refusal.onFailure(3)).toEqual({ restart: false, delayMs: 0, reason: "restarted 3 times (limit 3)" });
  });

  it("does not restart without checkpointing unless attempts are given; 0 attempts never restarts", () => {
    expect(defaultRestartStrategy(false)).toEqual(RestartStrategies.noRestart());
    expect(defaultRestartStrategy(false, 2)).toMatchObject({ type: "exponential-delay", attempts: 2 });
    expect(defaultRestartStrategy(true, 0)).toEqual(RestartStrategies.noRestart());
  });
});

describe("RestartBackoff", () => {
  it("exponential delay: grows to the maximum, jitters, and counts attempts again after a quiet hour", () => {
    const config = RestartStrategies.exponentialDelayRestart({ initialBackoffMs: 100, maxBackoffMs: 300, attempts: 3, jitterFactor: 0 });
    const backoff = new RestartBackoff(config, noJitter);
    expect(delays(backoff, [0, 1, 2, 3])).toEqual([100, 200, 300, -1]);
    // an hour without failure: the backoff and the attempts start over
    expect(delays(backoff, [3 + 3_600_000, 3 + 3_600_001])).toEqual([100, 200]);
    const jittered = new RestartBackoff(RestartStrategies.exponentialDelayRestart({ initialBackoffMs: 1_000, jitterFactor: 0.1 }), () => 1);
    expect(jittered.onFailure(0).delayMs).toBe(1_100);
  });

  it("fixed delay and failure rate", () => {
    expect(delays(new RestartBackoff(RestartStrategies.fixedDelayRestart(2, 50)), [0, 1, 2])).toEqual([50, 50, -1]);
    const rate = new RestartBackoff(RestartStrategies.failureRateRestart(2, 1_000, 10));
    expect(delays(rate, [0, 100, 200])).toEqual([10, 10, -1]);
    expect(delays(new RestartBackoff(RestartStrategies.failureRateRestart(2, 1_000, 10)), [0, 100, 1_150])).toEqual([10, 10, 10]);
    expect(new RestartBackoff(RestartStrategies.noRestart()).onFailure(0)).toMatchObject({ restart: false, reason: "the restart strategy is 'none'" });
  });
});
