/**
 * A client of a job's REST API (Flink's shapes, `/v1/...`), as the `weir
 * list/cancel/stop/savepoint` commands and the SQL client use it to operate
 * jobs of other processes: the job overview, cancel, savepoints and stop with
 * a savepoint (trigger, then poll the asynchronous operation until it ends);
 * and, for `weir run -m`, a job manager's submission (upload a bundle, run
 * it) and what following a job reads (its details, checkpoints, exceptions).
 */
import type { JarRunRequest } from "../rest/handlers/jar-handlers.ts";
import { setTimeout as sleep } from "node:timers/promises";

/** A job as `GET /jobs/overview` lists it (the fields the CLI uses). */
export interface JobOverview {
  readonly jid: string;
  readonly name: string;
  /** Flink's job status: RUNNING, FINISHED, CANCELED, FAILED, RESTARTING, … */
  readonly state: string;
  /** Epoch ms. */
  readonly "start-time": number;
  /** Epoch ms, or -1 while the job runs. */
  readonly "end-time": number;
}


/** What following a job reads of `GET /jobs/:jid` (Flink's JobDetailsInfo). */
export interface JobDetails {
  readonly jid: string;
  readonly name: string;
  readonly state: string;
}

/** What following a job reads of `GET /jobs/:jid/checkpoints`. */
export interface JobCheckpoints {
  readonly counts?: { readonly completed?: number };
  readonly latest?: {
    readonly completed?: { readonly id: number; readonly end_to_end_duration?: number } | null;
    readonly restored?: { readonly id: number; readonly is_savepoint?: boolean; readonly external_path?: string } | null;
  };
}

/** What following a job reads of `GET /jobs/:jid/exceptions` (Flink's JobExceptionsInfoWithHistory). */
export interface JobExceptions {
  readonly "root-exception"?: string;
  readonly exceptionHistory?: { readonly entries?: readonly { readonly exceptionName?: string; readonly stacktrace?: string }[] };
}

/** The REST server at an address did not answer (no process listens there, or it did not answer in time). */
export class RestUnreachableError extends Error {
  override name = "RestUnreachableError";
  constructor(
    readonly url: string,
    /** Why, in a few words: connection refused, no answer in time, unknown host. */
    readonly reason: string,
  ) {
    super(`the job's REST server at ${url} is not reachable (${reason})`);
  }
}

/** The REST server answered a request with an error status; `errors` are Flink's `{"errors": [...]}`. */
export class RestRequestError extends Error {
  override name = "RestRequestError";
  constructor(
    readonly url: string,
    readonly status: number,
    readonly errors: readonly string[],
  ) {
    super(`${url}: HTTP ${status}${errors.length > 0 ? `: ${errors.join("; ")}` : ""}`);
  }
}

/** A savepoint (or stop with a savepoint) ended without one; `cause` is Flink's failure cause, first line first. */
export class SavepointFailedError extends Error {
  override name = "SavepointFailedError";
  constructor(
    readonly jobId: string,
    readonly cause: string,
  ) {
    super(`the savepoint of job ${jobId} failed: ${cause}`);
  }
}

/** The statuses a job ends in. */
export const TERMINAL_STATES: ReadonlySet<string> = new Set(["FINISHED", "CANCELED", "FAILED", "SUSPENDED"]);

/** How long one request may take before the server counts as not reachable. */
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * @example
 * ```ts
 * const rest = new RestClient("http://127.0.0.1:8081");
 * const [job] = await rest.jobsOverview();
 * const path = await rest.awaitSavepoint(job.jid, await rest.triggerSavepoint(job.jid, "/tmp/savepoints"));
 * ```
 */
export class RestClient {
  /** `url`: the server's base address (`http://host:port`); `token`: sent as `Authorization: Bearer`. */
  constructor(
    readonly url: string,
    private readonly token?: string,
  ) {}

  /** Every job the server knows, running or ended. */
  async jobsOverview(): Promise<JobOverview[]> {
    const body = (await this.request("GET", "/v1/jobs/overview")) as { jobs?: JobOverview[] };
    return body.jobs ?? [];
  }

