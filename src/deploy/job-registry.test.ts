import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { thisProcess } from "../util/process-liveness.ts";
import { jobRegistryDir, parseJobRegistration, readJobRegistry, registerJob, removeStaleEntry, weirHome } from "./job-registry.ts";

const homes: string[] = [];
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));
function home(): string {
  const h = mkdtempSync(join(tmpdir(), "weir-registry-"));
  homes.push(h);
  return h;
}

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
}

const JOB = { jobId: "0123456789abcdef0123456789abcdef", name: "sums", startTime: 1_000, webUrl: "http://127.0.0.1:8081" };

describe("job registry", () => {
  it("WEIR_HOME wins, then XDG_RUNTIME_DIR/weir, then ~/.weir", () => {
    expect(weirHome({ WEIR_HOME: "/w", XDG_RUNTIME_DIR: "/run/user/1" })).toBe("/w");
    expect(weirHome({ XDG_RUNTIME_DIR: "/run/user/1" })).toBe("/run/user/1/weir");
    expect(weirHome({})).toMatch(/\.weir$/);
  });

  it("a registered job is listed as alive with this process's identity, its file readable by its user only; removed, it is gone", async () => {
    const h = home();
    const registered = await registerJob({ ...JOB, token: "secret" }, h);
    const [entry, ...more] = await readJobRegistry(h);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ ...JOB, token: "secret", pid: process.pid, host: thisProcess().host, liveness: "alive" });
    expect(statSync(registered.file).mode & 0o077).toBe(0);
    expect(statSync(jobRegistryDir(h)).mode & 0o077).toBe(0);
    await registered.remove();
    await registered.remove();
    expect(await readJobRegistry(h)).toEqual([]);
    expect(readdirSync(jobRegistryDir(h))).toEqual([]);
  });

  it("an entry of a dead process (or of a reused pid) is stale, and can be removed; a live one cannot", async () => {
    const h = home();
    const me = thisProcess();
    mkdtempSync(join(h, "x")); // unrelated files do not disturb
    const live = await registerJob(JOB, h);
    const dead = { ...JOB, jobId: "ffff456789abcdef0123456789abcdef", pid: deadPid(), processStartedAt: me.processStartedAt, host: me.host, startTime: 2_000 };
    writeFileSync(join(jobRegistryDir(h), `${dead.jobId}.json`), JSON.stringify(dead));
    const reused = { ...dead, jobId: "eeee456789abcdef0123456789abcdef", pid: process.pid, processStartedAt: me.processStartedAt - 3_600_000, startTime: 3_000 };
    writeFileSync(join(jobRegistryDir(h), `${reused.jobId}.json`), JSON.stringify(reused));
    writeFileSync(join(jobRegistryDir(h), "torn.json"), '{"jobId": "ab');
    const entries = await readJobRegistry(h);
    expect(entries.map((e) => [e.jobId.slice(0, 4), e.liveness])).toEqual([["0123", "alive"], ["ffff", "dead"], ["eeee", "dead"]]);
    await expect(removeStaleEntry(entries[0]!)).rejects.toThrow(/running process/);
    await removeStaleEntry(entries[1]!);
    await removeStaleEntry(entries[2]!);
    expect((await readJobRegistry(h)).map((e) => e.jobId)).toEqual([JOB.jobId]);
    await live.remove();
  });

  it("parses only complete registrations", () => {
    const full = { ...JOB, pid: 1, processStartedAt: 0, host: "h" };
    expect(parseJobRegistration(JSON.stringify(full))).toEqual(full);
    expect(parseJobRegistration(JSON.stringify({ ...full, pid: "1" }))).toBeUndefined();
    expect(parseJobRegistration(JSON.stringify({ ...full, token: 3 }))).toBeUndefined();
    expect(parseJobRegistration("[")).toBeUndefined();
  });
});
