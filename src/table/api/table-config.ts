/**
 * The session configuration of a table environment (Flink's `TableConfig`),
 * set with `SET 'key' = 'value'` or {@link TableConfig.set}. The engine's keys
 * (`execution.checkpointing.interval`, `parallelism.default`, …; see
 * docs/configuration.md) go to the stream environment's configuration, as
 * every other entry writes them; the planner's own keys (`table.*`,
 * `sql-client.*`) are kept here. Both are checked when set. A key one or two
 * letters away from a known one is refused as a typo (with the key meant);
 * any other key is kept as given (as Flink does), and changes nothing.
 */
import type { StreamExecutionEnvironment } from "../../api/environment.ts";
import { formatOptionValue } from "../../config/config-option.ts";
import { Configuration } from "../../config/configuration.ts";
import { ConfigurationError } from "../../config/configuration-error.ts";
import { engineOption, engineOptionKeys } from "../../config/engine-options.ts";
import { didYouMean } from "../../util/did-you-mean.ts";
import { parseDuration } from "../../config/parse-duration.ts";
import { editDistance } from "../validation/nearest-name.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { aggPhaseStrategyOf, type AggPhaseStrategy } from "../plan/agg-phase-strategy.ts";

/** The keys the planner and the SQL client read, with their defaults. */
const KNOWN: Readonly<Record<string, { default: string; check?: (v: string) => string | undefined }>> = {
  "table.exec.state.ttl": { default: "0 ms", check: duration },
  "table.exec.source.idle-timeout": { default: "0 ms", check: duration },
  "table.local-time-zone": { default: "default", check: zone },
  "table.optimizer.reuse-sub-plan-enabled": { default: "true", check: boolean },
  // one- or two-phase window aggregation (plan/agg-phase-strategy.ts)
  "table.optimizer.agg-phase-strategy": { default: "AUTO", check: (v) => (aggPhaseStrategyOf(v) === undefined ? "AUTO, ONE_PHASE or TWO_PHASE" : undefined) },
  // mini-batch group aggregation (runtime/mini-batch-group-aggregate.ts)
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
  const near = didYouMean(key, [...Object.keys(KNOWN), ...engineOptionKeys()]);
  return near !== undefined && editDistance(key.toLowerCase(), near.toLowerCase()) <= 2 ? near : undefined;
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
  /** What was set, as given (SET lists it). */
  private readonly values = new Map<string, string>();

  /** @param env the environment whose configuration receives the engine's keys (none: they are only checked). */
  constructor(private readonly env?: StreamExecutionEnvironment) {}

  /**
   * Sets `key`; a key Weir reads must have a valid value. An engine key is set in the
   * environment's configuration (the command line's settings still win).
   *
   * @throws {SqlValidationError} for an invalid value, and for an unknown key that looks like a misspelt known one.
   */
  set(key: string, value: string): this {
    if (engineOption(key) !== undefined) {
      try {
        const c = new Configuration().setString(key, value);
        this.env?.configure(c);
      } catch (e) {
        if (!(e instanceof ConfigurationError)) throw e;
        throw new SqlValidationError(e.detail.charAt(0).toUpperCase() + e.detail.slice(1));
      }
      this.values.set(key, value);
      return this;
    }
    const known = Object.hasOwn(KNOWN, key) ? KNOWN[key] : undefined;
    const meant = known === undefined ? misspeltKey(key) : undefined;
    if (meant !== undefined) throw new SqlValidationError(`Unknown configuration key '${key}'. Did you mean '${meant}'?`);
    const problem = known?.check?.(value);
    if (problem !== undefined) throw new SqlValidationError(`Invalid value '${value}' for '${key}': expected ${problem}`);
    this.values.set(key, value);
    return this;
  }

  /**
   * The value of `key`: an engine key's as the environment has it (the command line's, else as set, else its
   * default); another key's as set, else its default; "" when it has none.
   */
  get(key: string): string {
    const engine = engineOption(key);
    if (engine !== undefined && this.env !== undefined) {
      const v = this.env.getConfiguration().get(engine);
      return v === undefined ? "" : formatOptionValue(engine.type, v);
    }
    return this.values.get(key) ?? (Object.hasOwn(KNOWN, key) ? KNOWN[key]!.default : "");
  }

  /** Forgets `key` (or every key set here): an engine key falls back to its default again. */
  reset(key?: string): void {
    for (const k of key === undefined ? [...this.values.keys()] : [key]) {
      const engine = engineOption(k);
      if (engine !== undefined) this.env?.resetConfiguration(engine);
      this.values.delete(k);
    }
  }

  /**
   * The keys set here and the keys of the command line (`-D`, flags), with their values (an engine key's as
   * it applies: the command line's wins), sorted by key.
   */
  entries(): [string, string][] {
    const all = new Map([...this.values].map(([k, v]) => [k, engineOption(k) === undefined ? v : this.get(k)]));
    for (const [k, v] of Object.entries(this.env?.overrides.toMap() ?? {})) all.set(k, v);
    return [...all].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** The keys Weir reads (for completion and help): the planner's and the engine's, sorted. */
  static knownKeys(): string[] {
    return [...Object.keys(KNOWN), ...engineOptionKeys()].sort();
  }

  /** Whether Weir reads `key` (others are kept but change nothing). */
  static isKnownKey(key: string): boolean {
    return Object.hasOwn(KNOWN, key) || engineOption(key) !== undefined;
  }

  /** A duration key in ms. */
  durationMs(key: string): number {
    return parseDuration(this.get(key)) ?? 0;
  }

  /** A boolean key. */
  flag(key: string): boolean {
    return this.get(key).toLowerCase() === "true";
  }

  /** `table.optimizer.agg-phase-strategy` (checked when set). */
  aggPhaseStrategy(): AggPhaseStrategy {
    return aggPhaseStrategyOf(this.get("table.optimizer.agg-phase-strategy")) ?? "AUTO";
  }

  /** `table.local-time-zone` resolved ("default" is the machine's zone). */
  timeZone(): string {
    const z = this.get("table.local-time-zone");
    return z === "default" ? Intl.DateTimeFormat().resolvedOptions().timeZone : z;
  }
}
