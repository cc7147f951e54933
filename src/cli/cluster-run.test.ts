import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CliUsageError } from "./cli-usage-error.ts";
import { runRequest } from "./cluster-run.ts";
import { parseFlags, parseRunArgs, runFlags } from "./main.ts";

describe("weir run -m: the arguments", () => {
  it("-m, -d, -p, -s, --allow-non-restored-state, -D and the job's arguments make the run request", () => {
    const o = parseRunArgs([
      "-m", "jm.example:8081", "job.ts", "-d", "-p", "3", "-s", "sp/savepoint-1", "--allow-non-restored-state",
      "--checkpoint-interval", "500", "-D", "state.backend.type=disk", "--", "in.txt", "--verbose",
    ]);
    expect(o).toMatchObject({ job: "job.ts", args: ["in.txt", "--verbose"], jobmanager: "jm.example:8081", detached: true });
    expect(runRequest(o.configuration, o.args)).toEqual({
      programArgsList: ["in.txt", "--verbose"],
      parallelism: 3,
      savepointPath: resolve("sp/savepoint-1"),
      allowNonRestoredState: true,
      // the command line's keys, without weir.workers (a local run's default: a cluster has slots) and without the
      // keys the request carries in its own fields
      flinkConfiguration: { "parallelism.default": "3", "execution.checkpointing.interval": "500 ms", "state.backend.type": "disk" },
    });
  });

  it("--jobmanager is -m; without -p, -s or flags the request carries the arguments alone", () => {
    const o = parseRunArgs(["job.ts", "--jobmanager", "127.0.0.1:9000"]);
    expect(o.jobmanager).toBe("127.0.0.1:9000");
    expect(o.detached).toBe(false);
    expect(runRequest(o.configuration, o.args)).toEqual({ programArgsList: [], flinkConfiguration: {} });
  });

  it("local directories of the configuration go as absolute paths (the job manager works elsewhere); URLs as they are", () => {
    const o = parseRunArgs(["-m", "h:1", "job.ts", "--savepoint-dir", "sps", "-D", "state.checkpoints.dir=file:///data/cp"]);
    expect(runRequest(o.configuration, []).flinkConfiguration).toEqual({ "state.savepoints.dir": resolve("sps"), "state.checkpoints.dir": "file:///data/cp" });
  });

  it("--web-token is the job manager's token, not a key sent with the job", () => {
    const o = parseRunArgs(["-m", "h:1", "job.ts", "--web-token", "s3cret-token"]);
    expect(o.token).toBe("s3cret-token");
    expect(runRequest(o.configuration, []).flinkConfiguration).toEqual({});
  });

  it("a -m that is not host:port, and the flags of a local process, are usage errors", () => {
    expect(() => parseRunArgs(["-m", "nowhere", "job.ts"])).toThrow(new CliUsageError("-m expects host:port, got 'nowhere'"));
    for (const flag of [["--workers", "2"], ["--web-port", "0"], ["--no-web"]]) {
      expect(() => parseRunArgs(["-m", "h:1", "job.ts", ...flag])).toThrow(`${flag[0]} does not apply with -m`);
    }
  });

  it("weir sql takes -m too", () => {
    const { values } = parseFlags(["-m", "h:8081", "-f", "job.sql"], { file: { type: "string", short: "f" } });
    expect(runFlags(values)).toMatchObject({ jobmanager: "h:8081", detached: false });
  });

  it("without -m a run is local: weir.workers defaults to 1 and --detached keeps its meaning", () => {
    const o = parseRunArgs(["job.ts", "--detached"]);
    expect(o.jobmanager).toBeUndefined();
    expect(o.detached).toBe(true);
    expect(o.configuration.toMap()["weir.workers"]).toBe("1");
  });
});
