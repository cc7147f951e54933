/**
 * Matches a request's method and path to a handler. Paths are patterns of
 * literal segments and `:name` parameters (`/jobs/:jid/vertices/:vid`); a
 * path served under another method is a 405 with the methods that are.
 */
import { RestError } from "./rest-error.ts";

/** What a handler gets: the path parameters, the query, and the parsed JSON body (undefined when empty). */
export interface RestRequest {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: unknown;
  /** The request's headers (lower-case names). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** A handler's answer: a status and a JSON body, or plain text with its content type. */
export interface RestResponse {
  readonly status: number;
  readonly body: unknown;
  /** Set for a body that is not JSON: the body is then a string sent as is. */
  readonly contentType?: string;
}

export type RestHandler = (request: RestRequest) => RestResponse | Promise<RestResponse>;

/** `ok(body)`: a 200 JSON answer. */
export const ok = (body: unknown): RestResponse => ({ status: 200, body });

interface Route {
  readonly method: string;
  readonly segments: readonly string[];
  readonly handler: RestHandler;
}

/**
 * @example
 * ```ts
 * const router = new Router().get("/jobs/:jid", ({ params }) => ok(details(params.jid)));
 * const found = router.match("GET", "/jobs/0123…"); // { handler, params: { jid: "0123…" } }
 * ```
 */
export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: RestHandler): this {
    this.routes.push({ method, segments: split(pattern), handler });
    return this;
  }

  get(pattern: string, handler: RestHandler): this {
    return this.add("GET", pattern, handler);
  }

  post(pattern: string, handler: RestHandler): this {
    return this.add("POST", pattern, handler);
  }

  patch(pattern: string, handler: RestHandler): this {
    return this.add("PATCH", pattern, handler);
  }

  /**
   * The handler of `method` at `path` and the path's parameters; undefined when no route has this path;
   * throws a 405 `RestError` naming the allowed methods when routes have the path but not the method.
   */
  match(method: string, path: string): { handler: RestHandler; params: Record<string, string> } | undefined {
    const segments = split(path);
    const matching = this.routes.flatMap((route) => {
      const params = matchSegments(route.segments, segments);
      return params ? [{ route, params, specificity: specificity(route.segments) }] : [];
    });
    if (matching.length === 0) return undefined;
    // a literal segment wins over a parameter (`/jobs/overview` over `/jobs/:jid`)
    const best = matching.reduce((a, b) => (b.specificity > a.specificity ? b : a)).specificity;
    const candidates = matching.filter((m) => m.specificity === best);
    const found = candidates.find((m) => m.route.method === method) ?? (method === "HEAD" ? candidates.find((m) => m.route.method === "GET") : undefined);
    if (found) return { handler: found.route.handler, params: found.params };
    const allowed = candidates.map((m) => m.route.method).join(", ");
    throw new RestError(405, `${method} is not allowed on ${path} (allowed: ${allowed})`, { allow: allowed });
  }
}

/** `1` for each literal segment, `0` for each parameter: a greater string is a more specific pattern. */
function specificity(pattern: readonly string[]): string {
  return pattern.map((p) => (p.startsWith(":") ? "0" : "1")).join("");
}

function split(path: string): string[] {
  return path.split("/").filter((s) => s !== "");
}

function matchSegments(pattern: readonly string[], path: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== path.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    if (p.startsWith(":")) params[p.slice(1)] = path[i]!;
    else if (p !== path[i]) return undefined;
  }
  return params;
}
