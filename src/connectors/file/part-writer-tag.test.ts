import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { leftoverVerdict, writerTag, type PartWriterTag } from "./part-writer-tag.ts";

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("leftoverVerdict: which hidden part files a starting sink deletes", () => {
  const mine = writerTag("job-a");

  it("deletes the files of an earlier attempt of its own run", () => {
    expect(leftoverVerdict(mine, "job-a")).toBe("delete");
  });

  it("keeps the files of another run in this very process, and of another live process", () => {
    expect(leftoverVerdict(mine, "job-b")).toBe("keep");
    const parent: PartWriterTag = { ...writerTag("job-b"), pid: process.ppid }; // started before us: the start time we record is not before it
    expect(leftoverVerdict(parent, "job-a")).toBe("keep");
  });

  it("deletes the files of a dead process of this host, and of an earlier process that had this pid", () => {
    expect(leftoverVerdict({ ...writerTag("job-b"), pid: deadPid() }, "job-a")).toBe("delete");
    expect(leftoverVerdict({ ...writerTag("job-b"), processStartedAt: mine.processStartedAt - 60_000 }, "job-a")).toBe("delete");
  });

  it("keeps the files of a process of another host, which it cannot check", () => {
    expect(leftoverVerdict({ ...writerTag("job-b"), pid: deadPid(), host: "00000000" }, "job-a")).toBe("keep");
  });

  it("deletes untagged files of earlier versions (as they always did)", () => {
    expect(leftoverVerdict(null, "job-a")).toBe("delete");
  });
});
