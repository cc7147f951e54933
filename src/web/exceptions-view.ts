/**
 * `<weir-exceptions>`: the job's root exception and the history of failures
 * (newest first), each with its time, task, location, stack trace and the
 * exceptions of other tasks at the same failure.
 *
 * @example
 * ```ts
 * html`<weir-exceptions jid=${jid}></weir-exceptions>`;
 * ```
 */
import { html, nothing } from "lit";
import { getJson } from "./api.ts";
import { formatTime } from "./format.ts";
import { LightElement } from "./light-element.ts";
import { Poll } from "./poll.ts";
import type { JobExceptions, RootExceptionInfo } from "./rest-types.ts";

export class ExceptionsView extends LightElement {
  static override properties = { jid: {} };
  declare jid: string;
  private readonly exceptions = new Poll(this, () => getJson<JobExceptions>(`jobs/${this.jid}/exceptions?maxExceptions=50`), 3000);

  override render(): unknown {
    const e = this.exceptions.value;
    if (!e) return html`<p class="muted">${this.exceptions.error ?? "Loading the exceptions…"}</p>`;
    const entries = e.exceptionHistory?.entries ?? [];
    return html`<section class="exceptions">
      <h3>Root exception</h3>
      ${e["root-exception"] ? html`<p class="muted">${formatTime(e.timestamp)}</p><pre class="stacktrace root-exception">${e["root-exception"]}</pre>` : html`<p class="muted no-exception">No exception: the job has not failed.</p>`}
      <h3>History</h3>
      ${entries.length === 0 ? html`<p class="muted">No failure so far.</p>` : entries.map((x) => this.entry(x))}
      ${e.exceptionHistory?.truncated ? html`<p class="muted">Older exceptions are not kept.</p>` : nothing}
    </section>`;
  }

  private entry(x: RootExceptionInfo): unknown {
    return html`<details class="exception-entry">
      <summary><b>${x.exceptionName ?? "exception"}</b> <span class="muted">${formatTime(x.timestamp)}${x.taskName ? ` · ${x.taskName}` : ""}${x.location ? ` · ${x.location}` : ""}</span></summary>
      <pre class="stacktrace">${x.stacktrace ?? ""}</pre>
      ${(x.concurrentExceptions ?? []).map(
        (c) => html`<p class="muted">at the same time${c.taskName ? ` in ${c.taskName}` : ""}:</p><pre class="stacktrace">${c.stacktrace ?? c.exceptionName ?? ""}</pre>`,
      )}
    </details>`;
  }
}
