import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { cpuBetween } from "./cpu-timeline.ts";
import { processCpuTimeline, processCpuMs } from "./process-cpu-timeline.ts";

/** Keeps this thread busy for `ms` of wall time. */
function burn(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end);
}

describe("processCpuMs and processCpuTimeline", () => {
  it("read a process's CPU time from /proc/<pid>/stat as process.cpuUsage() counts it (within clock ticks)", () => {
    burn(300);
    const before = process.cpuUsage();
    const fromProc = processCpuMs(process.pid)!;
    const after = process.cpuUsage();
    // the kernel counts in ticks of 10 ms, per thread: allow a few ticks per thread of this process
    expect(fromProc).toBeGreaterThan((before.user + before.system) / 1000 - 100);
    expect(fromProc).toBeLessThan((after.user + after.system) / 1000 + 100);
  });

  it("gives undefined for a process that ended", () => {
    const child = spawnSync(process.execPath, ["-e", "0"]);
    expect(child.pid).toBeGreaterThan(0);
    expect(processCpuMs(child.pid!)).toBeUndefined();
  });

  it("samples the sum over its processes, so that the CPU of a stretch can be read off", async () => {
    const before = process.cpuUsage();
    const cpu = processCpuTimeline([process.pid, process.pid]);
    burn(300);
    await new Promise((r) => setTimeout(r, 60));
    cpu.stop();
    const used = process.cpuUsage(before);
    const [first, last] = [cpu.samples[0]!, cpu.samples.at(-1)!];
    expect(cpu.samples.length).toBeGreaterThanOrEqual(2);
    // this process counted twice: twice what process.cpuUsage() saw, within clock ticks (10 ms, per thread)
    const twice = (2 * (used.user + used.system)) / 1000;
    expect(Math.abs(cpuBetween(cpu.samples, first[0], last[0]) - twice), `twice ${twice} ms`).toBeLessThan(200);
  });
});
