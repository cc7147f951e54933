/**
 * JobGraph → the physical plan: one task per parallel subtask of each vertex,
 * one channel per (producer subtask, consumer subtask) pair that the edge's
 * partitioning connects, and the thread (worker) that runs each task. Pure and
 * deterministic: every thread computes the same plan and the same channel ids.
 */
import type { JobEdge, JobGraph, JobVertex } from "../../graph/job-graph.ts";

/** One parallel subtask of a vertex. */
export interface TaskSpec {
  /** `vertexId#subtaskIndex`. */
  readonly taskId: string;
  readonly vertex: JobVertex;
  readonly subtaskIndex: number;
  /** Index of the task in the plan's `tasks` (the same in every thread). */
  readonly ordinal: number;
  /** Worker index that runs it (0 in a single-thread run). */
  readonly worker: number;
}

/** A channel between a producer subtask and a consumer subtask. */
export interface ChannelSpec {
  readonly id: number;
  readonly edge: JobEdge;
  readonly from: TaskSpec;
  readonly to: TaskSpec;
  /** Index of the edge among the producer vertex's outputs. */
  readonly outputIndex: number;
  /** Position of the channel in the consumer's input gate. */
  readonly gateIndex: number;
}

/** The tasks and channels of a job. */
export interface ExecutionPlan {
  readonly tasks: readonly TaskSpec[];
  readonly channels: readonly ChannelSpec[];
  /** Channels feeding each task, in gate order. */
  readonly inputsOf: ReadonlyMap<string, readonly ChannelSpec[]>;
  /** Channels leaving each task: per output edge, ordered by consumer subtask. */
  readonly outputsOf: ReadonlyMap<string, readonly (readonly ChannelSpec[])[]>;
}

/** Task id of subtask `index` of vertex `vertexId`. */
export const taskIdOf = (vertexId: string, index: number): string => `${vertexId}#${index}`;

/**
 * Builds the plan over `workers` threads (at least 1). Subtask i of a vertex
 * runs on worker (first + i) mod workers: its subtasks spread evenly. A vertex
 * fed by a forward edge starts where its producer started, so that every
 * forward channel stays within one thread (as Flink's slot sharing keeps a
 * pipeline in one slot); any other vertex starts where the previous one
 * ended, so that small vertices spread over the workers too. Hash and
 * rebalance edges connect every producer to every consumer: with N workers,
 * (N - 1) / N of their records cross threads, wherever the subtasks run.
 */
export function planExecution(graph: JobGraph, workers: number): ExecutionPlan {
  const w = Math.max(1, workers);
  const tasks: TaskSpec[] = [];
  const byVertex = new Map<string, TaskSpec[]>();
  const firstWorker = new Map<string, number>();
  let next = 0;
  for (const vertex of graph.vertices) {
    const forward = vertex.inputs.find((e) => e.partitioning === "forward");
    const first = forward ? firstWorker.get(forward.source)! : next;
    if (!forward) next = (next + vertex.parallelism) % w;
    firstWorker.set(vertex.id, first);
    const list: TaskSpec[] = [];
    for (let i = 0; i < vertex.parallelism; i++) {
      const t: TaskSpec = { taskId: taskIdOf(vertex.id, i), vertex, subtaskIndex: i, ordinal: tasks.length, worker: (first + i) % w };
      list.push(t);
      tasks.push(t);
    }
    byVertex.set(vertex.id, list);
  }
  const channels: ChannelSpec[] = [];
  const inputsOf = new Map<string, ChannelSpec[]>(tasks.map((t) => [t.taskId, []]));
  const outputsOf = new Map<string, ChannelSpec[][]>(
    tasks.map((t) => [t.taskId, t.vertex.outputs.map(() => [])]),
  );
  for (const consumer of graph.vertices) {
    for (const edge of consumer.inputs) {
      const producer = graph.vertices.find((v) => v.id === edge.source)!;
      const outputIndex = producer.outputs.indexOf(edge);
      for (const to of byVertex.get(consumer.id)!) {
        for (const from of byVertex.get(producer.id)!) {
          if (edge.partitioning === "forward" && from.subtaskIndex !== to.subtaskIndex) continue;
          const gate = inputsOf.get(to.taskId)!;
          const ch: ChannelSpec = { id: channels.length, edge, from, to, outputIndex, gateIndex: gate.length };
          channels.push(ch);
          gate.push(ch);
          outputsOf.get(from.taskId)![outputIndex]!.push(ch);
        }
      }
    }
  }
  for (const outs of outputsOf.values()) for (const o of outs) o.sort((a, b) => a.to.subtaskIndex - b.to.subtaskIndex);
  return { tasks, channels, inputsOf, outputsOf };
}
