/**
 * The REST server of a running `weir run` / `weir sql` process, in the shapes
 * of Flink's REST API (see docs/rest-api.md): `/v1/...` and unversioned paths,
 * JSON answers, `{"errors": [...]}` on failure, `/metrics` in Prometheus text,
 * and the dashboard's files at `/`. Binds 127.0.0.1 by default; another
 * address needs a token (see `checkOrigin` and `checkToken`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { JobClient } from "../deploy/job-client.ts";
import { checkpointRoutes } from "./handlers/checkpoint-handlers.ts";
import { clusterRoutes } from "./handlers/cluster-handlers.ts";
import { jobRoutes } from "./handlers/job-handlers.ts";
import { savepointRoutes } from "./handlers/savepoint-handlers.ts";
import { vertexRoutes } from "./handlers/vertex-handlers.ts";
import { ELECTION_ONGOING, FORWARDED_BY, forwardToLeader, type RestLeader } from "./leader-forwarding.ts";
import { checkOrigin, checkToken, isLoopbackAddress } from "./request-security.ts";
import type { ClusterTaskManagerView, RestContext } from "./rest-context.ts";
import { RestConfigError, RestError } from "./rest-error.ts";
import { Router, type RestResponse } from "./router.ts";
import { SavepointOperations } from "./savepoint-operations.ts";
import { staticFile } from "./static-files.ts";

/** What the server serves and where. */
export interface RestServerOptions {
  /** Address to bind (`rest.address`, default 127.0.0.1); any non-loopback address needs `token`. */
  readonly host: string;
  /** Port (`rest.port`, default 8081); when taken, the next free one. 0: any free port. */
  readonly port: number;
  /** `rest.token`: required on calls that change something, and on every call when `host` is not loopback. */
  readonly token?: string;
  /** Every job of this process, running or ended. */
  jobs(): readonly JobClient[];
  /** The configuration by Flink key (`/jobs/:jid/config`; `state.savepoints.dir` is the default savepoint directory). */
  configuration(): Readonly<Record<string, string>>;
  /** Folder of the dashboard's files, served at `/`. */
  readonly webRoot?: string;
  /** The metrics in Prometheus text, served at `/metrics`. */
  metricsText?(): string | Promise<string>;
  /** Adds routes beyond a job's (a cluster's job manager: `/jars`). */
  routes?(router: Router, context: RestContext): void;
  /** A cluster's task managers (a `weir jobmanager`), for `/overview` and `/taskmanagers`. */
  taskManagers?(): readonly ClusterTaskManagerView[];
  /**
   * A job manager under high availability: where API calls are answered now (asked for each). A standby forwards
   * them to the leader, or answers 503 while none leads; `/metrics` and the dashboard's files it serves itself.
   */
  leader?(): Promise<RestLeader>;
}

/** A started server. */
export interface RestServer {
  /** `http://127.0.0.1:8081`. */
  readonly url: string;
  readonly port: number;
  /**
   * Stops listening and ends open connections; first, for up to 5 s, lets clients read how the savepoints and
   * stops they triggered ended (a stop ends the job, and with it the process that serves its answer).
   */
  close(): Promise<void>;
}

/** Ports tried after a taken one. */
const PORT_TRIES = 100;
/** How long `close()` keeps serving for a client to read how its savepoint or stop ended. */
const CLOSE_GRACE_MS = 5_000;
/** Largest request body, in bytes. */
const MAX_BODY = 1 << 20;
/** Largest binary body (`application/octet-stream`: a job bundle uploaded to `/jars/upload`), as Flink's `rest.server.max-content-length`. */
const MAX_BINARY_BODY = 100 << 20;

/**
 * Starts the server; rejects with a `RestConfigError` for a non-loopback address without a token.
 *
 * @example
 * ```ts
 * const server = await startRestServer({ host: "127.0.0.1", port: 8081, jobs: () => [client], configuration: () => ({}) });
 * console.log(`REST API at ${server.url}`);
 * await server.close();
 * ```
 */
export async function startRestServer(o: RestServerOptions): Promise<RestServer> {
  if (!isLoopbackAddress(o.host) && !o.token)
    throw new RestConfigError(
      `the REST server would bind ${o.host}, which other machines reach: give it a token (rest.token or --web-token) that every call must carry, or bind 127.0.0.1`,
    );
  if (o.token !== undefined && o.token.length < 8) throw new RestConfigError("the REST token is too short: use at least 8 characters");
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) throw new RestConfigError(`rest.port must be a port number (0 to 65535), got ${o.port}`);
  const context: RestContext = {
    jobs: o.jobs,
    configuration: o.configuration,
    operations: new SavepointOperations(),
    now: () => Date.now(),
    ...(o.taskManagers ? { taskManagers: o.taskManagers } : {}),
  };
  const router = new Router();
  clusterRoutes(router, context);
  jobRoutes(router, context);
  checkpointRoutes(router, context);
  savepointRoutes(router, context);
  vertexRoutes(router, context);
  o.routes?.(router, context);
  let url = "";
  const server = createServer((req, res) => {
    handle(req, res, router, o, url).catch((e: unknown) => send(res, errorResponse(e)));
  });
  const port = await listen(server, o.host, o.port);
  const host = o.host.includes(":") ? `[${o.host}]` : o.host;
  url = `http://${host}:${port}`;
  return {
    url,
    port,
    close: async () => {
      const deadline = Date.now() + CLOSE_GRACE_MS;
      while (context.operations.untold() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

async function listen(server: Server, host: string, port: number): Promise<number> {
  for (let tries = 0; ; tries++) {
    const p = port === 0 ? 0 : port + tries;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(p, host, () => {
          server.off("error", reject);
          resolve();
        });
      });
      return (server.address() as AddressInfo).port;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "EADDRINUSE" || port === 0 || tries + 1 >= PORT_TRIES || p >= 65535)
        throw new RestConfigError(`the REST server cannot listen on ${host}:${p}: ${(e as Error).message}`);
    }
  }
}

