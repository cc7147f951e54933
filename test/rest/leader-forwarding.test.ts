/**
 * A standby job manager's REST server answers API calls through the leader (two real REST servers in this
 * process, each with job submission on a bundle store of its own): what the standby answers is the leader's
 * answer (status, content type, JSON, a bundle's bytes stored by the leader, the token checked), `/metrics` and
 * the dashboard's files are the standby's own; while no job manager leads it answers 503 as Flink does; a leader
 * it cannot reach is a 502 naming the leader; a forwarded call is never forwarded again.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JarStore } from "../../src/cluster/jar-store.ts";
import { jarRoutes } from "../../src/rest/handlers/jar-handlers.ts";
import { ELECTION_ONGOING, FORWARDED_BY, type RestLeader } from "../../src/rest/leader-forwarding.ts";
import { startRestServer, type RestServer } from "../../src/rest/rest-server.ts";
import { call } from "../support/rest-calls.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const tempDir = tempDirs("weir-rest-forwarding-");
const TOKEN = "s3cret-token-0123";

/** A job manager's REST server: job submission on a bundle store in `dir`, `/metrics` saying whose it is. */
function jobManagerRest(dir: string, name: string, leader?: () => Promise<RestLeader>): Promise<RestServer> {
  const jars = new JarStore(join(dir, "jars"));
  const web = join(dir, "web");
  mkdirSync(web, { recursive: true });
  writeFileSync(join(web, "index.html"), `<title>${name}</title>`);
  return startRestServer({
    host: "127.0.0.1",
    port: 0,
    token: TOKEN,
    jobs: () => [],
    configuration: () => ({}),
    webRoot: web,
    metricsText: () => `# ${name}\n`,
    routes: (router) =>
      jarRoutes(router, {
        address: name,
        upload: (bytes, filename) => jars.upload(bytes, filename),
        list: () => jars.list(),
        run: async (jarId) => `${name}:${jarId}`,
      }),
    ...(leader && { leader }),
  });
}

describe("a standby's REST API", () => {
  let leader: RestServer;
  let standby: RestServer;
  /** Where the standby's calls go now. */
  let route: RestLeader = "electing";

  beforeAll(async () => {
    leader = await jobManagerRest(tempDir(), "leader", async () => "self");
    standby = await jobManagerRest(tempDir(), "standby", async () => route);
  });
  afterAll(async () => {
    await standby?.close();
    await leader?.close();
  });

  it("answers through the leader: a bundle's bytes reach it, its JSON, status and errors come back; /metrics and the dashboard are its own", async () => {
    route = { forwardTo: leader.url };
    const bytes = randomBytes(2 << 20);
    const upload = await fetch(`${standby.url}/v1/jars/upload`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream", "x-weir-filename": "job.mjs", authorization: `Bearer ${TOKEN}` },
      body: bytes,
    });
    expect(upload.status).toBe(200);
    expect(upload.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const { filename } = (await upload.json()) as { filename: string };
    // stored by the leader, with the name it was uploaded with
    const direct = await call(leader.url, "GET", "/jars");
    expect(direct.json).toEqual({ address: "leader", files: [expect.objectContaining({ id: filename, name: "job.mjs" })] });
    expect((await call(standby.url, "GET", "/v1/jars")).json).toEqual(direct.json);
    const run = await call(standby.url, "POST", `/jars/${filename}/run?entry-class=x`, { body: { programArgsList: ["a"] }, token: TOKEN });
    expect(run.json).toEqual({ jobid: `leader:${filename}` });
    // the leader's errors, as it answers them
    for (const [method, path] of [["GET", `/jobs/${"0".repeat(32)}`], ["PATCH", "/jobs/overview"], ["GET", "/jobs/nope"]] as const) {
      const a = await call(standby.url, method, path, { token: TOKEN });
      const b = await call(leader.url, method, path, { token: TOKEN });
      expect([a.status, a.json, a.headers["allow"]]).toEqual([b.status, b.json, b.headers["allow"]]);
    }
    expect((await call(standby.url, "GET", "/metrics")).text).toBe("# standby\n");
    expect((await call(standby.url, "GET", "/")).text).toBe("<title>standby</title>");
  });

  it("checks the token itself and passes it on to the leader", async () => {
    route = { forwardTo: leader.url };
    expect((await call(standby.url, "POST", "/jars/x.mjs/run", { body: {} })).status).toBe(401);
    // the standby's token is right, the leader wants another: the leader's refusal comes back
    const other = await startRestServer({ host: "127.0.0.1", port: 0, token: "another-token-42", jobs: () => [], configuration: () => ({}), leader: async () => "self" });
    try {
      route = { forwardTo: other.url };
      const refused = await call(standby.url, "PATCH", `/jobs/${"0".repeat(32)}?mode=cancel`, { token: TOKEN });
      expect([refused.status, refused.json]).toEqual([401, { errors: ["wrong token"] }]);
    } finally {
      await other.close();
    }
  });

  it("while no job manager leads: 503 with Flink's words; the dashboard's files still load", async () => {
    route = "electing";
    const a = await call(standby.url, "GET", "/v1/jobs/overview");
    expect([a.status, a.json]).toEqual([503, { errors: [ELECTION_ONGOING] }]);
    expect((await call(standby.url, "GET", "/")).status).toBe(200);
  });

  it("a leader it cannot reach: 502 naming the leader's address and the error", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    route = { forwardTo: `http://127.0.0.1:${port}` };
    const a = await call(standby.url, "GET", "/jobs/overview");
    expect(a.status).toBe(502);
    expect((a.json as { errors: string[] }).errors[0]).toMatch(new RegExp(`^the leading job manager at http://127\\.0\\.0\\.1:${port} could not be reached: .*ECONNREFUSED`));
  });

  it("never forwards a forwarded call again, nor to itself: 503", async () => {
    route = { forwardTo: leader.url };
    const again = await call(standby.url, "GET", "/jobs/overview", { headers: { [FORWARDED_BY]: "http://127.0.0.1:1" } });
    expect(again.status).toBe(503);
    expect((again.json as { errors: string[] }).errors[0]).toMatch(/^forwarded by http:\/\/127\.0\.0\.1:1 to this job manager, which does not lead/);
    route = { forwardTo: standby.url };
    expect((await call(standby.url, "GET", "/jobs/overview")).json).toEqual({ errors: [ELECTION_ONGOING] });
    // a leader answers a forwarded call itself
    expect((await call(leader.url, "GET", "/jobs/overview", { headers: { [FORWARDED_BY]: standby.url } })).json).toEqual({ jobs: [] });
  });
});
