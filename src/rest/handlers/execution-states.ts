/**
 * Subtask and vertex states in Flink's names (ExecutionState), from the job
 * master's view of each subtask and the job's status.
 */
import type { JobClient } from "../../deploy/job-client.ts";
import type { JobVertex } from "../../graph/job-graph.ts";
import { taskIdOf } from "../../runtime/execution/execution-plan.ts";

/** Flink's ExecutionState values, in Flink's order. */
export const EXECUTION_STATES = [
  "CREATED",
  "SCHEDULED",
  "DEPLOYING",
  "RUNNING",
  "FINISHED",
  "CANCELING",
  "CANCELED",
  "FAILED",
  "RECONCILING",
  "INITIALIZING",
] as const;

export type ExecutionState = (typeof EXECUTION_STATES)[number];

type TaskStates = ReturnType<JobClient["getTaskStates"]>;

/** The state of subtask `index` of `vertex`, given the master's task states. */
export function subtaskState(job: JobClient, states: TaskStates, vertex: JobVertex, index: number): ExecutionState {
  switch (job.getJobStatus()) {
    case "CREATED":
      return "CREATED";
    case "FINISHED":
      return "FINISHED";
    case "CANCELED":
    case "FAILED":
    case "RESTARTING":
      return states[taskIdOf(vertex.id, index)] === "finished" ? "FINISHED" : "CANCELED";
    case "RUNNING": {
      const s = states[taskIdOf(vertex.id, index)];
      return s === "finished" ? "FINISHED" : s === "running" ? "RUNNING" : "INITIALIZING";
    }
  }
}

/** Every state with its count among `states` (zero for the absent ones), as Flink's `tasks` and `status-counts`. */
export function countStates(states: readonly ExecutionState[]): Record<ExecutionState, number> {
  const counts = Object.fromEntries(EXECUTION_STATES.map((s) => [s, 0])) as Record<ExecutionState, number>;
  for (const s of states) counts[s]++;
  return counts;
}

/** A vertex's state from its subtasks' (Flink's aggregate: a failure wins, then the least advanced state). */
export function vertexState(states: readonly ExecutionState[]): ExecutionState {
  for (const s of ["FAILED", "CANCELING", "CANCELED", "CREATED", "DEPLOYING", "INITIALIZING", "RUNNING"] as const) if (states.includes(s)) return s;
  return "FINISHED";
}

/** Every subtask's state of `job`, by vertex in graph order. */
export function subtaskStates(job: JobClient): ExecutionState[][] {
  const states = job.getTaskStates();
  return job.getJobGraph().vertices.map((v) => Array.from({ length: v.parallelism }, (_, i) => subtaskState(job, states, v, i)));
}
