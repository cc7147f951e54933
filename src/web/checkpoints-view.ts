/**
 * `<weir-checkpoints>`: the job's checkpoints: counts, the latest completed,
 * failed and restored ones, the history (id, status, kind, trigger time,
 * end-to-end duration, state size, data processed during alignment,
 * acknowledged subtasks, failure reason; a row opens the per-subtask
 * acknowledgements), and the checkpoint configuration.
 *
 * @example
 * ```ts
 * html`<weir-checkpoints jid=${jid} .vertices=${details.vertices}></weir-checkpoints>`;
 * ```
 */
import { html, nothing } from "lit";
import { getJson } from "./api.ts";
import { formatBytes, formatDuration, formatTime } from "./format.ts";
import { LightElement } from "./light-element.ts";
import { Poll } from "./poll.ts";
import type { CheckpointConfig, CheckpointingStatistics, CheckpointStatistics, JobVertex } from "./rest-types.ts";

/** Rows of the history shown (the server may keep more). */
const MAX_ROWS = 20;

export class CheckpointsView extends LightElement {
  static override properties = { jid: {}, vertices: { attribute: false } };
  declare jid: string;
  declare vertices: readonly JobVertex[];
  private readonly stats = new Poll(this, () => getJson<CheckpointingStatistics>(`jobs/${this.jid}/checkpoints`), 1500);
  private readonly config = new Poll(this, () => getJson<CheckpointConfig>(`jobs/${this.jid}/checkpoints/config`), 30_000);
  private open: number | undefined;

  override render(): unknown {
    const s = this.stats.value;
    return html`<section class="checkpoints">
      ${this.stats.error ? html`<p class="error">${this.stats.error}</p>` : nothing}
      ${s ? this.summary(s) : html`<p class="muted">Loading the checkpoints…</p>`}
      <h3>History</h3>
      ${s ? this.history(s.history) : nothing}
      <h3>Configuration</h3>
      ${this.configuration(this.config.value)}
    </section>`;
  }

  private summary(s: CheckpointingStatistics): unknown {
    const c = s.counts ?? {};
    const latest = s.latest ?? {};
    return html`<dl class="facts checkpoint-counts">
      <dt>triggered</dt><dd>${c.total ?? "–"}</dd>
      <dt>in progress</dt><dd>${c.in_progress ?? "–"}</dd>
      <dt>completed</dt><dd class="completed-count">${c.completed ?? "–"}</dd>
      <dt>failed</dt><dd>${c.failed ?? "–"}</dd>
      <dt>restored</dt><dd>${c.restored ?? "–"}</dd>
      <dt>latest completed</dt><dd>${latest.completed ? html`#${latest.completed.id} at ${formatTime(latest.completed.latest_ack_timestamp)}${latest.completed.external_path ? html` <code>${latest.completed.external_path}</code>` : nothing}` : "none"}</dd>
      <dt>latest savepoint</dt><dd>${latest.savepoint ? html`#${latest.savepoint.id} <code>${latest.savepoint.external_path ?? ""}</code>` : "none"}</dd>
      <dt>latest failed</dt><dd>${latest.failed ? html`#${latest.failed.id} at ${formatTime(latest.failed.failure_timestamp)}: ${latest.failed.failure_message ?? ""}` : "none"}</dd>
      <dt>restored from</dt><dd>${latest.restored ? html`#${latest.restored.id}${latest.restored.is_savepoint ? " (savepoint)" : ""} <code>${latest.restored.external_path ?? ""}</code>` : "none"}</dd>
    </dl>`;
  }

  private history(all: readonly CheckpointStatistics[]): unknown {
    if (all.length === 0) return html`<p class="muted">No checkpoint yet.</p>`;
    const history = [...all].sort((a, b) => b.id - a.id).slice(0, MAX_ROWS);
    return html`${all.length > MAX_ROWS ? html`<p class="muted">The latest ${MAX_ROWS} of ${all.length}.</p>` : nothing}<table class="checkpoint-history">
      <thead><tr><th>id</th><th>status</th><th>kind</th><th>triggered</th><th>end to end</th><th>state size</th><th>aligned data</th><th>acknowledged</th><th>failure</th></tr></thead>
      <tbody>
        ${history.map(
          (c) => html`<tr class="checkpoint status-${c.status.toLowerCase()}" data-checkpoint-id=${c.id} data-status=${c.status} @click=${() => this.toggle(c.id)}>
              <td>${this.open === c.id ? "▾" : "▸"} ${c.id}</td>
              <td>${c.status}</td>
              <td>${c.checkpoint_type ?? (c.is_savepoint ? "SAVEPOINT" : "CHECKPOINT")}</td>
              <td>${formatTime(c.trigger_timestamp)}</td>
              <td>${formatDuration(c.end_to_end_duration)}</td>
              <td>${formatBytes(c.state_size)}</td>
              <td>${formatBytes(c.processed_data ?? c.alignment_buffered)}</td>
              <td>${c.num_acknowledged_subtasks ?? "–"}/${c.num_subtasks ?? "–"}</td>
              <td class="failure">${c.failure_message ?? ""}</td>
            </tr>
            ${this.open === c.id
              ? html`<tr class="checkpoint-open"><td colspan="9"><weir-checkpoint-details jid=${this.jid} .checkpoint=${c} .vertices=${this.vertices}></weir-checkpoint-details></td></tr>`
              : nothing}`,
        )}
      </tbody>
    </table>`;
  }

  private configuration(c: CheckpointConfig | undefined): unknown {
    if (!c) return html`<p class="muted">${this.config.error ?? "Loading…"}</p>`;
    return html`<dl class="facts checkpoint-config">
      <dt>mode</dt><dd>${c.mode ?? "–"}</dd>
      <dt>interval</dt><dd>${formatDuration(c.interval)}</dd>
      <dt>timeout</dt><dd>${formatDuration(c.timeout)}</dd>
      <dt>minimum pause</dt><dd>${formatDuration(c.min_pause)}</dd>
      <dt>maximum concurrent</dt><dd>${c.max_concurrent ?? "–"}</dd>
      <dt>tolerable failures</dt><dd>${c.tolerable_failed_checkpoints ?? "–"}</dd>
      <dt>state backend</dt><dd>${c.state_backend ?? "–"}</dd>
      <dt>checkpoint storage</dt><dd>${c.checkpoint_storage ?? "–"}</dd>
      <dt>unaligned</dt><dd>${String(c.unaligned_checkpoints ?? false)}</dd>
      <dt>retained on cancel</dt><dd>${c.externalization ? String(c.externalization.enabled && !c.externalization.delete_on_cancellation) : "–"}</dd>
      <dt>after tasks finish</dt><dd>${c.checkpoints_after_tasks_finish === undefined ? "–" : String(c.checkpoints_after_tasks_finish)}</dd>
    </dl>`;
  }

  private toggle(id: number): void {
    this.open = this.open === id ? undefined : id;
    this.requestUpdate();
  }
}
