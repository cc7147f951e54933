/**
 * The built-in metrics of one subtask and of its operators, with Flink's
 * names, in the thread's registry. The task and the chain update plain
 * fields (counters, the watermark); rates and times per second are computed
 * when a snapshot is taken.
 */
import { Counter } from "../../metrics/counter.ts";
import { Meter } from "../../metrics/meter.ts";
import type { ScopedMetricGroup } from "../../metrics/metric-group.ts";
import type { MetricRegistry } from "../../metrics/metric-registry.ts";
import { END_WATERMARK_VALUE, NO_WATERMARK_VALUE } from "../../metrics/metric-snapshot.ts";
import { TimeMeter } from "../../metrics/time-meter.ts";
import { operatorHexId } from "../../graph/operator-hex-id.ts";
import type { StreamNode } from "../../graph/stream-graph.ts";
import { vertexHexId } from "../../graph/vertex-hex-id.ts";
import { chainPredecessors, type JobVertex } from "../../graph/job-graph.ts";
import { vertexName } from "../../graph/vertex-name.ts";
import type { TaskSpec } from "../execution/execution-plan.ts";

/** Where a task's metrics are registered. */
export interface TaskMetricsScope {
  readonly registry: MetricRegistry;
  readonly jobId: string;
  readonly jobName: string;
  /** "worker-0", … or "in-process". */
  readonly taskManagerId: string;
}

/** The metrics of one operator of a chain. */
export class OperatorMetrics {
  /** Also the task's `numRecordsIn` for the head operator. */
  readonly numRecordsIn: Counter;
  /** Also the `numRecordsIn` of the operators chained to it, and the task's `numRecordsOut` when it is the only one emitting out of the task. */
  readonly numRecordsOut: Counter;
  inputWatermark = NO_WATERMARK_VALUE;
  outputWatermark = NO_WATERMARK_VALUE;
  /** Bytes of the operator's state in its last checkpoint. */
  stateBytes = 0;

  constructor(
    readonly group: ScopedMetricGroup,
    numRecordsIn: Counter,
    numRecordsOut: Counter,
  ) {
    this.numRecordsIn = group.counter("numRecordsIn", numRecordsIn);
    this.numRecordsOut = group.counter("numRecordsOut", numRecordsOut);
    group.meter("numRecordsInPerSecond", new Meter(numRecordsIn));
    group.meter("numRecordsOutPerSecond", new Meter(numRecordsOut));
    group.gauge("currentInputWatermark", () => watermarkValue(this.inputWatermark));
    group.gauge("currentOutputWatermark", () => watermarkValue(this.outputWatermark));
    group.gauge("watermarkLag", () => (Number.isFinite(this.outputWatermark) && this.outputWatermark !== NO_WATERMARK_VALUE ? Date.now() - this.outputWatermark : undefined));
    group.gauge("stateSize", () => this.stateBytes);
  }
}

/** The metrics of one subtask. */
export class TaskMetrics {
  readonly group: ScopedMetricGroup;
  readonly numRecordsIn = new Counter();
  readonly numRecordsOut = new Counter();
  readonly numBytesIn = new Counter();
  readonly numBytesOut = new Counter();
  readonly idle = new TimeMeter();
  readonly backPressure = new TimeMeter();
  /** The task's input watermark. */
  watermark = NO_WATERMARK_VALUE;
  /** Duration of the last barrier alignment, in ms. */
  alignmentMs = 0;
  /** One per chained operator, in the order of the vertex's nodes. */
  readonly operators: readonly OperatorMetrics[];
  /**
   * True when several operators of the chain emit out of the task (`taskOutputMembers`): each counts its
   * records in its own `numRecordsOut` and adds them to the task's. Otherwise the one that does shares its counter with the task.
   */
  readonly outputsCountedApart: boolean;

  /** @param queued messages waiting in the task's input channels */
  constructor(spec: TaskSpec, scope: TaskMetricsScope, queued: () => number) {
    const v = spec.vertex;
    this.group = scope.registry.group({
      jobId: scope.jobId,
      jobName: scope.jobName,
      vertexId: vertexHexId(v),
      taskName: vertexName(v),
      subtaskIndex: spec.subtaskIndex,
      taskManagerId: scope.taskManagerId,
    });
    const g = this.group;
    g.counter("numRecordsIn", this.numRecordsIn);
    g.counter("numRecordsOut", this.numRecordsOut);
    g.meter("numRecordsInPerSecond", new Meter(this.numRecordsIn));
    g.meter("numRecordsOutPerSecond", new Meter(this.numRecordsOut));
    g.counter("numBytesIn", this.numBytesIn);
    g.counter("numBytesOut", this.numBytesOut);
    g.meter("numBytesInPerSecond", new Meter(this.numBytesIn));
    g.meter("numBytesOutPerSecond", new Meter(this.numBytesOut));
    g.meter("idleTimeMsPerSecond", this.idle);
    g.meter("backPressuredTimeMsPerSecond", this.backPressure);
    g.gauge("busyTimeMsPerSecond", () => Math.max(0, 1000 - this.idle.getRate() - this.backPressure.getRate()));
    g.gauge("currentInputWatermark", () => watermarkValue(this.watermark));
    // Flink reports the alignment in nanoseconds
    g.gauge("checkpointAlignmentTime", () => this.alignmentMs * 1e6);
    g.gauge("inputQueueLength", queued);
    const nodes = v.nodes;
    const preds = chainPredecessors(v);
    const emitting = taskOutputMembers(v, preds);
    // one emitting operator shares its counter with the task; several count into their own and the task's
    this.outputsCountedApart = emitting.length > 1;
    const ops: OperatorMetrics[] = [];
    for (let i = 0; i < nodes.length; i++) {
      const input = i === 0 ? this.numRecordsIn : ops[preds[i]!]!.numRecordsOut;
      const output = !this.outputsCountedApart && emitting[0] === i ? this.numRecordsOut : new Counter();
      ops.push(new OperatorMetrics(operatorGroup(g, nodes[i]!), input, output));
    }
    this.operators = ops;
  }

  /** Removes the task's metrics from the registry (the task ended; a new attempt registers its own). */
  close(): void {
    for (const op of this.operators) op.group.close();
    this.group.close();
  }
}

/** A watermark as Flink reports it: the end of input (+∞) is Long.MAX_VALUE, none yet (-∞) Long.MIN_VALUE; always a finite number (JSON). */
function watermarkValue(watermark: number): number {
  if (watermark === Number.POSITIVE_INFINITY) return END_WATERMARK_VALUE;
  return watermark === Number.NEGATIVE_INFINITY ? NO_WATERMARK_VALUE : watermark;
}

function operatorGroup(task: ScopedMetricGroup, node: StreamNode): ScopedMetricGroup {
  return task.child({ operatorId: operatorHexId(node.uid), operatorName: node.name });
}

/**
 * The members (indices into `vertex.nodes`) whose records count as the task's `numRecordsOut`: those with edges to
 * other vertices, and those no operator is chained to (in a line: the tail).
 */
function taskOutputMembers(vertex: JobVertex, preds: readonly number[]): number[] {
  const fed = new Set(preds);
  const writing = new Set(vertex.outputs.map((e) => e.sourceNode));
  return vertex.nodes.flatMap((n, i) => (writing.has(n.id) || !fed.has(i) ? [i] : []));
}
