/**
 * `<weir-checkpoint-details>`: one checkpoint opened from the history: per
 * vertex its acknowledgements, and per subtask when it acknowledged, its
 * end-to-end, synchronous and asynchronous durations, state size, alignment
 * (duration, bytes processed during it) and start delay.
 *
 * @example
 * ```ts
 * html`<weir-checkpoint-details jid=${jid} .checkpoint=${stats} .vertices=${details.vertices}></weir-checkpoint-details>`;
 * ```
 */
import { html } from "lit";
import { getJson } from "./api.ts";
import { formatBytes, formatDuration, formatTime } from "./format.ts";
import { LightElement } from "./light-element.ts";
import { Poll } from "./poll.ts";
import type { CheckpointStatistics, JobVertex, TaskCheckpointDetails } from "./rest-types.ts";

export class CheckpointDetails extends LightElement {
  static override properties = { jid: {}, checkpoint: { attribute: false }, vertices: { attribute: false } };
  declare jid: string;
  declare checkpoint: CheckpointStatistics;
  declare vertices: readonly JobVertex[];
  private readonly subtasks = new Poll(this, () => this.load(), 2000);

  private async load(): Promise<Map<string, TaskCheckpointDetails>> {
    const base = `jobs/${this.jid}/checkpoints/details/${this.checkpoint.id}`;
    const details = await getJson<CheckpointStatistics>(base);
    const ids = Object.keys(details.tasks ?? {});
    const all = await Promise.all(ids.map((vid) => getJson<TaskCheckpointDetails>(`${base}/subtasks/${vid}`).then((d) => [vid, d] as const)));
    return new Map(all);
  }

  override render(): unknown {
    const loaded = this.subtasks.value;
    if (!loaded) return html`<p class="muted">${this.subtasks.error ?? "Loading the subtasks…"}</p>`;
    const name = (vid: string) => this.vertices.find((v) => v.id === vid)?.name ?? vid;
    return html`${[...loaded].map(
      ([vid, task]) => html`<div class="checkpoint-task" data-vertex-id=${vid}>
        <h4>${name(vid)} <span class="muted">${task.num_acknowledged_subtasks ?? task.subtasks.filter((s) => s.ack_timestamp).length}/${task.num_subtasks ?? task.subtasks.length} acknowledged</span></h4>
        <table class="subtask-acks">
          <thead><tr><th>subtask</th><th>status</th><th>acknowledged</th><th>end to end</th><th>state size</th><th>sync</th><th>async</th><th>alignment</th><th>aligned data</th><th>start delay</th></tr></thead>
          <tbody>
            ${task.subtasks.map(
              (s) => html`<tr>
                <td>${s.index}</td><td>${s.status}${s.aborted ? " (aborted)" : ""}${s.unaligned_checkpoint ? " (unaligned)" : ""}</td>
                <td>${formatTime(s.ack_timestamp)}</td><td>${formatDuration(s.end_to_end_duration)}</td><td>${formatBytes(s.state_size)}</td>
                <td>${formatDuration(s.checkpoint?.sync)}</td><td>${formatDuration(s.checkpoint?.async)}</td>
                <td>${formatDuration(s.alignment?.duration)}</td><td>${formatBytes(s.alignment?.processed ?? s.alignment?.buffered)}</td>
                <td>${formatDuration(s.start_delay)}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>`,
    )}`;
  }
}
