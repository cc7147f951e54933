/** The machine the bench runs on, for the report header. */
import { availableParallelism, cpus, loadavg, platform, release, totalmem } from "node:os";
import type { MachineInfo } from "./report.ts";

/** CPU model and count, the CPUs this process may use, the load, memory, OS and Node version of this machine. */
export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpuModel: list[0]?.model.trim() ?? "unknown CPU",
    cores: list.length,
    nproc: availableParallelism(),
    loadAverage: loadavg()[0]!,
    node: process.version,
    platform: `${platform()} ${release()}`,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
  };
}
