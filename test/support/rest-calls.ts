/**
 * Calls to a REST server from tests: raw HTTP (node:http, so paths such as
 * `/../x` are sent as written and any header can be set), JSON decoded, and
 * waits for a job's server and for conditions on its answers.
 */
import { request } from "node:http";

/** An answer: status, headers (lower-case names), body text and, when it parses, its JSON. */
export interface RestAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  readonly json: unknown;
}

/** Options of one call. */
export interface CallOptions {
  readonly body?: unknown;
  readonly token?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * `method path` on the server at `base` (`http://127.0.0.1:8081`).
 *
 * @example
 * ```ts
 * const { status, json } = await call(url, "POST", `/jobs/${jid}/savepoints`, { body: { "target-directory": dir } });
 * ```
 */
export function call(base: string, method: string, path: string, o: CallOptions = {}): Promise<RestAnswer> {
  const url = new URL(base);
  const body = o.body === undefined ? undefined : typeof o.body === "string" ? o.body : JSON.stringify(o.body);
  const headers: Record<string, string> = {
    ...(body === undefined ? {} : { "content-type": "application/json" }),
    ...(o.token === undefined ? {} : { authorization: `Bearer ${o.token}` }),
    ...o.headers,
  };
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (s: string) => (text += s));
      res.on("end", () => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** `GET path`, which must answer 200; its JSON. */
export async function getJson<T = Record<string, unknown>>(base: string, path: string, token?: string): Promise<T> {
  const answer = await call(base, "GET", path, { token });
  if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${answer.text}`);
  return answer.json as T;
}

/** The REST address a `weir run` printed on standard error (`REST API and dashboard at http://…`), once it did. */
export function printedUrl(stderr: string): string | undefined {
  return /REST API and dashboard at (http:\/\/\S+)/.exec(stderr)?.[1];
}

/** Resolves with what `probe` returns once it is not undefined (probe errors count as not yet); rejects after `timeoutMs`. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ""}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
