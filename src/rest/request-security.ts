/**
 * Who may call the REST server. It binds a loopback address by default; any
 * other address needs a token, which every call must then carry
 * (`Authorization: Bearer <token>`). With a token on a loopback address, only
 * calls that change something (POST, PATCH, PUT, DELETE) need it. Whatever the
 * address, a browser page of another origin gets nothing: a request whose
 * `Origin` is not the server's own is refused, no CORS header is ever sent,
 * and on a loopback address a `Host` that is not a loopback name is refused
 * (a DNS-rebinding page cannot read the API either).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import { RestError } from "./rest-error.ts";

/** Methods that change something: they need the token whenever one is set. */
const MUTATING = new Set(["POST", "PATCH", "PUT", "DELETE"]);

/**
 * True for an address only this machine reaches: `localhost`, `127.x.x.x`, `::1`.
 *
 * @example
 * ```ts
 * isLoopbackAddress("127.0.0.1"); // true
 * isLoopbackAddress("0.0.0.0"); // false
 * ```
 */
export function isLoopbackAddress(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h === "::1" || h === "::ffff:127.0.0.1") return true;
  return isIP(h) === 4 && h.startsWith("127.");
}

/** Equal strings, compared in constant time (hashes of equal length). */
export function tokensEqual(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The request facts the checks read. */
export interface RequestFacts {
  readonly method: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** The server's side of the checks. */
export interface SecurityPolicy {
  /** The address the server binds. */
  readonly host: string;
  readonly token?: string;
}

/**
 * Throws a `RestError` (401 or 403) when the request may not be served: a foreign `Origin`, a foreign `Host`
 * on a loopback server, or a missing or wrong token where one is needed. `api` is false for the static files
 * of the dashboard, which need no token (the page then asks the API with one).
 */
export function checkRequest(request: RequestFacts, policy: SecurityPolicy, api: boolean): void {
  const host = header(request, "host");
  const loopback = isLoopbackAddress(policy.host);
  if (loopback && host !== undefined && !isLoopbackAddress(hostName(host)))
    throw new RestError(403, `requests for host '${host}' are refused: this server answers to loopback names only`);
  const origin = header(request, "origin");
  if (origin !== undefined && origin !== "null" && !sameOrigin(origin, host))
    throw new RestError(403, `cross-origin requests are refused (origin '${origin}')`);
  if (origin === "null") throw new RestError(403, "cross-origin requests are refused (origin 'null')");
  if (!api || policy.token === undefined) return;
  if (loopback && !MUTATING.has(request.method)) return;
  const auth = header(request, "authorization");
  const m = auth === undefined ? null : /^Bearer\s+(.+)$/i.exec(auth.trim());
  if (!m) throw new RestError(401, "this call needs the server's token: send the header 'Authorization: Bearer <token>'", { "www-authenticate": "Bearer" });
  if (!tokensEqual(m[1]!, policy.token)) throw new RestError(401, "wrong token", { "www-authenticate": 'Bearer error="invalid_token"' });
}

function header(request: RequestFacts, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The host name of a `Host` header value (`127.0.0.1:8081` → `127.0.0.1`, `[::1]:8081` → `::1`). */
function hostName(host: string): string {
  if (host.startsWith("[")) return host.slice(1, host.indexOf("]"));
  const colon = host.lastIndexOf(":");
  return colon > 0 && host.indexOf(":") === colon ? host.slice(0, colon) : host;
}

function sameOrigin(origin: string, host: string | undefined): boolean {
  try {
    return host !== undefined && new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}
