/** The machine the bench runs on, for the report header. */
import { cpus, platform, release, totalmem } from "node:os";
import type { MachineInfo } from "./report.ts";

/** CPU model and count, memory, OS and Node version of this machine. */
export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpuModel: list[0]?.model.trim() ?? "unknown CPU",
    cores: list.length,
    node: process.version,
    platform: `${platform()} ${release()}`,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
  };
}
