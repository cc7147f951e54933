/**
 * The session configuration of a table environment (Flink's `TableConfig`),
 * set with `SET 'key' = 'value'` or {@link TableConfig.set}. Keys are
 * Flink's; the ones the planner reads are checked when set. A key one or two
 * letters away from one of those is refused as a typo (with the key meant);
 * any other key is kept as given (as Flink does), and changes nothing.
 */
import { didYouMean } from "../../util/did-you-mean.ts";
import { parseDuration } from "../../config/parse-duration.ts";
import { editDistance } from "../validation/nearest-name.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { checkpointDirectoryOf } from "../../checkpoint/storage/checkpoint-location.ts";
import { UnsupportedCheckpointLocationError } from "../../checkpoint/storage/errors.ts";

/** The keys the planner and the job read, with their defaults. */
const KNOWN: Readonly<Record<string, { default: string; check?: (v: string) => string | undefined }>> = {
  "table.exec.state.ttl": { default: "0 ms", check: duration },
  "table.exec.source.idle-timeout": { default: "0 ms", check: duration },
  "table.local-time-zone": { default: "default", check: zone },
  "pipeline.name": { default: "" },
  "parallelism.default": { default: "", check: (v) => (/^\d+$/.test(v) && Number(v) > 0 ? undefined : "a positive integer") },
  "execution.checkpointing.interval": { default: "", check: duration },
  "execution.checkpointing.mode": { default: "", check: (v) => (/^(EXACTLY_ONCE|AT_LEAST_ONCE)$/i.test(v) ? undefined : "EXACTLY_ONCE or AT_LEAST_ONCE") },
  "execution.savepoint.path": { default: "" },
  "state.savepoints.dir": { default: "" },
  // the job's checkpoint directory (as setCheckpointStorage); --checkpoint-dir wins
  "state.checkpoints.dir": { default: "", check: checkpointLocation },
  // the keyed state backend (Flink's names: state.backend.type, older state.backend; hashmap = heap, rocksdb = disk)
  "state.backend.type": { default: "", check: backendName },
  "state.backend": { default: "", check: backendName },
  "execution.checkpointing.incremental": { default: "", check: boolean },
  "state.backend.incremental": { default: "", check: boolean },
  // accepted and checked as Flink does; Weir does not batch state accesses, so they change nothing
  "table.exec.mini-batch.enabled": { default: "false", check: boolean },
  "table.exec.mini-batch.allow-latency": { default: "0 ms", check: duration },
  "table.exec.mini-batch.size": { default: "-1", check: (v) => (/^-?\d+$/.test(v) && (Number(v) > 0 || v === "-1") ? undefined : "a positive number of rows (or -1)") },
  // the SQL client's own keys (`weir sql`)
  "sql-client.execution.result-mode": { default: "table", check: (v) => (/^(table|changelog|tableau)$/i.test(v) ? undefined : "table, changelog or tableau") },
  "sql-client.execution.max-table-result.rows": { default: "1000000", check: positiveInteger },
};

/**
 * The known key `key` is a typo of: one or two letters away. Flink's own keys
 * that Weir does not read are further from every known key (`pipeline.jars`
 * is three letters from `pipeline.name`), so they are never taken for typos.
 */
function misspeltKey(key: string): string | undefined {
  const near = didYouMean(key, TableConfig.knownKeys());
  return near !== undefined && editDistance(key.toLowerCase(), near.toLowerCase()) <= 2 ? near : undefined;
}

function backendName(v: string): string | undefined {
  return /^(heap|disk|hashmap|rocksdb)$/i.test(v.trim()) ? undefined : "heap or disk (Flink's hashmap and rocksdb name the same two)";
}

function checkpointLocation(v: string): string | undefined {
  if (v.trim() === "") return "a directory (a path or a file:// URI)";
  try {
    checkpointDirectoryOf(v);
    return undefined;
  } catch (e) {
    if (!(e instanceof UnsupportedCheckpointLocationError)) throw e;
    return `a local directory (a path or a file:// URI); the '${e.scheme}://' scheme is not supported (object storage is not available yet)`;
  }
}

function boolean(v: string): string | undefined {
  return /^(true|false)$/i.test(v) ? undefined : "true or false";
}

function positiveInteger(v: string): string | undefined {
  return /^\d+$/.test(v) && Number(v) > 0 ? undefined : "a positive integer";
}

function duration(v: string): string | undefined {
  return parseDuration(v) === undefined ? "a duration such as '1 h' or '30 s'" : undefined;
}

function zone(v: string): string | undefined {
  if (v === "default") return undefined;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: v });
    return undefined;
  } catch {
    return "an IANA time zone id such as 'UTC' or 'Europe/Berlin'";
  }
}

/**
 * @example
 * ```ts
 * tEnv.getConfig().set("table.exec.state.ttl", "1 h");
 * tEnv.getConfig().get("table.exec.state.ttl"); // "1 h"
 * ```
 */
export class TableConfig {
  private readonly values = new Map<string, string>();

  /**
   * Sets `key`; a key the planner reads must have a valid value.
   *
   * @throws {SqlValidationError} for an invalid value, and for an unknown key that looks like a misspelt known one.
   */
  set(key: string, value: string): this {
    const known = Object.hasOwn(KNOWN, key) ? KNOWN[key] : undefined;
    const meant = known === undefined ? misspeltKey(key) : undefined;
    if (meant !== undefined) throw new SqlValidationError(`Unknown configuration key '${key}'. Did you mean '${meant}'?`);
    const problem = known?.check?.(value);
    if (problem !== undefined) throw new SqlValidationError(`Invalid value '${value}' for '${key}': expected ${problem}`);
    this.values.set(key, value);
    return this;
  }

  /** The value of `key`: as set, else its default ("" when it has none). */
  get(key: string): string {
    return this.values.get(key) ?? (Object.hasOwn(KNOWN, key) ? KNOWN[key]!.default : "");
  }

  /** Forgets `key` (or every key). */
  reset(key?: string): void {
    if (key === undefined) this.values.clear();
    else this.values.delete(key);
  }

  /** The keys set, with their values, sorted by key. */
  entries(): [string, string][] {
    return [...this.values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** The keys Weir reads (for completion and help), sorted. */
  static knownKeys(): string[] {
    return Object.keys(KNOWN).sort();
  }

  /** Whether Weir reads `key` (others are kept but change nothing). */
  static isKnownKey(key: string): boolean {
    return Object.hasOwn(KNOWN, key);
  }

  /** A duration key in ms. */
  durationMs(key: string): number {
    return parseDuration(this.get(key)) ?? 0;
  }

  /** `table.local-time-zone` resolved ("default" is the machine's zone). */
  timeZone(): string {
    const z = this.get("table.local-time-zone");
    return z === "default" ? Intl.DateTimeFormat().resolvedOptions().timeZone : z;
  }
}