  /** Asks the server to cancel the job (`PATCH /jobs/:jid?mode=cancel`); the job ends a moment later. */
  async cancel(jobId: string): Promise<void> {
    await this.request("PATCH", `/v1/jobs/${jobId}?mode=cancel`);
  }

  /** Triggers a savepoint into `directory` (the server's default when undefined) while the job goes on; resolves with the request id. */
  async triggerSavepoint(jobId: string, directory: string | undefined): Promise<string> {
    return requestId(await this.request("POST", `/v1/jobs/${jobId}/savepoints`, { "target-directory": directory, "cancel-job": false }));
  }

  /** Triggers a stop with a savepoint into `directory` (the server's default when undefined); resolves with the request id. */
  async triggerStop(jobId: string, directory: string | undefined, drain: boolean): Promise<string> {
    return requestId(await this.request("POST", `/v1/jobs/${jobId}/stop`, { targetDirectory: directory, drain }));
  }

  /**
   * Polls the savepoint operation `requestId` until it ends: resolves with the savepoint's location, or rejects
   * with {@link SavepointFailedError} (Flink's failure cause) or {@link RestUnreachableError} when the server went away.
   */
  async awaitSavepoint(jobId: string, requestId: string, pollMs = 100): Promise<string> {
    for (let wait = pollMs; ; wait = Math.min(250, wait * 2)) {
      const body = (await this.request("GET", `/v1/jobs/${jobId}/savepoints/${requestId}`)) as SavepointStatus;
      if (body.status?.id === "COMPLETED") {
        const op = body.operation ?? {};
        if (typeof op.location === "string") return op.location;
        throw new SavepointFailedError(jobId, failureCause(op["failure-cause"]));
      }
      await sleep(wait);
    }
  }

