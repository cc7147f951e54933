/**
 * The answers of the job's REST API that the dashboard reads, in the shapes of
 * Flink's REST API: only the fields it shows, every one optional where Flink's
 * answers may leave it out.
 *
 * @example
 * ```ts
 * const overview = await getJson<JobsOverview>("jobs/overview");
 * for (const job of overview.jobs) console.log(job.jid, job.state);
 * ```
 */

/** One job of `GET /jobs/overview`. */
export interface JobOverview {
  readonly jid: string;
  readonly name: string;
  readonly state: string;
  readonly "start-time": number;
  readonly "end-time"?: number;
  readonly duration?: number;
  readonly "last-modification"?: number;
  readonly tasks?: Readonly<Record<string, number>>;
}

/** `GET /jobs/overview`. */
export interface JobsOverview {
  readonly jobs: readonly JobOverview[];
}

/** A vertex of `GET /jobs/:jid`: a chain of operators run as one task. */
export interface JobVertex {
  readonly id: string;
  readonly name: string;
  readonly parallelism: number;
  readonly maxParallelism?: number;
  readonly status?: string;
  readonly metrics?: {
    readonly "read-records"?: number;
    readonly "write-records"?: number;
    readonly "read-bytes"?: number;
    readonly "write-bytes"?: number;
  };
}

/** An input of a plan node: the vertex it reads and how records are distributed. */
export interface PlanInput {
  readonly id: string;
  readonly num?: number;
  readonly ship_strategy?: string;
  readonly exchange?: string;
}

/** A node of the job's plan (one per vertex); `description` lists its operators (for SQL with changelog modes). */
export interface PlanNode {
  readonly id: string;
  readonly parallelism?: number;
  readonly operator?: string;
  readonly description?: string;
  readonly inputs?: readonly PlanInput[];
}

/** The dataflow plan of a job. */
export interface JobPlan {
  readonly jid?: string;
  readonly name?: string;
  readonly type?: string;
  readonly nodes: readonly PlanNode[];
}

/** `GET /jobs/:jid`. Flink's schema allows the plan as a JSON string too. */
export interface JobDetails {
  readonly jid: string;
  readonly name: string;
  readonly state: string;
  readonly isStoppable?: boolean;
  readonly "start-time": number;
  readonly "end-time"?: number;
  readonly duration?: number;
  readonly now?: number;
  readonly vertices: readonly JobVertex[];
  readonly plan?: JobPlan | string;
}

/** One checkpoint of the history of `GET /jobs/:jid/checkpoints`. */
export interface CheckpointStatistics {
  readonly id: number;
  readonly status: "IN_PROGRESS" | "COMPLETED" | "FAILED" | string;
  readonly is_savepoint?: boolean;
  readonly checkpoint_type?: string;
  readonly trigger_timestamp: number;
  readonly latest_ack_timestamp?: number;
  readonly state_size?: number;
  readonly checkpointed_size?: number;
  readonly end_to_end_duration?: number;
  readonly alignment_buffered?: number;
  readonly processed_data?: number;
  readonly persisted_data?: number;
  readonly num_subtasks?: number;
  readonly num_acknowledged_subtasks?: number;
  readonly external_path?: string;
  readonly failure_timestamp?: number;
  readonly failure_message?: string;
  readonly tasks?: Readonly<Record<string, TaskCheckpointStatistics>>;
}

/** `GET /jobs/:jid/checkpoints`. */
export interface CheckpointingStatistics {
  readonly counts?: {
    readonly restored?: number;
    readonly total?: number;
    readonly in_progress?: number;
    readonly completed?: number;
    readonly failed?: number;
  };
  readonly latest?: {
    readonly completed?: CheckpointStatistics | null;
    readonly savepoint?: CheckpointStatistics | null;
    readonly failed?: CheckpointStatistics | null;
    readonly restored?: { readonly id: number; readonly restore_timestamp?: number; readonly is_savepoint?: boolean; readonly external_path?: string } | null;
  };
  readonly history: readonly CheckpointStatistics[];
}

