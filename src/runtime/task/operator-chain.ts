/**
 * The operators of one task, a tree rooted at the head, connected by plain
 * calls: an operator's output calls `processElement` of each operator chained
 * to it and emits to the record writers of its own edges to other vertices
 * (copies for all consumers but one unless objects are reused). With their
 * state backends: created, restored from a checkpoint, opened, snapshotted and
 * closed together, in topological order (open: reverse).
 */
import type { CheckpointBarrier, CompletedCheckpoint, OperatorSubtaskState, SharedStateRef } from "../../checkpoint/types.ts";
import { chainPredecessors, consumersIsolate } from "../../graph/job-graph.ts";
import type { StreamNode } from "../../graph/stream-graph.ts";
import {
  DiskKeyedStateBackend,
  type DiskStateSnapshot,
  type KeyedStateBackend,
  OperatorStateBackend,
  decodeStateValue,
  encodeStateValue,
  keyGroupRangeForSubtask,
  redistributeOperatorState,
  type StateSnapshot,
} from "../../state/index.ts";
import type { RecordWriter } from "../channel/record-writer.ts";
import { PlainDataError } from "../../state/plain-copy.ts";
import { PlainDataCopier } from "../../state/plain-shapes.ts";
import { RecordNotPlainDataError } from "../record-not-plain-data-error.ts";
import type { Counter } from "../../metrics/counter.ts";
import type { TaskSpec } from "../execution/execution-plan.ts";
import { isSourceOperator, type MailboxExecutor, type Output, type StreamOperator } from "../operators/stream-operator.ts";
import type { TaskResults, TaskServices } from "./task-services.ts";
import { createKeyedStateBackend } from "./create-keyed-state-backend.ts";
import { KeyedSnapshotChain } from "./keyed-snapshot-chain.ts";
import { CorruptCheckpointError } from "../../checkpoint/storage/errors.ts";
import { getLogger } from "../../util/logger.ts";
import type { ElementContext } from "../elements.ts";
import type { ProcessingTimeService } from "../../time/processing-time-service.ts";
import type { OperatorMetrics, TaskMetrics } from "./task-metrics.ts";

/** One operator of the chain with its state. */
interface ChainMember {
  readonly node: StreamNode;
  readonly operator: StreamOperator;
  readonly keyed?: KeyedStateBackend;
  readonly keyGroupRange?: readonly [number, number];
  readonly operatorState: OperatorStateBackend;
  /** The incremental chain of the keyed state (with incremental checkpoints). */
  readonly chain?: KeyedSnapshotChain;
  readonly metrics: OperatorMetrics;
}

/** The synchronous part of one operator's snapshot, to be written asynchronously. */
interface Capture {
  readonly member: ChainMember;
  readonly keyed?: StateSnapshot;
  /** With incremental checkpoints: the keyed state's chain once this snapshot's file is written. */
  readonly shared?: Promise<readonly SharedStateRef[]>;
  readonly operator: StateSnapshot;
}

export class OperatorChain {
  /** The operators that may refuse input for a while (async I/O). */
  private readonly gating: readonly StreamOperator[];

  private constructor(
    private readonly spec: TaskSpec,
    private readonly members: readonly ChainMember[],
    private readonly headOutput: Output<unknown>,
    private readonly headMetrics: OperatorMetrics,
  ) {
    this.gating = members.map((m) => m.operator).filter((op) => op.acceptsInput !== undefined);
  }

  /** False while an operator of the chain can take no more input (see `StreamOperator.acceptsInput`). */
  acceptsInput(): boolean {
    const ops = this.gating;
    for (let i = 0; i < ops.length; i++) if (!ops[i]!.acceptsInput!()) return false;
    return true;
  }

  /** The task's watermark advanced: the head operator fires what is due and forwards it along the chain. */
  processWatermark(timestamp: number): void {
    this.headMetrics.inputWatermark = timestamp;
    deliverWatermark(this.head, this.headOutput, timestamp);
  }

  /** The task's inputs went idle or became active: tell downstream. */
  emitWatermarkStatus(idle: boolean): void {
    this.head.processWatermarkStatus?.(idle);
    this.headOutput.emitWatermarkStatus(idle);
  }

