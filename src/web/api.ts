/**
 * The dashboard's only backend: the REST API of the job's server (Flink's
 * shapes, under `/v1` beside the page), with the server's token when it asks
 * for one (`Authorization: Bearer …`, kept for the browser tab).
 *
 * @example
 * ```ts
 * const job = await getJson<JobDetails>(`jobs/${jid}`);
 * const { "request-id": rid } = await sendJson<TriggerResponse>("POST", `jobs/${jid}/savepoints`, { "cancel-job": false });
 * ```
 */

const TOKEN_KEY = "weir.rest.token";

/** A REST call that failed: the server's status (0 when it could not be reached) and its error text. */
export class RestCallError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    detail: string,
  ) {
    super(status === 0 ? `${method} /v1/${path}: the job's server cannot be reached (${detail})` : `${method} /v1/${path}: ${status} ${detail}`);
    this.name = "RestCallError";
  }

}

type Listener = () => void;
const listeners = new Set<Listener>();
let tokenRequired = false;
let reachable = true;

/** Calls `listener` whenever whether a token is required or whether the server is reachable changes; returns the unsubscription. */
export function onConnectionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the server answered a call with 401: the page then shows its token field. */
export function isTokenRequired(): boolean {
  return tokenRequired;
}

/** Whether the last call reached the server (false after the job's process ended). */
export function isReachable(): boolean {
  return reachable;
}

/** The token sent with every call ("" for none). */
export function currentToken(): string {
  return sessionStorage.getItem(TOKEN_KEY) ?? "";
}

/** Sets the token sent with every call from now on. */
export function setToken(token: string): void {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
  notify();
}

function notify(): void {
  for (const l of listeners) l();
}

function setState(required: boolean, up: boolean): void {
  if (required === tokenRequired && up === reachable) return;
  tokenRequired = required;
  reachable = up;
  notify();
}

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json" };
  const token = currentToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(`v1/${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store" });
  } catch (e) {
    setState(tokenRequired, false);
    throw new RestCallError(method, path, 0, e instanceof Error ? e.message : String(e));
  }
  // once asked for, the token field stays (to change a token that works)
  setState(tokenRequired || response.status === 401, true);
  if (!response.ok) throw new RestCallError(method, path, response.status, await errorText(response));
  return response;
}

/** Flink's error body `{"errors": [...]}`, else the body's text. */
async function errorText(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const parsed = JSON.parse(text) as { errors?: unknown };
    if (Array.isArray(parsed.errors)) return parsed.errors.map(String).join("; ");
  } catch {
    // not JSON: the text as it is
  }
  return text || response.statusText;
}

/** `GET /v1/<path>` as JSON. */
export async function getJson<T>(path: string): Promise<T> {
  return (await (await call("GET", path)).json()) as T;
}

/** `method /v1/<path>` with a JSON body; the answer as JSON, or undefined when it has none (202 of a cancel). */
export async function sendJson<T>(method: "POST" | "PATCH", path: string, body?: unknown): Promise<T | undefined> {
  const text = await (await call(method, path, body)).text();
  return text ? (JSON.parse(text) as T) : undefined;
}