/** A vertex's part of one checkpoint (`tasks` of `GET /jobs/:jid/checkpoints/details/:cid`). */
export interface TaskCheckpointStatistics {
  readonly id?: number;
  readonly status?: string;
  readonly latest_ack_timestamp?: number;
  readonly state_size?: number;
  readonly end_to_end_duration?: number;
  readonly num_subtasks?: number;
  readonly num_acknowledged_subtasks?: number;
}

/** One subtask of `GET /jobs/:jid/checkpoints/details/:cid/subtasks/:vid`: acknowledged, or still pending. */
export interface SubtaskCheckpointStatistics {
  readonly index: number;
  readonly status: string;
  readonly ack_timestamp?: number;
  readonly end_to_end_duration?: number;
  readonly state_size?: number;
  readonly checkpoint?: { readonly sync?: number; readonly async?: number };
  readonly alignment?: { readonly buffered?: number; readonly processed?: number; readonly persisted?: number; readonly duration?: number };
  readonly start_delay?: number;
  readonly unaligned_checkpoint?: boolean;
  readonly aborted?: boolean;
}

/** `GET /jobs/:jid/checkpoints/details/:cid/subtasks/:vid`. */
export interface TaskCheckpointDetails extends TaskCheckpointStatistics {
  readonly subtasks: readonly SubtaskCheckpointStatistics[];
}

/** `GET /jobs/:jid/checkpoints/config`. */
export interface CheckpointConfig {
  readonly mode?: string;
  readonly interval?: number;
  readonly timeout?: number;
  readonly min_pause?: number;
  readonly max_concurrent?: number;
  readonly externalization?: { readonly enabled?: boolean; readonly delete_on_cancellation?: boolean };
  readonly state_backend?: string;
  readonly checkpoint_storage?: string;
  readonly unaligned_checkpoints?: boolean;
  readonly tolerable_failed_checkpoints?: number;
  readonly aligned_checkpoint_timeout?: number;
  readonly checkpoints_after_tasks_finish?: boolean;
}

/** One entry of the exception history. */
export interface RootExceptionInfo {
  readonly exceptionName?: string;
  readonly stacktrace?: string;
  readonly timestamp?: number;
  readonly taskName?: string | null;
  readonly location?: string | null;
  readonly concurrentExceptions?: readonly RootExceptionInfo[];
}

/** `GET /jobs/:jid/exceptions`. */
export interface JobExceptions {
  readonly "root-exception"?: string | null;
  readonly timestamp?: number | null;
  readonly exceptionHistory?: { readonly entries: readonly RootExceptionInfo[]; readonly truncated?: boolean };
}

/** `GET /jobs/:jid/config`. */
export interface JobConfig {
  readonly jid?: string;
  readonly name?: string;
  readonly "execution-config"?: {
    readonly "execution-mode"?: string;
    readonly "restart-strategy"?: string;
    readonly "job-parallelism"?: number;
    readonly "object-reuse-mode"?: boolean;
    readonly "user-config"?: Readonly<Record<string, string>>;
  };
}

/** One metric of `GET …/metrics?get=…` (Flink sends the value as a string). */
export interface Metric {
  readonly id: string;
  readonly value: string;
}

/** One metric of `GET …/subtasks/metrics?get=…&agg=…`, aggregated over the subtasks. */
export interface AggregatedMetric {
  readonly id: string;
  readonly min?: number;
  readonly max?: number;
  readonly avg?: number;
  readonly sum?: number;
}

/** `GET /jobs/:jid/vertices/:vid/backpressure`. */
export interface VertexBackPressure {
  readonly status?: string;
  readonly "backpressure-level"?: "ok" | "low" | "high" | string;
  readonly subtasks?: readonly { readonly subtask: number; readonly ratio?: number; readonly busyRatio?: number; readonly idleRatio?: number }[];
}

/** `POST /jobs/:jid/savepoints` and `POST /jobs/:jid/stop`. */
export interface TriggerResponse {
  readonly "request-id": string;
}

/** `GET /jobs/:jid/savepoints/:rid`. */
export interface SavepointStatus {
  readonly status: { readonly id: "IN_PROGRESS" | "COMPLETED" | string };
  readonly operation?: { readonly location?: string; readonly "failure-cause"?: { readonly "stack-trace"?: string; readonly "serialized-throwable"?: string; readonly message?: string } };
}
