import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { processLiveness, thisProcess } from "./process-liveness.ts";

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
}

describe("processLiveness", () => {
  const me = thisProcess();

  it("this process is alive; an earlier process with this pid (another start time) is dead", () => {
    expect(processLiveness(me)).toBe("alive");
    expect(processLiveness({ ...me, processStartedAt: me.processStartedAt - 60_000 })).toBe("dead");
    expect(processLiveness({ pid: me.pid, host: me.host })).toBe("alive"); // no start time recorded: it can only be this process
  });

  it("another pid of this host is alive while it runs and dead once it has exited", () => {
    expect(processLiveness({ pid: process.ppid, host: me.host })).toBe("alive");
    expect(processLiveness({ pid: deadPid(), host: me.host })).toBe("dead");
  });

  it("a process of another host cannot be checked", () => {
    expect(processLiveness({ pid: deadPid(), host: `${me.host}-other` })).toBe("other-host");
  });

  it.runIf(process.platform === "linux")("on Linux, a live pid whose process started well after the recorded start was reused: dead", () => {
    // our parent started before us: recorded as having started an hour before it, the pid has been reused since
    expect(processLiveness({ pid: process.ppid, host: me.host, processStartedAt: me.processStartedAt - 3_600_000 })).toBe("dead");
    expect(processLiveness({ pid: process.ppid, host: me.host, processStartedAt: me.processStartedAt })).toBe("alive");
  });

  it.runIf(process.platform === "linux")("on Linux, a process that exited but that its parent has not reaped (a zombie) is dead", async () => {
    // sh starts a short `sleep` in the background, prints its pid, and becomes a long `sleep`, which never reaps it
    const parent = spawn("sh", ["-c", "sleep 0.3 & echo $!; exec sleep 30"], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout.once("data", (d: Buffer) => resolve(d.toString()))));
      const state = () => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[0];
      for (const deadline = Date.now() + 10_000; state() !== "Z"; ) {
        if (Date.now() > deadline) throw new Error(`process ${pid} did not become a zombie`);
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(processLiveness({ pid, host: me.host })).toBe("dead");
    } finally {
      parent.kill("SIGKILL");
    }
  });
});
