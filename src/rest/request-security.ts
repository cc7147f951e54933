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
 * Throws a 403 `RestError` for a request from a browser page of another origin (an `Origin` that is not the
 * server's own) or, on a loopback server, for a `Host` that is not a loopback name (DNS rebinding). Runs first,
 * for every request, so that a refused preflight learns nothing.
 */
export function checkOrigin(request: RequestFacts, policy: SecurityPolicy): void {
  const host = header(request, "host");
  if (isLoopbackAddress(policy.host) && host !== undefined && !isLoopbackAddress(hostName(host)))
    throw new RestError(403, `requests for host '${host}' are refused: this server answers to loopback names only`);
  const origin = header(request, "origin");
  if (origin !== undefined && !sameOrigin(origin, host)) throw new RestError(403, `cross-origin requests are refused (origin '${origin}')`);
}

/**
 * Throws a 401 `RestError` when an API call lacks the token it needs: every call that changes something when
 * the server has a token, and every call when it binds a non-loopback address.
 */
export function checkToken(request: RequestFacts, policy: SecurityPolicy): void {
  if (policy.token === undefined) return;
  if (isLoopbackAddress(policy.host) && !MUTATING.has(request.method)) return;
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
  if (origin === "null") return false;
  try {
    return host !== undefined && new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}
