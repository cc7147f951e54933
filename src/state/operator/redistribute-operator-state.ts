/**
 * Redistribution of operator list state when the parallelism changes (Flink's
 * `RoundRobinOperatorStateRepartitioner`). Pure: bytes in, bytes out.
 */

import { decodeOperatorSnapshot, encodeOperatorSnapshot, type OperatorStateEntry } from "./operator-snapshot-format.ts";
import type { OperatorStateMode } from "./operator-list-state.ts";

/**
 * Given the serialized operator states of the old subtasks (index = old
 * subtask), returns for each of `newParallelism` subtasks the blobs it must
 * restore:
 * - split lists: the old lists concatenated in subtask order and cut into
 *   `newParallelism` contiguous parts of near-equal size (the first parts get
 *   one more element when it does not divide evenly);
 * - union lists: every new subtask gets the concatenation of all old lists.
 *
 * With the same parallelism and no union list, each subtask gets exactly its
 * own blob; with a union list, split lists still stay where they were.
 *
 * @throws StateRestoreError on a corrupt blob
 * @example
 * ```ts
 * const assigned = redistributeOperatorState([blob0, blob1], 3);
 * backendOfSubtask2.restore(assigned[2]!);
 * ```
 */
export function redistributeOperatorState(old: readonly Uint8Array[], newParallelism: number): Uint8Array[][] {
  if (!Number.isInteger(newParallelism) || newParallelism < 1) {
    throw new RangeError(`newParallelism must be a positive integer, got ${newParallelism}`);
  }
  if (old.length === 0) return Array.from({ length: newParallelism }, () => []);
  const decoded = old.map((bytes, i) => decodeOperatorSnapshot(bytes, i));
  const samePar = old.length === newParallelism;
  const hasUnion = decoded.some((d) => d.states.some((s) => s.mode === "union"));
  if (samePar && !hasUnion) return old.map((b) => [b]);

  const modes = new Map<string, OperatorStateMode>();
  const union = new Map<string, unknown[]>();
  for (const d of decoded) {
    for (const s of d.states) {
      modes.set(s.name, s.mode);
      if (s.mode === "union") union.set(s.name, (union.get(s.name) ?? []).concat(s.elements));
    }
  }
  const splitParts = new Map<string, unknown[][]>();
  for (const [name, mode] of modes) {
    if (mode !== "split") continue;
    const perOld = decoded.map((d) => d.states.find((s) => s.name === name)?.elements ?? []);
    splitParts.set(name, samePar ? perOld.map((l) => l.slice()) : splitContiguous(perOld.flat(), newParallelism));
  }

  const operatorUid = decoded[0]!.operatorUid;
  return Array.from({ length: newParallelism }, (_, i) => {
    const states: OperatorStateEntry[] = [...modes].map(([name, mode]) => ({
      name,
      mode,
      elements: mode === "union" ? union.get(name)! : splitParts.get(name)![i]!,
    }));
    return [encodeOperatorSnapshot(operatorUid, -1, states)];
  });
}

/** Cuts `all` into `n` contiguous parts whose sizes differ by at most one. */
export function splitContiguous<T>(all: readonly T[], n: number): T[][] {
  const base = Math.floor(all.length / n);
  const extra = all.length % n;
  const parts: T[][] = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const size = base + (i < extra ? 1 : 0);
    parts.push(all.slice(at, at + size));
    at += size;
  }
  return parts;
}
