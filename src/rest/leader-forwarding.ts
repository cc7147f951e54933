/**
 * A standby job manager's REST API answers through the leader (as Flink's
 * every job manager does): an API request is forwarded to the leader's REST
 * address — method, path, query, body (a job bundle's bytes too) and the
 * headers that matter — and the leader's answer streams back (status,
 * content type, body). A forwarded request carries `x-weir-forwarded-by`; a
 * job manager that gets one but does not lead answers 503 instead of
 * forwarding again, so a request never goes round in circles.
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";

/** Names the job manager that forwarded a request (its REST address). */
export const FORWARDED_BY = "x-weir-forwarded-by";

/** Flink's words when no job manager leads (`LeaderRetrievalHandler`). */
export const ELECTION_ONGOING = "Service temporarily unavailable due to an ongoing leader election. Please refresh.";

/** How long a forwarded request may go without a byte from the leader before the standby gives up. */
export const FORWARD_IDLE_TIMEOUT_MS = 60_000;

/**
 * Headers of one hop only, and those the leader must not see from the standby's client: `host` names the
 * standby, and `origin` was checked by the standby (the page came from it; the leader would take it for another
 * origin's).
 */
const NOT_FORWARDED = new Set(["host", "origin", "connection", "keep-alive", "proxy-connection", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade"]);

/** Headers of the leader's answer not passed on (one hop only). */
const NOT_RETURNED = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "trailer", "upgrade"]);

/** Where a job manager's REST API answers from now: itself (it leads, or no high availability), none (an election is on), or the leader. */
export type RestLeader = "self" | "electing" | { readonly forwardTo: string };

/** Error answers of a forward; the body is Flink's `{"errors": [...]}`. */
export interface ForwardFailure {
  readonly status: number;
  readonly message: string;
}

/**
 * Forwards `req` to the leader at `leader` (`http://host:port`) on behalf of the job manager at `self`, and
 * streams the leader's answer to `res`. Resolves when the answer is sent; when the leader cannot be reached or
 * goes quiet for `idleTimeoutMs`, resolves with the failure to answer (502, 504) — naming the leader and the
 * error — unless part of the answer was sent already (the connection is then cut).
 *
 * @example
 * ```ts
 * const failure = await forwardToLeader(req, res, "http://10.0.0.1:8081", "http://10.0.0.2:8081");
 * if (failure) sendError(res, failure.status, failure.message);
 * ```
 */
export function forwardToLeader(
  req: IncomingMessage,
  res: ServerResponse,
  leader: string,
  self: string,
  idleTimeoutMs = FORWARD_IDLE_TIMEOUT_MS,
): Promise<ForwardFailure | undefined> {
  const target = new URL(req.url ?? "/", leader);
  const headers = forwardedHeaders(req.headers, self);
  return new Promise((resolve) => {
    let settled = false;
    const fail = (status: number, message: string) => {
      if (settled) return;
      settled = true;
      req.unpipe();
      if (!res.headersSent) return resolve({ status, message });
      res.destroy();
      resolve(undefined);
    };
    const upstream = httpRequest(target, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, returnedHeaders(answer.headers));
      answer.pipe(res);
      answer.on("error", (e) => fail(502, `the answer of the leading job manager at ${leader} broke off: ${e.message}`));
      answer.on("end", () => {
        settled = true;
        resolve(undefined);
      });
    });
    upstream.setTimeout(idleTimeoutMs, () => {
      fail(504, `the leading job manager at ${leader} did not answer within ${idleTimeoutMs / 1000} s`);
      upstream.destroy();
    });
    upstream.on("error", (e) => fail(502, `the leading job manager at ${leader} could not be reached: ${e.message}`));
    // the client went away before its answer was complete: so does the forward
    res.on("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
}

function forwardedHeaders(incoming: IncomingHttpHeaders, self: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(incoming)) if (value !== undefined && !NOT_FORWARDED.has(name)) out[name] = value;
  out[FORWARDED_BY] = self;
  return out;
}

function returnedHeaders(answer: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(answer)) if (value !== undefined && !NOT_RETURNED.has(name)) out[name] = value;
  return out;
}
