/**
 * The logical dataflow the API builds: one node per operator (source,
 * transformation or sink) and one edge per input, with its partitioning.
 * Nodes carry pure data (fingerprinted and compared between threads) plus the
 * closures that create the operator and select keys, which never cross threads:
 * every thread rebuilds the same graph from the job module.
 */

/** How records of an edge are distributed over the consumer's parallel subtasks. */
export type Partitioning = "forward" | "rebalance" | "hash" | "broadcast";

/** Extracts the key of a record (keyBy). */
export type KeySelector<T = unknown, K = unknown> = (value: T) => K;

/** An input of a node. */
export interface StreamEdge {
  readonly from: number;
  readonly partitioning: Partitioning;
  /** For `hash` partitioning. */
  readonly keySelector?: KeySelector;
  /** Set when the edge carries a side output of `from` instead of its main output. */
  readonly sideTag?: string;
  /** Which input of a two-input operator the edge feeds (0, the default, or 1). */
  readonly inputSide?: 0 | 1;
}

/** One operator of the logical dataflow. */
export interface StreamNode {
  readonly id: number;
  /** Stable identity of the operator's state across runs (user-given with `.uid()`, or generated). */
  uid: string;
  /** True when `uid` was generated (changing the job may then orphan its state). */
  uidGenerated: boolean;
  name: string;
  /** A longer description for the job's plan (`setDescription`; SQL operators: the plan node and its changelog mode). Not part of the fingerprint. */
  description?: string;
  /**
   * The operator leaves the records it is given alone: it never changes one, and nothing it emits or
   * hands on holds a record's objects (its rows are new and their values immutable). Consumers of one
   * output that all do so share each record instead of a copy each (set by the table planner for its
   * joins and aggregations over rows of immutable values).
   */
  isolatesInput?: boolean;
  /** Operator kind, e.g. "map", "keyed-process", "source", "sink". Part of the fingerprint. */
  readonly type: string;
  /** Explicit parallelism, or undefined for the environment default. */
  parallelism?: number;
  maxParallelism?: number;
  readonly inputs: StreamEdge[];
  /** Whether the node may be chained to its predecessor. */
  chainable: boolean;
  /** True for source nodes. */
  readonly isSource: boolean;
  /** Set for nodes whose operator uses keyed state (its input is hash partitioned). */
  readonly keySelector?: KeySelector;
  /** Key selector of the second input of a keyed two-input operator. */
  readonly keySelector2?: KeySelector;
  /**
   * A source node whose records reach its outputs as its readers made them (no user code sees them in the
   * source operator): their deep copy, given by the source, trusted to be plain data (`Source.copyRecord`).
   */
  readonly copyRecord?: (record: unknown) => unknown;
  /** A source node whose watermark strategy aligns its subtasks' watermarks: the alignment group (`withWatermarkAlignment`). */
  readonly alignmentGroup?: string;
  /** Creates a fresh operator instance (one per parallel subtask and attempt). */
  readonly createOperator: () => object;
  /**
   * Checks the job's client runs before the job starts (never in a worker), e.g. a connector's look at its
   * external system: the table exists, the columns fit, the login works. A rejection is the launch's error.
   */
  launchCheck?: () => Promise<void>;
}

/** The nodes of a job, in creation order (a topological order). */
export class StreamGraph {
  readonly nodes: StreamNode[] = [];
  private readonly detached = new Set<number>();

  /** Adds a node; its id is its position. */
  add(node: Omit<StreamNode, "id" | "uid" | "uidGenerated"> & { uid?: string }): StreamNode {
    const id = this.nodes.length;
    const full: StreamNode = {
      ...node,
      id,
      uid: node.uid ?? `${node.type}-${id}`,
      uidGenerated: node.uid === undefined,
    };
    this.nodes.push(full);
    return full;
  }

  node(id: number): StreamNode {
    const n = this.nodes[id];
    if (!n) throw new Error(`no stream node ${id}`);
    return n;
  }

  /** Ids of the nodes that consume `id`'s output, with the edge. */
  consumers(id: number): { node: StreamNode; edge: StreamEdge }[] {
    const out: { node: StreamNode; edge: StreamEdge }[] = [];
    for (const n of this.nodes) for (const e of n.inputs) if (e.from === id) out.push({ node: n, edge: e });
    return out;
  }

  /**
   * Marks the sinks of a job that runs on its own (a SQL job started by the
   * table API): jobs of the whole program leave them out, and what only they
   * consume.
   */
  detach(ids: Iterable<number>): void {
    for (const id of ids) this.detached.add(id);
  }

  /** The nodes `roots` consume, directly or not, and the roots, renumbered in order: the graph of one job. */
  subgraph(roots: readonly number[]): StreamGraph {
    const keep = new Set<number>();
    const visit = (id: number) => {
      if (keep.has(id)) return;
      keep.add(id);
      for (const e of this.node(id).inputs) visit(e.from);
    };
    roots.forEach(visit);
    const ids = [...keep].sort((a, b) => a - b);
    const renumbered = new Map(ids.map((id, i) => [id, i]));
    const g = new StreamGraph();
    for (const id of ids) {
      const n = this.node(id);
      g.nodes.push({ ...n, id: renumbered.get(id)!, inputs: n.inputs.map((e) => ({ ...e, from: renumbered.get(e.from)! })) });
    }
    return g;
  }

  /** The graph of the whole program: all of it, or without detached sinks and what only they consume. */
  attached(): StreamGraph {
    if (this.detached.size === 0) return this;
    const consumed = new Set(this.nodes.flatMap((n) => n.inputs.map((e) => e.from)));
    return this.subgraph(this.nodes.filter((n) => !consumed.has(n.id) && !this.detached.has(n.id)).map((n) => n.id));
  }
}
