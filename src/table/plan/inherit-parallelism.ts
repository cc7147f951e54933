/**
 * Stateless table operators run at their input's parallelism, as Flink's
 * planner gives them: a changelog keeps its order only over forward
 * edges, and a rebalance between a parallelism-1 input and the default
 * parallelism would let a row's retraction overtake the row.
 */
import type { DataStream, SingleOutputStreamOperator } from "../../api/data-stream.ts";

/** `out` (created on `input`) set to `input`'s parallelism when that was set explicitly. */
export function withInputParallelism<T, I>(out: SingleOutputStreamOperator<T>, input: DataStream<I>): SingleOutputStreamOperator<T> {
  if (input.upstreams.length !== 1) return out;
  const p = input.getExecutionEnvironment().graph.node(input.upstreams[0]!.node).parallelism;
  return p === undefined ? out : out.setParallelism(p);
}
