/**
 * The REST server's and the Prometheus reporter's settings are configuration keys: `-D rest.port` is
 * `--web-port`, a non-loopback `rest.address` needs a token before anything runs, `weir.rest.enabled=false`
 * serves nothing, a SQL script's SET applies, and `metrics.reporters=prom` serves the running job's metrics on
 * its own port until the job ends.
 */
import { describe, expect, it } from "vitest";
import { request } from "node:http";
import { runCli, startCli } from "./support/cli-process.ts";
import { freePort } from "./support/kafka-broker.ts";
import { parsePrometheusText } from "./support/prometheus-text.ts";
import { eventually, printedUrl } from "./support/rest-calls.ts";
import { stopProcess } from "./support/stop-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const tempDir = tempDirs("weir-rest-config-");
const TINY = "test/fixtures/tiny-job.ts";

/** GET `url`: the status and body; rejects when nothing listens. */
function get(url: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (s: string) => (text += s));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    })
      .on("error", reject)
      .end();
  });
}

/** The largest numRecordsOut of a task in the Prometheus text (rest-job's first task, "Source: numbers -> pair", sends to the second). */
function taskRecordsOut(text: string): number | undefined {
  const samples = parsePrometheusText(text).filter((s) => s.name === "flink_taskmanager_job_task_numRecordsOut");
  return samples.length === 0 ? undefined : Math.max(...samples.map((s) => s.value));
}

describe("weir run: the REST server and metric reporters from the configuration", () => {
  it("-D rest.port and --web-port give the same address; SET 'rest.port' in a SQL script applies", async () => {
    const port = await freePort();
    const byKey = await runCli(["run", TINY, "--checkpoint-dir", tempDir(), "-D", `rest.port=${port}`]);
    expect(byKey.code, byKey.stderr).toBe(0);
    expect(printedUrl(byKey.stderr)).toBe(`http://127.0.0.1:${port}`);
    const byFlag = await runCli(["run", TINY, "--checkpoint-dir", tempDir(), "--web-port", String(port)]);
    expect(byFlag.code, byFlag.stderr).toBe(0);
    expect(printedUrl(byFlag.stderr)).toBe(`http://127.0.0.1:${port}`);
    const sql = await runCli([
      "sql",
      "--checkpoint-dir",
      tempDir(),
      "-e",
      `SET 'rest.port' = '${port}';
       CREATE TABLE o (k INT) WITH ('connector' = 'datagen', 'number-of-rows' = '20');
       CREATE TABLE t (k INT) WITH ('connector' = 'blackhole');
       INSERT INTO t SELECT k FROM o;`,
    ]);
    expect(sql.code, sql.stderr).toBe(0);
    expect(printedUrl(sql.stderr)).toBe(`http://127.0.0.1:${port}`);
  });

  it("-D rest.address=0.0.0.0 without a token: exit 2 before the job runs; a short token, a bad port: exit 2", async () => {
    const open = await runCli(["run", TINY, "--checkpoint-dir", tempDir(), "-D", "rest.address=0.0.0.0"], 60_000, { WEIR_WEB_TOKEN: "" });
    expect(open.code).toBe(2);
    expect(open.stderr.split("\n")[0]).toBe(
      "weir: error: rest.address 0.0.0.0 is reachable from other machines: give a token that every call must carry (rest.token: --web-token T, -D rest.token=T or WEIR_WEB_TOKEN), or bind 127.0.0.1",
    );
    expect(open.stdout).toBe("");
    const bind = await runCli(["run", TINY, "-D", "rest.bind-address=0.0.0.0"], 60_000, { WEIR_WEB_TOKEN: "" });
    expect([bind.code, bind.stderr.split("\n")[0]]).toEqual([2, expect.stringMatching(/^weir: error: rest\.bind-address 0\.0\.0\.0 is reachable/)]);
    const short = await runCli(["run", TINY, "-D", "rest.token=abc"]);
    expect([short.code, short.stderr.split("\n")[0]]).toEqual([2, "weir: error: -D rest.token=abc: invalid value 'abc' for 'rest.token': expected at least 8 characters"]);
    const range = await runCli(["run", TINY, "-D", "metrics.reporter.prom.port=9260-9250"]);
    expect([range.code, range.stderr.split("\n")[0]]).toEqual([
      2,
      "weir: error: -D metrics.reporter.prom.port=9260-9250: invalid value '9260-9250' for 'metrics.reporter.prom.port': expected a port from 0 to 65535 or a range such as 9250-9260",
    ]);
    const reporter = await runCli(["run", TINY, "-D", "metrics.reporters=jmx"]);
    expect([reporter.code, reporter.stderr.split("\n")[0]]).toEqual([2, "weir: error: metrics.reporters: unknown reporter 'jmx' (Weir has: prom)"]);
  });

  it("weir.rest.enabled=false (or --no-web) prints no address", async () => {
    for (const off of [["-D", "weir.rest.enabled=false"], ["--no-web"]]) {
      const quiet = await runCli(["run", TINY, "--checkpoint-dir", tempDir(), ...off]);
      expect(quiet.code, quiet.stderr).toBe(0);
      expect(quiet.stderr).not.toMatch(/REST API/);
    }
  });

  it("metrics.reporters=prom serves the running job's Prometheus text on its port, the same as the REST /metrics, and stops at the end", async () => {
    const port = await freePort();
    const run = startCli([
      "run",
      "test/fixtures/rest-job.ts",
      "--checkpoint-dir",
      tempDir(),
      "--savepoint-dir",
      tempDir(),
      "--web-port",
      "0",
      "-D",
      "metrics.reporters=prom",
      "-D",
      `metrics.reporter.prom.port=${port}`,
      "-D",
      "rest.token=wiring-test-token",
    ]);
    try {
      const url = await eventually("the Prometheus address on stderr", async () => /Prometheus metrics at (http:\/\/\S+)/.exec(run.stderr())?.[1], 120_000);
      expect(url).toBe(`http://127.0.0.1:${port}/metrics`);
      const first = await eventually("records out of a task", async () => {
        const n = taskRecordsOut((await get(url)).text);
        return n !== undefined && n > 0 ? n : undefined;
      }, 120_000);
      await eventually("more records out of a task", async () => ((taskRecordsOut((await get(url)).text) ?? 0) > first ? true : undefined), 120_000);
      const rest = printedUrl(run.stderr())!;
      const fromRest = await get(`${rest}/metrics`);
      expect(fromRest.status).toBe(200);
      expect(taskRecordsOut(fromRest.text)).toBeGreaterThan(0);
      // the token is a sensitive value: the job's configuration shows it hidden, as Flink does
      const jid = parsePrometheusText(fromRest.text).find((s) => s.labels["job_id"])!.labels["job_id"]!;
      const config = JSON.parse((await get(`${rest}/jobs/${jid}/config`)).text) as { "execution-config": { "user-config": Record<string, string> } };
      expect(config["execution-config"]["user-config"]["rest.token"]).toBe("******");
      run.child.kill("SIGINT");
      const end = await run.done;
      expect(end.code, end.stderr).toBe(0);
      await expect(get(url)).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await stopProcess(run.child, "SIGKILL");
    }
  }, 240_000);
});