  /**
   * Waits until the job ended: resolves with its final state, or "ENDED" when the server went away (the
   * process of a `weir run` ends with its job); rejects after `timeoutMs` with the state it is still in.
   */
  async awaitEnd(jobId: string, timeoutMs: number, pollMs = 100): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let state: string | undefined;
      try {
        state = (await this.jobsOverview()).find((j) => j.jid === jobId)?.state;
      } catch (e) {
        if (e instanceof RestUnreachableError) return "ENDED";
        throw e;
      }
      if (state === undefined || TERMINAL_STATES.has(state)) return state ?? "ENDED";
      if (Date.now() > deadline) throw new Error(`job ${jobId} did not end within ${timeoutMs / 1000} s: still ${state}`);
      await sleep(pollMs);
    }
  }

  /**
   * Uploads a job bundle (`POST /jars/upload`, the raw bytes; `filename`: `<name>.mjs` or `<name>.sql`);
   * resolves with the name the job manager stored it under (`<sha256>.<ext>`), the jar id of {@link runJar}.
   */
  async uploadJar(code: Uint8Array, filename: string): Promise<string> {
    const body = (await this.request("POST", "/v1/jars/upload", code, { "content-type": "application/octet-stream", "x-weir-filename": filename })) as {
      filename?: unknown;
      status?: unknown;
    };
    if (typeof body?.filename !== "string") throw new Error(`the job manager answered the upload without a file name: ${JSON.stringify(body)}`);
    return body.filename.split("/").at(-1)!;
  }

  /** Runs an uploaded bundle (`POST /jars/:jarid/run`); resolves with the new job's id. */
  async runJar(jarId: string, request: JarRunRequest): Promise<string> {
    const body = (await this.request("POST", `/v1/jars/${encodeURIComponent(jarId)}/run`, request)) as { jobid?: unknown };
    if (typeof body?.jobid !== "string") throw new Error(`the job manager answered the run without a job id: ${JSON.stringify(body)}`);
    return body.jobid;
  }

  /** `GET /jobs/:jid`. */
  async jobDetails(jobId: string): Promise<JobDetails> {
    return (await this.request("GET", `/v1/jobs/${jobId}`)) as JobDetails;
  }

  /** `GET /jobs/:jid/metrics?get=…`: the values of the job metrics asked for, by name (a metric the job does not have is absent). */
  async jobMetrics(jobId: string, names: readonly string[]): Promise<Map<string, number>> {
    const values = (await this.request("GET", `/v1/jobs/${jobId}/metrics?get=${names.join(",")}`)) as { id: string; value: string }[];
    return new Map(values.map((v) => [v.id, Number(v.value)]));
  }

  /** `GET /jobs/:jid/checkpoints`; undefined when the job has no checkpoint statistics (404). */
  async jobCheckpoints(jobId: string): Promise<JobCheckpoints | undefined> {
    try {
      return (await this.request("GET", `/v1/jobs/${jobId}/checkpoints`)) as JobCheckpoints;
    } catch (e) {
      if (e instanceof RestRequestError && e.status === 404) return undefined;
      throw e;
    }
  }

  /** `GET /jobs/:jid/exceptions`. */
  async jobExceptions(jobId: string): Promise<JobExceptions> {
    return (await this.request("GET", `/v1/jobs/${jobId}/exceptions`)) as JobExceptions;
  }

  /** The job's configuration as the server has it (`GET /jobs/:jid/config`, its `user-config`). */
  async jobConfiguration(jobId: string): Promise<Record<string, string>> {
    const body = (await this.request("GET", `/v1/jobs/${jobId}/config`)) as { "execution-config"?: { "user-config"?: Record<string, string> } };
    return body?.["execution-config"]?.["user-config"] ?? {};
  }

  /** One request (a JSON body, or raw bytes with their own headers); the parsed JSON answer (undefined when empty). */
  private async request(method: string, path: string, body?: object | Uint8Array, rawHeaders?: Record<string, string>): Promise<unknown> {
    const url = this.url.replace(/\/$/, "") + path;
    const raw = body instanceof Uint8Array;
    const headers: Record<string, string> = { accept: "application/json", ...rawHeaders };
    if (body !== undefined && !raw) headers["content-type"] = "application/json";
    if (this.token !== undefined) headers["authorization"] = `Bearer ${this.token}`;
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body: body === undefined ? undefined : raw ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (e) {
      throw new RestUnreachableError(this.url, networkCause(e as Error & { cause?: { code?: string; message?: string } }));
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text === "" ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const errors = (json as { errors?: unknown } | undefined)?.errors;
      throw new RestRequestError(`${method} ${url}`, response.status, Array.isArray(errors) ? errors.map(String) : text ? [text.slice(0, 200)] : []);
    }
    return json;
  }
}

/** `GET /jobs/:jid/savepoints/:rid`. */
interface SavepointStatus {
  status?: { id?: string };
  operation?: { location?: string; "failure-cause"?: unknown };
}

function requestId(body: unknown): string {
  const id = (body as { "request-id"?: unknown } | undefined)?.["request-id"];
  if (typeof id !== "string") throw new Error(`the server answered without a request id: ${JSON.stringify(body)}`);
  return id;
}

/** Flink's SerializedThrowable (`class`, `stack-trace`) as one message: the stack trace's first line, else the class. */
function failureCause(cause: unknown): string {
  if (typeof cause === "string") return cause;
  const c = (cause ?? {}) as { class?: unknown; "stack-trace"?: unknown };
  const first = typeof c["stack-trace"] === "string" ? c["stack-trace"].split("\n")[0]!.trim() : "";
  return first || (typeof c.class === "string" ? c.class : "no cause given");
}

/** Why a fetch failed, in a few words: connection refused, timed out, unknown host. */
function networkCause(e: Error & { cause?: { code?: string; message?: string } }): string {
  if (e.name === "TimeoutError") return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  const code = e.cause?.code;
  if (code === "ECONNREFUSED") return "connection refused: no job serves there";
  if (code === "ENOTFOUND") return "unknown host";
  return e.cause?.message ?? e.message;
}
