/**
 * `<weir-job-actions>`: what one can do to a running job: trigger a
 * savepoint, stop it with a savepoint (into the directory typed here, or the
 * job's `state.savepoints.dir` when left empty), or cancel it. A savepoint
 * and a stop are asynchronous operations of the REST API: the element follows
 * each to its end and shows where the savepoint was written, or why it failed.
 *
 * @example
 * ```ts
 * html`<weir-job-actions jid=${jid} state=${details.state}></weir-job-actions>`;
 * ```
 */
import { html, nothing } from "lit";
import { getJson, RestCallError, sendJson } from "./api.ts";
import { LightElement } from "./light-element.ts";
import type { SavepointStatus, TriggerResponse } from "./rest-types.ts";

/** One operation started here and what came of it. */
interface Operation {
  readonly kind: "savepoint" | "stop" | "cancel";
  state: "running" | "done" | "failed";
  message: string;
}

const FOLLOW_EVERY_MS = 500;
/** A savepoint of a large state takes long; the element stops following after this (the operation goes on). */
const FOLLOW_FOR_MS = 10 * 60_000;

export class JobActions extends LightElement {
  static override properties = { jid: {}, state: {} };
  declare jid: string;
  declare state: string;
  private readonly operations: Operation[] = [];
  private directory = "";

  override render(): unknown {
    const running = this.state === "RUNNING";
    const busy = this.operations.some((o) => o.state === "running");
    return html`<div class="actions">
      <label>savepoint directory
        <input id="savepoint-dir" type="text" placeholder="state.savepoints.dir" .value=${this.directory}
          @input=${(e: Event) => (this.directory = (e.target as HTMLInputElement).value)} /></label>
      <button id="trigger-savepoint" ?disabled=${!running || busy} @click=${() => this.savepoint(false)}>Trigger savepoint</button>
      <button id="stop-job" ?disabled=${!running || busy} @click=${() => this.savepoint(true)}>Stop with savepoint</button>
      <button id="cancel-job" class="danger" ?disabled=${!running} @click=${() => this.cancel()}>Cancel job</button>
    </div>
    ${this.operations.length === 0
      ? nothing
      : html`<ul class="operations">${this.operations.map((o) => html`<li class="operation ${o.kind} ${o.state}">${o.message}</li>`)}</ul>`}`;
  }

  private async savepoint(stop: boolean): Promise<void> {
    const op: Operation = { kind: stop ? "stop" : "savepoint", state: "running", message: stop ? "Stopping the job with a savepoint…" : "Savepoint in progress…" };
    this.operations.unshift(op);
    this.requestUpdate();
    const dir = this.directory.trim() || undefined;
    try {
      const body = stop ? { targetDirectory: dir, drain: false } : { "target-directory": dir, "cancel-job": false };
      const trigger = await sendJson<TriggerResponse>("POST", `jobs/${this.jid}/${stop ? "stop" : "savepoints"}`, body);
      const location = await this.follow(trigger!["request-id"]);
      op.state = "done";
      op.message = `${stop ? "Stopped with savepoint" : "Savepoint completed"}: ${location}`;
    } catch (e) {
      if (stop && e instanceof RestCallError && e.status === 0) {
        // a failed stop leaves the job running (and its server up): the server went away because the job stopped
        op.state = "done";
        op.message = "Stopped with savepoint: the job's process ended before the page could read the savepoint's location (it is in the job's output).";
        this.requestUpdate();
        return;
      }
      op.state = "failed";
      op.message = `${stop ? "Stop with savepoint" : "Savepoint"} failed: ${e instanceof Error ? e.message : String(e)}`;
    }
    this.requestUpdate();
  }

  /** Polls the operation `rid` until it ends; its savepoint's location, or throws its failure. */
  private async follow(rid: string): Promise<string> {
    const deadline = Date.now() + FOLLOW_FOR_MS;
    while (Date.now() < deadline) {
      const s = await getJson<SavepointStatus>(`jobs/${this.jid}/savepoints/${rid}`);
      if (s.status.id === "COMPLETED") {
        const failure = s.operation?.["failure-cause"];
        if (failure) throw new Error(failureText(failure));
        return s.operation?.location ?? "(no location)";
      }
      await new Promise((r) => setTimeout(r, FOLLOW_EVERY_MS));
    }
    throw new Error(`still in progress after ${FOLLOW_FOR_MS / 60_000} min (request ${rid})`);
  }

  private async cancel(): Promise<void> {
    if (!confirm(`Cancel job ${this.jid}? Its sources stop at once; nothing is committed after the last checkpoint.`)) return;
    const op: Operation = { kind: "cancel", state: "running", message: "Cancelling…" };
    this.operations.unshift(op);
    this.requestUpdate();
    try {
      await sendJson("PATCH", `jobs/${this.jid}?mode=cancel`);
      op.state = "done";
      op.message = "Cancel requested: the job is cancelling.";
    } catch (e) {
      op.state = "failed";
      op.message = `Cancel failed: ${e instanceof Error ? e.message : String(e)}`;
    }
    this.requestUpdate();
  }
}

/** The first line of a failure cause of Flink's shape (`stack-trace` or `serialized-throwable`). */
function failureText(cause: NonNullable<NonNullable<SavepointStatus["operation"]>["failure-cause"]>): string {
  const text = cause["stack-trace"] ?? cause.message ?? cause["serialized-throwable"] ?? "unknown failure";
  return text.split("\n")[0]!;
}
