/**
 * A flame graph from a V8 CPU profile of the thread that runs the tasks, in
 * Flink's VertexFlameGraph shape (`{endTimestamp, data: {name, value,
 * children}}`, value: samples in a frame and the frames it called). The job
 * must run in-process (`--workers 0`): the profile is of this thread, where
 * every task of the job runs. One profile at a time; it takes `PROFILE_MS`.
 */
import { Session } from "node:inspector/promises";
import { basename } from "node:path";
import type { Profiler } from "node:inspector";

/** How long a profile samples. */
const PROFILE_MS = 1_000;
/** Sampling interval, in µs. */
const SAMPLING_US = 500;

/** A frame of the flame graph. */
export interface FlameNode {
  readonly name: string;
  readonly value: number;
  readonly children: FlameNode[];
}

let running: Promise<FlameNode> | undefined;

/**
 * Profiles this thread for a second and answers its flame graph; a second caller meanwhile gets the same one.
 *
 * @example
 * ```ts
 * const root = await profileThisThread(); // { name: "root", value: 2000, children: [...] }
 * ```
 */
export function profileThisThread(): Promise<FlameNode> {
  running ??= profile().finally(() => (running = undefined));
  return running;
}

async function profile(): Promise<FlameNode> {
  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: SAMPLING_US });
    await session.post("Profiler.start");
    await new Promise((r) => setTimeout(r, PROFILE_MS));
    const { profile } = await session.post("Profiler.stop");
    return flameTree(profile);
  } finally {
    session.disconnect();
  }
}

/** The tree of `profile` with samples summed up the calls; idle time left out. */
export function flameTree(profile: Profiler.Profile): FlameNode {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const build = (node: Profiler.ProfileNode, root: boolean): FlameNode | undefined => {
    if (node.callFrame.functionName === "(idle)") return undefined;
    const children = (node.children ?? []).map((id) => build(byId.get(id)!, false)).filter((c): c is FlameNode => c !== undefined);
    const value = (node.hitCount ?? 0) + children.reduce((n, c) => n + c.value, 0);
    if (value === 0) return undefined;
    return { name: root ? "root" : frameName(node.callFrame), value, children: children.sort((a, b) => b.value - a.value) };
  };
  return build(profile.nodes[0]!, true) ?? { name: "root", value: 0, children: [] };
}

function frameName(frame: Profiler.ProfileNode["callFrame"]): string {
  const fn = frame.functionName || "(anonymous)";
  return frame.url ? `${fn} (${basename(frame.url)}:${frame.lineNumber + 1})` : fn;
}