async function handle(req: IncomingMessage, res: ServerResponse, router: Router, o: RestServerOptions, url: string): Promise<void> {
  const method = req.method ?? "GET";
  const target = new URL(req.url ?? "/", "http://localhost");
  const rawPath = target.pathname;
  const path = rawPath === "/v1" ? "/" : rawPath.startsWith("/v1/") ? rawPath.slice(3) : rawPath;
  const facts = { method, headers: req.headers };
  const policy = { host: o.host, token: o.token };
  checkOrigin(facts, policy);
  const route = router.match(method, path);
  // the dashboard's files need no token (the page then calls the API with one)
  if (route !== undefined || path === "/metrics") checkToken(facts, policy);
  if (route && o.leader) {
    const leader = await answeringLeader(o.leader, req.headers, url);
    if (leader !== undefined) {
      const failure = await forwardToLeader(req, res, leader, url);
      if (failure) throw new RestError(failure.status, failure.message);
      return;
    }
  }
  if (route) {
    const body = await readBody(req);
    return send(res, await route.handler({ method, path, params: route.params, query: target.searchParams, body, headers: req.headers }), method === "HEAD");
  }
  if (path === "/metrics" && o.metricsText) {
    if (method !== "GET" && method !== "HEAD") throw new RestError(405, `${method} is not allowed on /metrics (allowed: GET)`, { allow: "GET" });
    return send(res, { status: 200, body: await o.metricsText(), contentType: "text/plain; version=0.0.4; charset=utf-8" }, method === "HEAD");
  }
  if ((method === "GET" || method === "HEAD") && o.webRoot !== undefined) {
    const file = await staticFile(o.webRoot, rawPath);
    if (file) return send(res, { status: 200, body: file.body, contentType: file.contentType }, method === "HEAD");
  }
  throw new RestError(404, `Not found: ${rawPath}`);
}

/**
 * The leader's REST address to forward an API call to; undefined when this server answers it (it leads).
 * Throws a 503 `RestError` while no job manager leads, and for a call forwarded here that this server would
 * forward again (the leadership is changing: the client asks again).
 */
async function answeringLeader(leader: () => Promise<RestLeader>, headers: IncomingMessage["headers"], self: string): Promise<string | undefined> {
  let now: RestLeader;
  try {
    now = await leader();
  } catch (e) {
    throw new RestError(503, `Service temporarily unavailable: the leading job manager cannot be looked up (${e instanceof Error ? e.message : String(e)}). Please refresh.`);
  }
  if (now === "self") return undefined;
  if (now === "electing" || now.forwardTo === self) throw new RestError(503, ELECTION_ONGOING);
  const by = headers[FORWARDED_BY];
  if (by !== undefined)
    throw new RestError(503, `forwarded by ${String(by)} to this job manager, which does not lead (the leader is at ${now.forwardTo}): the leadership is changing, try again`);
  return now.forwardTo;
}

/** The request's JSON body, a Buffer for `application/octet-stream`, or undefined when it has none. */
async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  const type = req.headers["content-type"] ?? "";
  const binary = /^application\/octet-stream\b/i.test(type);
  const max = binary ? MAX_BINARY_BODY : MAX_BODY;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw new RestError(413, `the request body is larger than ${max} bytes`);
    chunks.push(chunk);
  }
  if (binary) return Buffer.concat(chunks);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return undefined;
  if (!/^application\/json\b/i.test(type)) throw new RestError(415, `the request body must be JSON (Content-Type: application/json), got '${type}'`);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new RestError(400, `the request body is not valid JSON: ${(e as Error).message}`);
  }
}

function errorResponse(e: unknown): RestResponse & { headers?: Readonly<Record<string, string>> } {
  if (e instanceof RestError) return { status: e.status, body: { errors: [e.message] }, headers: e.headers };
  return { status: 500, body: { errors: [`internal error: ${e instanceof Error ? e.message : String(e)}`] } };
}

function send(res: ServerResponse, r: RestResponse & { headers?: Readonly<Record<string, string>> }, head = false): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = r.contentType === undefined ? JSON.stringify(r.body) : (r.body as string | Buffer);
  res.writeHead(r.status, {
    "content-type": r.contentType ?? "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    "x-content-type-options": "nosniff",
    "cache-control": "no-store",
    ...r.headers,
  });
  res.end(head ? undefined : body);
}
