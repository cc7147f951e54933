/**
 * The three-host walk-through of docs/deployment.md on one machine: a real S3-compatible server
 * (test/support/s3-server.ts), the job manager started with the walk-through's config.yaml, read through WEIR_CONF_DIR (its addresses
 * made 127.0.0.1, its ports free ones, its S3 endpoint the test's server) turned into `-D` flags, and two task
 * managers started with the walk-through's flags and the S3 credentials only in their environment
 * (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`), as the doc says. A job submitted with `weir run -m` writes
 * exactly its output, and its checkpoints land in the bucket under `checkpoints/<job name>/`: the job manager's
 * S3 keys reach the task managers' workers with the job, and the credentials from the environment sign.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli, startCli, waitFor, type RunningCli } from "./support/cli-process.ts";
import { committedLines, expectedKeyedCounts, processDir } from "./support/cluster-processes.ts";
import { startS3Server, type S3Server } from "./support/s3-server.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const JOB = fileURLToPath(new URL("./fixtures/cluster-keyed-count-job.mjs", import.meta.url));
const DOC = readFileSync(join(ROOT, "docs/deployment.md"), "utf8");
const tempDir = tempDirs("weir-deployment-");
const DEADLINE_MS = 240_000;
const started: RunningCli[] = [];
let s3: S3Server | undefined;

beforeAll(() => {
  // the processes run the shipped command on dist/
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, stdio: "ignore" });
}, 300_000);

afterEach(async () => {
  for (const cli of started.splice(0)) if (cli.child.exitCode === null) cli.child.kill("SIGKILL");
  await s3?.stop();
  s3 = undefined;
});

/** The walk-through's config.yaml of the job manager, as `key: value` lines. */
function walkThroughConfig(): string[] {
  const block = /\*\*Host 1: the job manager\*\*[\s\S]*?```yaml\n([\s\S]*?)```/.exec(DOC)?.[1];
  if (block === undefined) throw new Error("docs/deployment.md has no config.yaml block for host 1's job manager");
  return block.split("\n").filter((l) => l.trim() !== "" && !l.trim().startsWith("#"));
}

describe("the three-host walk-through of docs/deployment.md, on one machine", () => {
  it("runs a job across two task managers with its checkpoints in S3, the S3 keys given to the job manager only", async () => {
    s3 = await startS3Server(["weir"]);
    const credentials = { AWS_ACCESS_KEY_ID: s3.settings.accessKey!, AWS_SECRET_ACCESS_KEY: s3.settings.secretKey! };
    const dir = tempDir();
    // the doc's config.yaml, with this machine's addresses and free ports
    const local: Record<string, string> = { "jobmanager.rpc.port": "0", "rest.port": "0", "s3.endpoint": s3.endpoint };
    const config = walkThroughConfig().map((line) => {
      const key = line.slice(0, line.indexOf(":"));
      return key in local ? `${key}: ${local[key]}` : line.replaceAll("10.0.0.1", "127.0.0.1");
    });
    const conf = join(dir, "conf");
    mkdirSync(conf);
    writeFileSync(join(conf, "config.yaml"), config.join("\n") + "\n");
    const jm = startCli(["jobmanager"], { ...credentials, WEIR_CONF_DIR: conf }, { cwd: processDir(dir, "host-1"), shipped: true });
    started.push(jm);
    const rpc = () => /job manager RPC at [^:]+:(\d+)/.exec(jm.stderr())?.[1];
    const rest = () => /REST API and dashboard at http:\/\/(\S+)/.exec(jm.stderr())?.[1];
    await waitFor(`the job manager's endpoints\n${jm.stderr()}`, () => (rpc() !== undefined && rest() !== undefined) || jm.child.exitCode !== null, 60_000);
    expect(jm.child.exitCode, jm.stderr()).toBeNull();
    for (const host of ["host-2", "host-3"]) {
      const tm = startCli(
        ["taskmanager", "-D", "jobmanager.rpc.address=127.0.0.1", "-D", `jobmanager.rpc.port=${rpc()}`, "-D", "taskmanager.numberOfTaskSlots=2", "-D", "taskmanager.host=127.0.0.1"],
        credentials,
        { cwd: processDir(dir, host), shipped: true },
      );
      started.push(tm);
      await waitFor(`${host}'s registration\n${tm.stderr()}`, () => /registered with the job manager/.test(tm.stderr()) || tm.child.exitCode !== null, 60_000);
      expect(tm.child.exitCode, tm.stderr()).toBeNull();
    }
    const out = join(dir, "out");
    const client = processDir(dir, "client");
    writeFileSync(join(client, "gate"), "");
    const run = await runCli(
      ["run", "-m", rest()!, JOB, "-p", "4", "-D", "execution.checkpointing.interval=200 ms", "--", join(out, "lines"), "3000", "1500", join(client, "gate"), join(client, "reached"), "8"],
      DEADLINE_MS,
      {},
      { cwd: client, shipped: true },
    );
    expect(run.code, `${run.stderr}\njob manager:\n${jm.stderr()}`).toBe(0);
    expect(committedLines(join(out, "lines"))).toEqual(expectedKeyedCounts(3000, 8));
    const objects = await s3.client.send(new ListObjectsV2Command({ Bucket: "weir", Prefix: "checkpoints/cluster-keyed-count/" }));
    const keys = (objects.Contents ?? []).map((o) => o.Key!);
    expect(keys.some((k) => /^checkpoints\/cluster-keyed-count\/chk-\d+\/_metadata$/.test(k)), keys.join("\n")).toBe(true);
  }, DEADLINE_MS + 60_000);
});
