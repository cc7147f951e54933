/**
 * The settings of one operator — uid, name, parallelism, chaining — validated
 * at the call that sets them (so an error points at that line). Shared by
 * SingleOutputStreamOperator and DataStreamSink.
 */
import type { StreamNode } from "../graph/stream-graph.ts";

/** Validates a parallelism at the call that sets it. */
export function checkParallelism(what: string, n: number, operator: string): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`${what} of '${operator}' must be a whole number ≥ 1, got ${n}`);
  return n;
}

/**
 * Configures the operator a builder stands for.
 *
 * @example
 * ```ts
 * stream.sinkTo(FileSink.forLines("out/")).uid("out").name("Output files").setParallelism(2);
 * ```
 */
export class OperatorSettings {
  /** @internal */
  constructor(protected readonly node: StreamNode) {}

  /** @internal The operator's node in the stream graph. */
  nodeId(): number {
    return this.node.id;
  }

  /** Stable id of the operator's state: keep it when changing the job so state is restored. */
  uid(uid: string): this {
    this.node.uid = uid;
    this.node.uidGenerated = false;
    return this;
  }

  /** Name shown in logs, errors and the dashboard. */
  name(name: string): this {
    this.node.name = name;
    return this;
  }

  /**
   * A longer description of the operator, shown in the job's plan (REST `/jobs/:jid`, the dashboard) in place of
   * its name (Flink's `setDescription`).
   *
   * @example
   * ```ts
   * stream.filter((o) => o.amount > 0).name("positive").setDescription("drops refunds (amount <= 0)");
   * ```
   */
  setDescription(description: string): this {
    this.node.description = description;
    return this;
  }

  setParallelism(parallelism: number): this {
    this.node.parallelism = checkParallelism("parallelism", parallelism, this.node.name);
    return this;
  }

  setMaxParallelism(maxParallelism: number): this {
    this.node.maxParallelism = checkParallelism("max parallelism", maxParallelism, this.node.name);
    return this;
  }

  /** Runs the operator in its own task instead of chaining it to its predecessor. */
  disableChaining(): this {
    this.node.chainable = false;
    return this;
  }
}
