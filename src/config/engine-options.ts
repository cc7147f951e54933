/**
 * Every engine option, declared once with Flink's key (see
 * `src/config/options/`), and the lookup of a key among them. The table of
 * docs/configuration.md is generated from this list (`npm run docs:config`).
 */
import type { ConfigOption } from "./config-option.ts";
import { CLUSTER_OPTIONS } from "./options/cluster-options.ts";
import { CHECKPOINTING_OPTIONS } from "./options/checkpointing-options.ts";
import { METRICS_OPTIONS } from "./options/metrics-options.ts";
import { PIPELINE_OPTIONS } from "./options/pipeline-options.ts";
import { REST_OPTIONS } from "./options/rest-options.ts";
import { RESTART_OPTIONS } from "./options/restart-options.ts";
import { STATE_OPTIONS } from "./options/state-options.ts";
import { WEIR_OPTIONS } from "./options/weir-options.ts";

/** The engine's options, grouped by concern, in the order the docs list them. */
export const ENGINE_OPTION_GROUPS: readonly { readonly title: string; readonly options: readonly ConfigOption[] }[] = [
  { title: "Pipeline", options: PIPELINE_OPTIONS },
  { title: "Checkpointing", options: CHECKPOINTING_OPTIONS },
  { title: "State and savepoints", options: STATE_OPTIONS },
  { title: "Restart strategy", options: RESTART_OPTIONS },
  { title: "REST API and dashboard", options: REST_OPTIONS },
  { title: "Metrics", options: METRICS_OPTIONS },
  { title: "Cluster", options: CLUSTER_OPTIONS },
  { title: "Weir", options: WEIR_OPTIONS },
];

/** Every engine option. */
export const ENGINE_OPTIONS: readonly ConfigOption[] = ENGINE_OPTION_GROUPS.flatMap((g) => g.options);

const BY_KEY = new Map<string, ConfigOption>();
for (const o of ENGINE_OPTIONS) for (const k of [o.key, ...(o.aliases ?? [])]) BY_KEY.set(k, o);

/**
 * The engine option `key` names (its key or one of its older names), if any.
 *
 * @example
 * ```ts
 * engineOption("state.backend")?.key; // "state.backend.type"
 * engineOption("table.exec.state.ttl"); // undefined (a SQL key)
 * ```
 */
export function engineOption(key: string): ConfigOption | undefined {
  return BY_KEY.get(key);
}

/** Every key and older name of the engine's options (for did-you-mean and completion). */
export function engineOptionKeys(): string[] {
  return [...BY_KEY.keys()].sort();
}
