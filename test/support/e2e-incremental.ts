/**
 * Incremental checkpoints in the end-to-end suites: the state backend cases
 * they run for, the running-total job's arguments for a case, and reading
 * what a `weir run` child left on disk (checkpoint metadata, shared refs).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeMetadata } from "../../src/checkpoint/storage/metadata-format.ts";
import { METADATA_FILE, sharedRefFile } from "../../src/checkpoint/storage/checkpoint-paths.ts";
import type { CompletedCheckpoint, OperatorSubtaskState } from "../../src/checkpoint/types.ts";
import { latestCheckpointId } from "./e2e-kill-loop.ts";

/** A state backend setup whose checkpoints are incremental. */
export interface IncrementalCase {
  readonly name: string;
  /** Turn incremental checkpoints on in the job (the heap backend's default is off). */
  readonly incremental?: boolean;
  /** Extra `weir run` flags (e.g. `--state-backend disk`). */
  readonly flags?: readonly string[];
}

/** The setups the incremental end-to-end suites run for. */
export const INCREMENTAL_CASES: readonly IncrementalCase[] = [
  { name: "heap, incremental", incremental: true },
];

/**
 * The disk backend (incremental by default), for the kill loop; its rescaling from
 * incremental checkpoints is covered by the backend conformance suites
 * (src/state/keyed-rescale.conformance.test.ts), which keeps this suite's time down.
 */
export const DISK_CASE: IncrementalCase = { name: "disk", flags: ["--state-backend", "disk"] };

/** uid of the keyed operator of test/fixtures/e2e-running-total-job.ts. */
export const RUNNING_TOTAL_UID = "running-total";

/** The running-total job's arguments after `--` for `c`, keeping `retained` completed checkpoints. */
export function runningTotalArgs(c: IncrementalCase, input: string, output: string, spin: string, retained: number, gate?: string): string[] {
  return [input, output, spin, RUNNING_TOTAL_UID, c.incremental ? "1" : "0", String(retained), ...(gate === undefined ? [] : [gate])];
}

/** The completed checkpoint `chk-<id>` of `directory` as its metadata says, or null (absent, or removed meanwhile by a running job). */
export function readCheckpointMetadata(directory: string, id: number): CompletedCheckpoint | null {
  const path = join(directory, `chk-${id}`, METADATA_FILE);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  return { ...decodeMetadata(bytes, path), directory: join(directory, `chk-${id}`) };
}

/** The newest completed checkpoint of `directory`, or null. */
export function latestCheckpointMetadata(directory: string): CompletedCheckpoint | null {
  const id = latestCheckpointId(directory);
  return id > 0 ? readCheckpointMetadata(directory, id) : null;
}

/** The running-total operator's keyed states (one per subtask) in `checkpoint`. */
export function keyedStates(checkpoint: CompletedCheckpoint): OperatorSubtaskState[] {
  return checkpoint.states.filter((s) => s.operatorUid === RUNNING_TOTAL_UID);
}

/**
 * True when `checkpoint` is really incremental: every keyed state is a list
 * of shared files, and at least one of them reuses a file that an earlier
 * checkpoint wrote (a base or delta it did not write again).
 */
export function reusesEarlierFiles(checkpoint: CompletedCheckpoint): boolean {
  const states = keyedStates(checkpoint);
  return states.length > 0 &&
    states.every((s) => (s.shared?.length ?? 0) > 0) &&
    states.some((s) => s.shared!.some((r) => r.checkpointId < checkpoint.checkpointId));
}

/** The shared refs of `checkpoint` that do not designate an existing file inside `inside` (a savepoint's own `shared/`). */
export function refsOutside(checkpoint: CompletedCheckpoint, inside: string): string[] {
  const bad: string[] = [];
  for (const s of checkpoint.states) {
    for (const ref of s.shared ?? []) {
      const file = sharedRefFile(ref.path);
      if (!file || file.up || !existsSync(join(inside, "shared", file.name))) bad.push(`${s.operatorUid}#${s.subtaskIndex}: ${ref.path}`);
    }
  }
  return bad;
}

/** A short description of the keyed chains of `checkpoint` for messages: `chk-7: [3,5,7] [3,7]`. */
export function describeChains(checkpoint: CompletedCheckpoint): string {
  return `chk-${checkpoint.checkpointId}: ${keyedStates(checkpoint).map((s) => JSON.stringify((s.shared ?? []).map((r) => r.checkpointId))).join(" ")}`;
}