  /** The first operator (the one fed by the input gate, or the source). */
  get head(): StreamOperator {
    return this.members[0]!.operator;
  }

  /** Creates the operators, restores their state and opens them (tail first). */
  static async create(
    spec: TaskSpec,
    writers: readonly RecordWriter[],
    services: TaskServices,
    results: TaskResults,
    element: ElementContext,
    processingTime: ProcessingTimeService,
    mailbox: MailboxExecutor,
    metrics: TaskMetrics,
  ): Promise<OperatorChain> {
    const v = spec.vertex;
    const backend = services.checkpointing.stateBackend ?? { type: "heap", incremental: false };
    const incremental = backend.incremental && services.storage.supportsSharedState;
    const members: ChainMember[] = v.nodes.map((node, i) => {
      const keyGroupRange = node.keySelector || node.keySelector2
        ? keyGroupRangeForSubtask(v.maxParallelism, v.parallelism, spec.subtaskIndex)
        : undefined;
      return {
        node,
        operator: node.createOperator() as StreamOperator,
        keyGroupRange,
        keyed: keyGroupRange
          ? createKeyedStateBackend(backend, {
              operatorUid: node.uid,
              subtaskIndex: spec.subtaskIndex,
              maxParallelism: v.maxParallelism,
              keyGroupRange,
              trackChanges: incremental,
              clock: services.clock,
            })
          : undefined,
        chain: keyGroupRange && incremental ? new KeyedSnapshotChain() : undefined,
        operatorState: new OperatorStateBackend({ operatorUid: node.uid }),
        metrics: metrics.operators[i]!,
      };
    });
    const preds = chainPredecessors(v);
    const outputs: Output<unknown>[] = [];
    for (let i = members.length - 1; i >= 0; i--) {
      const m = members[i]!;
      const chained: ChainedConsumer[] = [];
      for (let j = i + 1; j < members.length; j++) {
        if (preds[j] === i) chained.push({ operator: members[j]!.operator, output: outputs[j]!, metrics: members[j]!.metrics });
      }
      const edges = v.outputs.flatMap((e, k) => (e.sourceNode === m.node.id ? [[e.sideTag, writers[k]!] as const] : []));
      const taskOut = metrics.outputsCountedApart && (edges.length > 0 || chained.length === 0) ? metrics.numRecordsOut : undefined;
      // consumers that all leave records alone share them, as with object reuse
      outputs[i] = outputOf(m.node, edges, chained, m.metrics, taskOut, v.objectReuse || consumersIsolate(v, m.node.id, undefined));
    }
    const chain = new OperatorChain(spec, members, outputs[0]!, members[0]!.metrics);
    const restored = services.restore ? await chain.restore(services.restore, services) : false;
    for (let i = members.length - 1; i >= 0; i--) {
      const m = members[i]!;
      const output = outputs[i]!;
      await m.operator.open(
        {
          jobId: services.jobId,
          operatorUid: m.node.uid,
          operatorName: m.node.name,
          subtaskIndex: spec.subtaskIndex,
          parallelism: v.parallelism,
          maxParallelism: v.maxParallelism,
          attempt: services.attempt,
          isRestored: restored,
          keyedState: m.keyed,
          keySelector: m.node.keySelector,
          keySelector2: m.node.keySelector2,
          element,
          processingTime,
          mailbox,
          autoWatermarkIntervalMs: services.autoWatermarkIntervalMs,
          checkpointIntervalMs: services.checkpointing.intervalMs,
          operatorState: m.operatorState,
          clock: services.clock,
          metricGroup: m.metrics.group,
          sourceOverride: services.sourceOverrides?.[`${m.node.uid}#${spec.subtaskIndex}`],
          reportResult: (name, values) => {
            results[name] = values;
          },
        },
        output,
      );
    }
    return chain;
  }

  /** Before the barrier goes downstream, head first; a promise while an operator's pre-barrier work is asynchronous. */
  prepareSnapshotPreBarrier(checkpointId: number, from = 0): Promise<void> | undefined {
    for (let i = from; i < this.members.length; i++) {
      const pending = this.members[i]!.operator.prepareSnapshotPreBarrier?.(checkpointId);
      if (pending) return pending.then(() => this.prepareSnapshotPreBarrier(checkpointId, i + 1));
    }
    return undefined;
  }

