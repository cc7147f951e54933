/**
 * The REST flags of `weir run`: the address is printed when the job starts, `--no-web` serves nothing, and a
 * non-loopback `--web-address` without a token is a usage error before anything runs.
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli-process.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const tempDir = tempDirs("weir-rest-flags-");

describe("weir run --web-*", () => {
  it("prints the REST address when the job starts; --no-web serves nothing", async () => {
    const served = await runCli(["run", "test/fixtures/tiny-job.ts", "--checkpoint-dir", tempDir(), "--web-port", "0"]);
    expect(served.code, served.stderr).toBe(0);
    expect(served.stderr).toMatch(/^weir: REST API and dashboard at http:\/\/127\.0\.0\.1:\d+$/m);
    const quiet = await runCli(["run", "test/fixtures/tiny-job.ts", "--checkpoint-dir", tempDir(), "--no-web"]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toMatch(/REST API/);
  });

  it("another address without a token, a short token or a bad port: exit 2 before anything runs", async () => {
    const open = await runCli(["run", "test/fixtures/tiny-job.ts", "--web-address", "0.0.0.0"], 60_000, { WEIR_WEB_TOKEN: "" });
    expect(open.code).toBe(2);
    expect(open.stderr).toMatch(/^weir: error: rest\.address 0\.0\.0\.0 is reachable from other machines: give a token/);
    expect(open.stdout).toBe("");
    const short = await runCli(["run", "test/fixtures/tiny-job.ts", "--web-token", "abc"]);
    expect([short.code, short.stderr.split("\n")[0]]).toEqual([2, "weir: error: --web-token: invalid value 'abc' for 'rest.token': expected at least 8 characters"]);
    const port = await runCli(["run", "test/fixtures/tiny-job.ts", "--web-port", "70000"]);
    expect([port.code, port.stderr.split("\n")[0]]).toEqual([2, "weir: error: --web-port: invalid value '70000' for 'rest.port': expected a port from 0 to 65535"]);
  });
});
