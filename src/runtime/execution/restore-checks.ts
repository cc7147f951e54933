/**
 * Pure checks of a restore against the job graph: restored state must belong to
 * operators of the job (matched by uid), and operators whose state would be
 * matched by a generated uid deserve a warning.
 */
import type { CompletedCheckpoint } from "../../checkpoint/types.ts";
import type { JobGraph } from "../../graph/job-graph.ts";
import { JobFailedError } from "./job-errors.ts";

/** Operator types that keep state (their uid matters across job changes). */
const STATEFUL_TYPES = new Set(["source", "keyed-process", "reduce", "sum", "min", "max", "minBy", "maxBy", "sink"]);

/**
 * Throws JobFailedError if `restore` has state of uids the job does not have, unless
 * `allowNonRestoredState`; then returns the line to log about the dropped state.
 */
export function checkRestoredState(graph: JobGraph, restore: CompletedCheckpoint, allowNonRestoredState: boolean): string | undefined {
  const uids = new Set(graph.vertices.flatMap((v) => v.nodes.map((n) => n.uid)));
  const orphans = [...new Set(restore.states.map((s) => s.operatorUid))].filter((u) => !uids.has(u));
  if (orphans.length === 0) return undefined;
  const what = `${restore.savepoint ? "savepoint" : "checkpoint"} ${restore.checkpointId}${restore.directory ? ` (${restore.directory})` : ""}`;
  const list = orphans.map((u) => `'${u}'`).join(", ");
  if (allowNonRestoredState) return `skipping state of ${list} from ${what}: no operator of this job has that uid`;
  throw new JobFailedError(
    `${what} has state for operator uid ${list}, which this job does not have; ` +
      "keep the operator's .uid(...) or pass --allow-non-restored-state to drop that state",
  );
}

/** One warning line for stateful operators without a user-given uid, or undefined. */
export function generatedUidWarning(graph: JobGraph): string | undefined {
  const generated = graph.vertices
    .flatMap((v) => v.nodes)
    .filter((n) => n.uidGenerated && STATEFUL_TYPES.has(n.type) && n.name !== "Print");
  if (generated.length === 0) return undefined;
  return (
    `operators without a uid: ${generated.map((n) => `'${n.name}' (${n.uid})`).join(", ")}; ` +
    "their state is matched by generated ids that change when the job changes: set .uid(...) to keep it"
  );
}
