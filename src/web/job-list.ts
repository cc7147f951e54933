/**
 * `<weir-job-list>`: the jobs of the server (`weir run` serves one), with
 * their state, start time, duration and tasks; a row opens the job.
 *
 * @example
 * ```ts
 * html`<weir-job-list></weir-job-list>`;
 * ```
 */
import { html, nothing } from "lit";
import { getJson } from "./api.ts";
import { formatDuration, formatTime } from "./format.ts";
import { LightElement } from "./light-element.ts";
import { Poll } from "./poll.ts";
import type { JobsOverview } from "./rest-types.ts";

export class JobList extends LightElement {
  private readonly jobs = new Poll(this, () => getJson<JobsOverview>("jobs/overview"), 2000);

  override render(): unknown {
    const jobs = this.jobs.value?.jobs;
    return html`<h2>Jobs</h2>
      ${this.jobs.error ? html`<p class="error">${this.jobs.error}</p>` : nothing}
      ${!jobs
        ? html`<p class="muted">Loading…</p>`
        : jobs.length === 0
          ? html`<p class="muted">No job.</p>`
          : html`<table class="job-list">
              <thead><tr><th>name</th><th>state</th><th>started</th><th>duration</th><th>tasks</th><th>id</th></tr></thead>
              <tbody>
                ${jobs.map(
                  (j) => html`<tr class="job-row" data-jid=${j.jid}>
                    <td><a href="#/jobs/${j.jid}/overview">${j.name}</a></td>
                    <td><span class="state state-${j.state.toLowerCase()}">${j.state}</span></td>
                    <td>${formatTime(j["start-time"])}</td>
                    <td>${formatDuration(j.duration)}</td>
                    <td>${j.tasks ? Object.entries(j.tasks).filter(([k, n]) => n > 0 && k !== "total").map(([k, n]) => `${n} ${k}`).join(", ") : "–"}</td>
                    <td><code>${j.jid}</code></td>
                  </tr>`,
                )}
              </tbody>
            </table>`}`;
  }
}
