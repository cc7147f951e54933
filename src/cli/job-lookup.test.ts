import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { jobRegistryDir } from "../deploy/job-registry.ts";
import { thisProcess } from "../util/process-liveness.ts";
import { CliUsageError } from "./cli-usage-error.ts";
import { findJob, jobIdPrefix, JobNotFoundError, listJobs, restAddress } from "./job-lookup.ts";

const homes: string[] = [];
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));

/** A registry home holding one entry of a process that has exited. */
function homeWithStaleEntry(jobId: string): { home: string; pid: number } {
  const home = mkdtempSync(join(tmpdir(), "weir-lookup-"));
  homes.push(home);
  const pid = Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
  const me = thisProcess();
  mkdirSync(jobRegistryDir(home), { recursive: true });
  const entry = { jobId, name: "sums", pid, processStartedAt: me.processStartedAt, host: me.host, startTime: 5, webUrl: "http://127.0.0.1:1" };
  writeFileSync(join(jobRegistryDir(home), `${jobId}.json`), JSON.stringify(entry));
  return { home, pid };
}

describe("job lookup", () => {
  it("-m takes host:port or an http address", () => {
    expect(restAddress("localhost:8081")).toBe("http://localhost:8081");
    expect(restAddress("[::1]:8081")).toBe("http://[::1]:8081");
    expect(restAddress("https://jobs.example:443/")).toBe("https://jobs.example:443");
    expect(() => restAddress("localhost")).toThrow(CliUsageError);
  });

  it("a job id is 4 to 32 hex digits, compared in lowercase", () => {
    expect(jobIdPrefix("3F2A")).toBe("3f2a");
    expect(() => jobIdPrefix("3f2")).toThrow(/a job id is 32 hex digits/);
    expect(() => jobIdPrefix("nope")).toThrow(CliUsageError);
  });

  it("a stale entry is listed as STALE (its server is not asked) and is not a job to act on", async () => {
    const jobId = "0123456789abcdef0123456789abcdef";
    const { home, pid } = homeWithStaleEntry(jobId);
    expect(await listJobs({ home })).toMatchObject([{ jobId, name: "sums", state: "STALE", startTime: 5 }]);
    await expect(findJob("0123", { home })).rejects.toThrow(new JobNotFoundError(`job ${jobId} (sums) is not running: its process (pid ${pid}) ended without removing its registry entry (weir list --all shows and removes stale entries)`));
    await expect(findJob("abcd", { home })).rejects.toThrow("no job 'abcd': no job runs on this machine");
  });
});