  /**
   * Synchronous snapshot part: user hooks, then capture of every backend. With
   * incremental checkpoints a keyed backend's snapshot is a delta or a new
   * base of its chain, whose file is queued for writing now (chain order is
   * snapshot order); a savepoint is always a full, self-contained snapshot.
   */
  capture(barrier: CheckpointBarrier, services: TaskServices): Capture[] {
    const id = barrier.id;
    return this.members.map((m) => {
      m.operator.snapshotState?.(id);
      const operator = m.operatorState.snapshot(id);
      if (!m.keyed) return { member: m, operator };
      if (!m.chain || barrier.savepoint) return { member: m, keyed: m.keyed.snapshot(id), operator };
      const { keyed, shared } = m.chain.capture(id, m.keyed, (bytes) => services.storage.writeSharedState(id, m.node.uid, this.spec.subtaskIndex, bytes));
      shared.catch(() => {}); // awaited by write(); a failure before that must not go unhandled
      return { member: m, keyed, shared, operator };
    });
  }

  /** Asynchronous snapshot part: serialize and write every captured state. */
  async write(
    checkpointId: number,
    captures: readonly Capture[],
    services: TaskServices,
  ): Promise<OperatorSubtaskState[]> {
    const writes: Promise<OperatorSubtaskState>[] = [];
    try {
      // Serialization is CPU work done one operator after the other; the writes overlap.
      for (const c of captures) {
        const shared = c.shared ? await c.shared : undefined;
        const k = c.keyed && !shared ? await c.keyed.serialize() : undefined;
        const o = await c.operator.serialize();
        const uid = c.member.node.uid;
        if (c.keyed) c.member.metrics.stateBytes = k ? k.length : (shared ?? []).reduce((sum, ref) => sum + ref.size, 0);
        writes.push(
          services.storage.writeState(checkpointId, uid, this.spec.subtaskIndex, encodeStateValue({ k, o })).then((handle) => ({
            operatorUid: uid,
            subtaskIndex: this.spec.subtaskIndex,
            parallelism: this.spec.vertex.parallelism,
            maxParallelism: this.spec.vertex.maxParallelism,
            keyGroupRange: c.member.keyGroupRange,
            handle,
            ...(shared ? { shared } : {}),
            ...(c.keyed && "local" in c.keyed ? { local: (c.keyed as DiskStateSnapshot).local } : {}),
          })),
        );
      }
      return await Promise.all(writes);
    } finally {
      for (const c of captures) {
        c.keyed?.release();
        c.operator.release();
      }
    }
  }

  async notifyCheckpointComplete(checkpointId: number): Promise<void> {
    for (const m of this.members) await m.operator.notifyCheckpointComplete?.(checkpointId);
  }

  async notifyCheckpointAborted(checkpointId: number): Promise<void> {
    for (const m of this.members) await m.operator.notifyCheckpointAborted?.(checkpointId);
  }

  /**
   * End of input, head first (each operator's flush reaches the next one before it
   * finishes). An operator that still owes output after its `finish()` (requests in
   * flight) gets it through mails: `runMailsUntil` runs them until it owes nothing.
   */
  async finish(runMailsUntil: (done: () => boolean) => Promise<void>): Promise<void> {
    for (const m of this.members) {
      const op = m.operator;
      await op.finish?.();
      if (op.hasPendingWork) await runMailsUntil(() => !op.hasPendingWork!());
    }
  }

  /** Closes every operator; the first error is rethrown after all were closed. */
  async close(): Promise<void> {
    let first: unknown;
    for (const m of this.members) {
      try {
        await m.operator.close?.();
      } catch (e) {
        first ??= e;
      }
      m.keyed?.dispose();
    }
    if (first) throw first;
  }

  /** For a source chain: `uid#subtask` and the reader's current split positions. */
  sourcePositions(): [string, unknown[]] | undefined {
    const head = this.members[0]!;
    return isSourceOperator(head.operator)
      ? [`${head.node.uid}#${this.spec.subtaskIndex}`, head.operator.currentSplits()]
      : undefined;
  }

