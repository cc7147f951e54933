/**
 * When the file sink closes a part file and starts the next: always at a
 * checkpoint (exactly-once needs it), and also by size, by inactivity and by
 * age (rollover interval).
 */
import { FileSinkOptionError } from "./file-sink-errors.ts";

/** Limits after which a part file is rolled (besides every checkpoint). */
export interface RollingPolicy {
  /** Roll when a part reaches this many bytes (default 128 MiB). */
  maxPartSizeBytes: number;
  /** Roll a part that received no record for this long, in ms (default 60 s). Checked as records arrive. */
  inactivityIntervalMs: number;
  /** Roll a part open for this long, in ms (default: never; parts roll at every checkpoint). Checked as records arrive. */
  rolloverIntervalMs: number;
  /** How often, in ms, records check the time-based conditions (default: 1 s or the inactivity interval if shorter). */
  checkIntervalMs: number;
}

/** Flink's defaults: 128 MiB, 60 s of inactivity; checked every second. */
export const DEFAULT_ROLLING_POLICY: Readonly<RollingPolicy> = {
  maxPartSizeBytes: 128 * 1024 * 1024,
  inactivityIntervalMs: 60_000,
  rolloverIntervalMs: Number.POSITIVE_INFINITY,
  checkIntervalMs: 1_000,
};

/**
 * The policy of the given options, defaults filled in.
 *
 * @throws FileSinkOptionError on a non-positive limit
 */
export function resolveRollingPolicy(basePath: string, options: Partial<RollingPolicy> = {}): RollingPolicy {
  const checkIntervalMs = options.checkIntervalMs ?? Math.min(DEFAULT_ROLLING_POLICY.checkIntervalMs, options.inactivityIntervalMs ?? DEFAULT_ROLLING_POLICY.inactivityIntervalMs);
  const policy = { ...DEFAULT_ROLLING_POLICY, ...options, checkIntervalMs };
  for (const key of ["maxPartSizeBytes", "inactivityIntervalMs", "rolloverIntervalMs", "checkIntervalMs"] as const) {
    if (!(policy[key] > 0)) throw new FileSinkOptionError(basePath, `rollingPolicy.${key} must be positive, got ${policy[key]}`);
  }
  return policy;
}

/** True when a part of `bytes` bytes must roll. */
export function exceedsPartSize(bytes: number, policy: RollingPolicy): boolean {
  return bytes >= policy.maxPartSizeBytes;
}

/** True when a part opened at `openedAt` is due to roll over at `now`. */
export function isDueForRollover(openedAt: number, now: number, policy: RollingPolicy): boolean {
  return now - openedAt >= policy.rolloverIntervalMs;
}

/** True when a part last written at `lastWriteAt` is inactive at `now`. */
export function isInactive(lastWriteAt: number, now: number, policy: RollingPolicy): boolean {
  return now - lastWriteAt >= policy.inactivityIntervalMs;
}
