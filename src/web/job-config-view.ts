/**
 * `<weir-job-config>`: the job's execution configuration (mode, restart
 * strategy, parallelism, object reuse) and the options it was started with.
 *
 * @example
 * ```ts
 * html`<weir-job-config jid=${jid}></weir-job-config>`;
 * ```
 */
import { html } from "lit";
import { getJson } from "./api.ts";
import { LightElement } from "./light-element.ts";
import { Poll } from "./poll.ts";
import type { JobConfig } from "./rest-types.ts";

/** Flink's JSON names the execution config `execution-config`; its OpenAPI file, `executionConfigInfo`. */
type AnyJobConfig = JobConfig & { executionConfigInfo?: JobConfig["execution-config"] };

export class JobConfigView extends LightElement {
  static override properties = { jid: {} };
  declare jid: string;
  private readonly config = new Poll(this, () => getJson<AnyJobConfig>(`jobs/${this.jid}/config`), 30_000);

  override render(): unknown {
    const c = this.config.value;
    if (!c) return html`<p class="muted">${this.config.error ?? "Loading the configuration…"}</p>`;
    const e = c["execution-config"] ?? c.executionConfigInfo ?? {};
    const options = Object.entries(e["user-config"] ?? {}).sort(([a], [b]) => a.localeCompare(b));
    return html`<section class="job-config">
      <dl class="facts">
        <dt>execution mode</dt><dd>${e["execution-mode"] ?? "–"}</dd>
        <dt>restart strategy</dt><dd>${e["restart-strategy"] ?? "–"}</dd>
        <dt>parallelism</dt><dd>${e["job-parallelism"] ?? "–"}</dd>
        <dt>object reuse</dt><dd>${e["object-reuse-mode"] === undefined ? "–" : String(e["object-reuse-mode"])}</dd>
      </dl>
      <h3>Options</h3>
      ${options.length === 0
        ? html`<p class="muted">No option set.</p>`
        : html`<table class="options"><thead><tr><th>key</th><th>value</th></tr></thead>
            <tbody>${options.map(([k, v]) => html`<tr><td><code>${k}</code></td><td><code>${v}</code></td></tr>`)}</tbody></table>`}
    </section>`;
  }
}