  /** Number of keys in keyed state over the chain (metrics). */
  numKeys(): number {
    let n = 0;
    for (const m of this.members) n += m.keyed?.numKeys() ?? 0;
    return n;
  }

  private async restore(checkpoint: CompletedCheckpoint, services: TaskServices): Promise<boolean> {
    const me = this.spec.subtaskIndex;
    for (const m of this.members) {
      const mine = checkpoint.states.filter((s) => s.operatorUid === m.node.uid);
      if (mine.length === 0) continue;
      const read = async (s: OperatorSubtaskState) =>
        decodeStateValue(await services.storage.readState(checkpoint, s.handle)) as { k?: Uint8Array; o: Uint8Array };
      if (m.keyed && m.keyGroupRange) {
        const [lo, hi] = m.keyGroupRange;
        const overlapping = mine.filter((s) => !s.keyGroupRange || (s.keyGroupRange[0] <= hi && s.keyGroupRange[1] >= lo));
        // The same key groups as one subtask of the checkpoint: its local store or its chain may be reused.
        const only = overlapping.length === 1 ? overlapping[0]! : undefined;
        const sameGroups = only?.keyGroupRange?.[0] === lo && only.keyGroupRange[1] === hi;
        const local = sameGroups ? localCopy(m.keyed, only.local) : undefined;
        if (local) {
          local.store.restoreLocal(local.id);
          getLogger().info(`operator '${m.node.uid}' subtask ${me}: keyed state of checkpoint ${checkpoint.checkpointId} from the local store ${local.store.localDirectory}`);
        } else {
          const blobs: Uint8Array[] = [];
          for (const s of overlapping) {
            if (s.shared) for (const ref of s.shared) blobs.push(await readShared(checkpoint, s, ref, services));
            else {
              const k = (await read(s)).k;
              if (k) blobs.push(k);
            }
          }
          m.keyed.restore(blobs);
        }
        if (m.chain && sameGroups && only.shared && services.storage.sharedStateReusable(checkpoint)) m.chain.adopt(only.shared);
      }
      const bySubtask = [...mine].sort((a, b) => a.subtaskIndex - b.subtaskIndex);
      const old: Uint8Array[] = [];
      for (const s of bySubtask) old[s.subtaskIndex] = (await read(s)).o;
      m.operatorState.restore(redistributeOperatorState(old, this.spec.vertex.parallelism)[me] ?? []);
    }
    return true;
  }
}

/** `keyed` when it is a disk backend whose local store holds exactly the snapshot `local` (local recovery). */
function localCopy(keyed: KeyedStateBackend, local: OperatorSubtaskState["local"]) {
  if (!(keyed instanceof DiskKeyedStateBackend) || local === undefined) return undefined;
  const held = keyed.localSnapshotId();
  return held !== undefined && held.checkpointId === local.checkpointId && held.token === local.token ? { store: keyed, id: local } : undefined;
}

/** One file of a subtask's incremental chain; a missing or damaged one is an error naming the file and the operator. */
async function readShared(checkpoint: CompletedCheckpoint, s: OperatorSubtaskState, ref: SharedStateRef, services: TaskServices): Promise<Uint8Array> {
  try {
    return await services.storage.readSharedState(checkpoint, ref);
  } catch (e) {
    if (e instanceof CorruptCheckpointError) {
      throw new CorruptCheckpointError(e.path, `${e.reason} (keyed state of operator '${s.operatorUid}', subtask ${s.subtaskIndex}, checkpoint ${checkpoint.checkpointId})`);
    }
    throw e;
  }
}

/** Gives a watermark to an operator, or forwards it when the operator has no use for it. */
function deliverWatermark(op: StreamOperator, output: Output<unknown>, timestamp: number): void {
  if (op.processWatermark) op.processWatermark(timestamp);
  else output.emitWatermark(timestamp);
}

/** An operator chained to another one: it takes that one's records by call. */
interface ChainedConsumer {
  readonly operator: StreamOperator;
  readonly output: Output<unknown>;
  readonly metrics: OperatorMetrics;
}

