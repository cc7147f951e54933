import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireDirectoryLock, LOCK_FILE } from "./directory-lock.ts";
import { DirectoryLockedError } from "./directory-locked-error.ts";
import { parseLockOwner, type LockOwner } from "./lock-owner.ts";
import { thisProcess } from "./process-liveness.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "weir-lock-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const what = "checkpoint directory";

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
}

/** Writes a lock file as a run with `owner` (over defaults) would have left it. */
function leaveLock(directory: string, owner: Partial<LockOwner>): LockOwner {
  const full: LockOwner = { ...thisProcess(), startedAt: "2026-12-01T10:00:00.000Z", command: "weir run old.ts", token: "0123456789abcdef", ...owner };
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, LOCK_FILE), JSON.stringify(full));
  return full;
}

function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (e) {
    return e;
  }
  throw new Error("did not throw");
}

describe("acquireDirectoryLock", () => {
  it("creates the directory and a lock file naming this process, and deletes it on release", () => {
    const target = join(dir, "ck", "job");
    const lock = acquireDirectoryLock(target, { what, note: () => undefined, command: "weir run job.ts" });
    const owner = parseLockOwner(readFileSync(join(target, LOCK_FILE), "utf8")) as LockOwner;
    expect(owner).toMatchObject({ pid: process.pid, host: hostname(), command: "weir run job.ts", token: lock.owner.token });
    expect(readdirSync(target)).toEqual([LOCK_FILE]); // no temporary file left
    lock.release();
    lock.release(); // once
    expect(readdirSync(target)).toEqual([]);
  });

  it("refuses a second lock while the first is held (this process), naming the directory, the owner and what to do", () => {
    const lock = acquireDirectoryLock(dir, { what, note: () => undefined, command: "weir run job.ts" });
    const error = errorOf(() => acquireDirectoryLock(dir, { what, note: () => undefined }));
    expect(error).toBeInstanceOf(DirectoryLockedError);
    expect(error).toMatchObject({ reason: "alive", directory: dir, lockFile: join(dir, LOCK_FILE) });
    expect((error as Error).message).toBe(
      `checkpoint directory ${dir} is in use by another run: pid ${process.pid} on host '${hostname()}' (weir run job.ts), started ${lock.owner.startedAt}. ` +
        `Wait for that run to end or stop it (kill ${process.pid}), or give this run another checkpoint directory (--checkpoint-dir)`,
    );
    lock.release();
    acquireDirectoryLock(dir, { what, note: () => undefined }).release();
  });

  it("takes over the lock of a dead process with a note", () => {
    const pid = deadPid();
    leaveLock(dir, { pid });
    const notes: string[] = [];
    const lock = acquireDirectoryLock(dir, { what, note: (n) => notes.push(n) });
    expect(notes).toEqual([
      `taking over the lock of checkpoint directory ${dir}: the run that held it (pid ${pid}, weir run old.ts, started 2026-12-01T10:00:00.000Z) is no longer running`,
    ]);
    expect(lock.owner.pid).toBe(process.pid);
    lock.release();
  });

  it("takes over the lock of an earlier process that had this pid (a restarted container)", () => {
    leaveLock(dir, { processStartedAt: thisProcess().processStartedAt - 3_600_000 });
    const notes: string[] = [];
    acquireDirectoryLock(dir, { what, note: (n) => notes.push(n) }).release();
    expect(notes).toHaveLength(1);
  });

  it("refuses the lock of another host, which it cannot check, and says how to remove it", () => {
    leaveLock(dir, { host: "other-machine", pid: deadPid() });
    const error = errorOf(() => acquireDirectoryLock(dir, { what, note: () => undefined }));
    expect(error).toMatchObject({ reason: "other-host" });
    expect((error as Error).message).toMatch(
      new RegExp(`^checkpoint directory .* is locked by a run on another host: pid \\d+ on host 'other-machine' \\(weir run old\\.ts\\).*delete ${join(dir, LOCK_FILE)} and start again$`),
    );
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
  });

  it("refuses a lock file it cannot read, naming it", () => {
    writeFileSync(join(dir, LOCK_FILE), "{ torn");
    const error = errorOf(() => acquireDirectoryLock(dir, { what, note: () => undefined }));
    expect(error).toMatchObject({ reason: "unreadable" });
    expect((error as Error).message).toMatch(/lock file .*_lock cannot be read \(not JSON: .*\); if you are sure that no run uses it, delete .*_lock/);
  });

  it("does not delete, on release, a lock that another run took over meanwhile", () => {
    const lock = acquireDirectoryLock(dir, { what, note: () => undefined });
    const other = leaveLock(dir, { pid: process.ppid, token: "fedcba9876543210" });
    lock.release();
    expect(parseLockOwner(readFileSync(join(dir, LOCK_FILE), "utf8"))).toEqual(other);
  });

  it("lets exactly one of several processes racing for a stale lock win", async () => {
    leaveLock(dir, { pid: deadPid() });
    const stop = join(dir, "stop");
    const module = fileURLToPath(new URL("./directory-lock.ts", import.meta.url));
    const script = `
      import { existsSync } from "node:fs";
      const { acquireDirectoryLock } = await import(${JSON.stringify(module)});
      while (Date.now() < ${Date.now() + 1_500});
      try {
        acquireDirectoryLock(${JSON.stringify(dir)}, { what: "dir", note: () => undefined });
        console.log("won");
      } catch (e) {
        console.log(e.reason ?? e.message);
      }
      const wait = () => (existsSync(${JSON.stringify(stop)}) ? undefined : setTimeout(wait, 10));
      wait();
    `;
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () => {
        const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
        let out = "";
        child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
        return new Promise<{ line: string; exit: Promise<void> }>((resolve) => {
          const exit = new Promise<void>((r) => child.on("close", () => r()));
          child.stdout.on("data", () => out.includes("\n") && resolve({ line: out.trim(), exit }));
          child.on("close", () => resolve({ line: out.trim(), exit }));
        });
      }),
    );
    writeFileSync(stop, "");
    await Promise.all(outcomes.map((o) => o.exit));
    expect(outcomes.map((o) => o.line).sort()).toEqual(["alive", "alive", "alive", "won"]);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false); // the winner released it at exit
  }, 30_000);
});