/**
 * The output of one operator of the chain: main records to the writers of its main-output edges, then to the
 * operators chained to it; side records by tag to its side-output edges; all counted in its `metrics` (and in
 * `taskOut` too when several operators of the chain emit out of the task).
 *
 * Where a record goes to several consumers, each but the last gets its own copy unless the job reuses
 * objects or every consumer leaves its records alone (`reuse`; `StreamNode.isolatesInput`): the writers, called first, copy it (stream-task.ts gives them `copy` when the operator
 * also feeds chained operators), and each chained operator but the last gets a copy made with the same copy
 * as the writers' (the source's own `copyRecord` for a source's records, else a plain-data copy compiled for
 * the records' shapes), taken before any consumer ran, so no consumer's mutation reaches another.
 */
function outputOf(
  node: StreamNode,
  edges: readonly (readonly [string | undefined, RecordWriter])[],
  chained: readonly ChainedConsumer[],
  metrics: OperatorMetrics,
  taskOut: Counter | undefined,
  reuse: boolean,
): Output<unknown> {
  const counted = metrics.numRecordsOut;
  const main = edges.filter(([tag]) => tag === undefined).map(([, w]) => w);
  const side = new Map<string, RecordWriter[]>();
  for (const [tag, w] of edges) if (tag !== undefined) side.set(tag, [...(side.get(tag) ?? []), w]);
  const collectSide = (tagId: string, x: unknown) => {
    const ws = side.get(tagId);
    if (ws) for (const w of ws) w.emit(x);
  };
  const all = edges.map(([, w]) => w);
  const emitWatermark = (timestamp: number) => {
    metrics.outputWatermark = timestamp;
    for (const w of all) w.emitEvent({ kind: "watermark", timestamp });
    for (const c of chained) {
      c.metrics.inputWatermark = timestamp;
      deliverWatermark(c.operator, c.output, timestamp);
    }
  };
  const emitWatermarkStatus = (idle: boolean) => {
    for (const w of all) w.emitEvent({ kind: "watermark-status", idle });
    for (const c of chained) {
      c.operator.processWatermarkStatus?.(idle);
      c.output.emitWatermarkStatus(idle);
    }
  };
  const output = (collect: (x: unknown) => void): Output<unknown> => ({ collect, collectSide, emitWatermark, emitWatermarkStatus });
  if (chained.length === 0) {
    if (main.length === 1) {
      const w = main[0]!;
      if (taskOut) {
        return output((x) => {
          w.emit(x);
          counted.count++;
          taskOut.count++;
        });
      }
      return output((x) => {
        w.emit(x);
        counted.count++;
      });
    }
    return output((x) => {
      for (const w of main) w.emit(x);
      counted.count++;
      if (taskOut) taskOut.count++;
    });
  }
  if (chained.length === 1 && main.length === 0) {
    const next = chained[0]!.operator;
    // the operator's numRecordsOut is the next one's numRecordsIn: one count, after the record was taken
    return output((x) => {
      next.processElement(x);
      counted.count++;
    });
  }
  const ops = chained.map((c) => c.operator);
  const last = ops.length - 1;
  if (reuse) {
    return output((x) => {
      for (const w of main) w.emit(x);
      for (let k = 0; k <= last; k++) ops[k]!.processElement(x);
      counted.count++;
      if (taskOut) taskOut.count++;
    });
  }
  // one copy per chained consumer but the last, each compiled for its own consumer's stream of records
  const copies = ops.slice(0, last).map(() => copyOfRecords(node));
  const producer = `operator '${node.name}' (uid '${node.uid}')`;
  return output((x) => {
    for (const w of main) w.emit(x);
    for (let k = 0; k < last; k++) {
      let copy: unknown;
      try {
        copy = copies[k]!(x);
      } catch (e) {
        throw e instanceof PlainDataError ? new RecordNotPlainDataError(producer, e) : e;
      }
      ops[k]!.processElement(copy);
    }
    ops[last]!.processElement(x);
    counted.count++;
    if (taskOut) taskOut.count++;
  });
}

/** The copy of `node`'s records that a record writer of its output uses (record-writer.ts): the source's own, or a compiled plain-data copy. */
function copyOfRecords(node: StreamNode): (record: unknown) => unknown {
  if (node.copyRecord) return node.copyRecord;
  const copier = new PlainDataCopier();
  return (record) => copier.copy(record);
}
