/**
 * The exactly-once Kafka sink on the project's two-phase-commit base: one Kafka transaction per subtask
 * per checkpoint, each with its own transactional id `${prefix}-${subtaskIndex}-${n}` and its own
 * producer. Records are sent while the transaction is open; `flush` (before the barrier) waits until all
 * are acknowledged and records the producer id and epoch in the handle; the checkpoint's completion
 * commits it with the live producer. After a crash, `recoverAndCommit` commits a stored transaction with
 * EndTxn(commit) alone, and the transactions that attempts after the restored checkpoint (or earlier runs
 * with the same prefix) left open are found on the brokers and aborted. After every commit or abort the
 * sink checks that no partition the transaction wrote still holds it open, and writes the markers a
 * coordinator skipped (kafka-transaction-markers.ts): the sink never leaves a transaction hanging.
 */
import type { Producer } from "@platformatic/kafka";

type Transaction = Awaited<ReturnType<Producer["beginTransaction"]>>;
import type { SinkContext } from "../../core/sink.ts";
import { TwoPhaseCommitSink } from "../transactional/two-phase-commit-sink.ts";
import type { RestoredUserContext, TransactionContext } from "../transactional/transaction-context.ts";
import { kafkaModule } from "./kafka-client.ts";
import { topicExists } from "./kafka-topic-check.ts";
import { queuedRecord } from "./kafka-queued-record.ts";
import { KafkaSendQueue, type BatchSender } from "./kafka-send-queue.ts";
import { clientOptions, type KafkaSinkSettings } from "./kafka-sink-settings.ts";
import { abortTransactionById, brokerErrorId, commitStoredTransaction, listOngoingTransactions, timeoutRefused } from "./kafka-transaction-admin.ts";
import { lingeringIds, parseTransactionalId, transactionalId } from "./kafka-transactional-ids.ts";
import { ensureTransactionClosed } from "./kafka-transaction-markers.ts";

/** The handle of one Kafka transaction, stored in checkpoints (plain data). */
export interface KafkaTransaction {
  readonly transactionalId: string;
  /** The producer id the broker assigned ("-1" while the transaction has no producer: no records yet). A decimal string (int64). */
  producerId: string;
  /** The producer epoch (-1 while unknown). */
  epoch: number;
  /** The partitions it wrote (set by the flush; absent in handles of older checkpoints). */
  partitions?: Record<string, number[]>;
}

/** What each subtask keeps in checkpoints: the counter `n` of its next transactional id. */
export interface KafkaSinkUserContext {
  nextTransaction: number;
}

/** A transaction open longer than `transaction.timeout.ms` at its checkpoint: the broker aborts it. */
export class KafkaTransactionTimeoutError extends Error {
  constructor(operatorUid: string, transactionalId: string, openMs: number, timeoutMs: number, what: "open" | "interval" = "open") {
    super(
      (what === "interval"
        ? `KafkaSink '${operatorUid}': the checkpoint interval of ${openMs} ms is `
        : `KafkaSink '${operatorUid}': transaction '${transactionalId}' was open for ${openMs} ms at its checkpoint barrier, `) +
        `not less than transaction.timeout.ms = ${timeoutMs} ms: the broker aborts a transaction after this timeout, losing its records. ` +
        "Checkpoint well within the timeout (execution.checkpointing.interval, --checkpoint-interval, env.enableCheckpointing(ms)) " +
        "or raise the sink's 'transaction.timeout.ms' (at most the broker's transaction.max.timeout.ms)",
    );
    this.name = "KafkaTransactionTimeoutError";
  }
}

/** The live side of an open or pre-committed transaction of this process. */
interface LiveTransaction {
  readonly queue: KafkaSendQueue;
  producer?: Producer;
  transaction?: Transaction;
  /** When its first record was taken (the broker's timeout runs from its first write). */
  firstRecordAt?: number;
  /** The partitions acknowledged sends went to. */
  readonly written: Map<string, Set<number>>;
}

function plainPartitions(written: Map<string, Set<number>>): Record<string, number[]> {
  return Object.fromEntries([...written].map(([topic, ps]) => [topic, [...ps].sort((a, b) => a - b)]));
}

/** The exactly-once Kafka sink (built by `KafkaSink.builder()` with `DeliveryGuarantee.EXACTLY_ONCE`). */
export class KafkaTransactionalSink<T> extends TwoPhaseCommitSink<T, KafkaTransaction, KafkaSinkUserContext> {
  private readonly live = new Map<string, LiveTransaction>();
  private readonly prefix: string;

  constructor(private readonly settings: KafkaSinkSettings<T>) {
    super({ transactionTimeoutMs: settings.transactionTimeoutMs });
    this.prefix = settings.transactionalIdPrefix!;
  }

  /** The next id is above every restored one (of any old subtask), so no id repeats along the job's lineage. */
  override initializeUserContext(ctx: SinkContext, restored: readonly RestoredUserContext<KafkaSinkUserContext>[]): KafkaSinkUserContext {
    const interval = ctx.checkpointIntervalMs ?? 0;
    const timeout = this.settings.transactionTimeoutMs;
    if (interval >= timeout) throw new KafkaTransactionTimeoutError(ctx.operatorUid, `${this.prefix}-*`, interval, timeout, "interval");
    return { nextTransaction: Math.max(0, ...restored.map((r) => r.userContext?.nextTransaction ?? 0)) };
  }

  beginTransaction(ctx: TransactionContext<KafkaSinkUserContext>): KafkaTransaction {
    const id = transactionalId(this.prefix, ctx.subtaskIndex, ctx.userContext.nextTransaction++);
    const live: LiveTransaction = {
      written: new Map(),
      queue: new KafkaSendQueue(`KafkaSink '${ctx.operatorUid}' transaction '${id}'`, () => this.open(id, live, ctx), this.settings.maxRequestSize, this.settings.bufferMemory),
    };
    this.live.set(id, live);
    return { transactionalId: id, producerId: "-1", epoch: -1 };
  }

  invoke(txn: KafkaTransaction, value: T, ctx: TransactionContext<KafkaSinkUserContext>): void {
    const r = queuedRecord(this.settings.serializer, value);
    if (r === undefined) return;
    const live = this.liveOf(txn);
    live.firstRecordAt ??= ctx.clock.now();
    live.queue.add(r);
  }

  override blocked(txn: KafkaTransaction): Promise<void> | undefined {
    return this.live.get(txn.transactionalId)?.queue.blocked();
  }

  /** Before the barrier: every record acknowledged, the producer id and epoch recorded in the handle. */
  override async flush(txn: KafkaTransaction, ctx: TransactionContext<KafkaSinkUserContext>): Promise<void> {
    const live = this.liveOf(txn);
    if (live.firstRecordAt === undefined) return;
    const openMs = ctx.clock.now() - live.firstRecordAt;
    if (openMs >= this.settings.transactionTimeoutMs)
      throw new KafkaTransactionTimeoutError(ctx.operatorUid, txn.transactionalId, openMs, this.settings.transactionTimeoutMs);
    await live.queue.drained();
    txn.producerId = String(live.producer!.producerId);
    txn.epoch = live.producer!.producerEpoch!;
    txn.partitions = plainPartitions(live.written);
  }

  /** The durable part ran in `flush`; here only the check that nothing was written after it. */
  preCommit(txn: KafkaTransaction): void {
    const live = this.live.get(txn.transactionalId);
    if (live?.firstRecordAt !== undefined && txn.producerId === "-1")
      throw new Error(`KafkaSink: transaction '${txn.transactionalId}' reached its pre-commit without a flush (records not acknowledged)`);
  }

  async commit(txn: KafkaTransaction, ctx: TransactionContext<KafkaSinkUserContext>, checkpointId: number): Promise<void> {
    const live = this.live.get(txn.transactionalId);
    if (live?.transaction === undefined) {
      if (txn.producerId !== "-1") await this.recoverAndCommit(txn, ctx, checkpointId);
      this.live.delete(txn.transactionalId);
      return;
    }
    await live.transaction.commit();
    this.live.delete(txn.transactionalId);
    await live.producer!.close().catch(() => undefined);
    await this.ensureClosed(txn, ctx, true);
  }

  /** After EndTxn: every partition the transaction wrote got its marker (writes those the coordinator skipped). */
  private async ensureClosed(txn: KafkaTransaction, ctx: TransactionContext<KafkaSinkUserContext>, commit: boolean): Promise<void> {
    if (txn.partitions === undefined) return;
    const repaired = await ensureTransactionClosed(this.settings, { transactionalId: txn.transactionalId, producerId: BigInt(txn.producerId), epoch: txn.epoch }, txn.partitions, commit);
    if (repaired.length > 0)
      ctx.logger.warn(
        `Kafka transaction '${txn.transactionalId}' was ${commit ? "committed" : "aborted"} but its coordinator wrote no marker to ${repaired.join(", ")} ` +
          `(a partition without a leader then, e.g. its broker shutting down): wrote the ${commit ? "COMMIT" : "ABORT"} marker there`,
      );
  }

  /** Close: aborts the open transaction; the producers of pre-committed ones are closed, their transactions left to recovery. */
  async abort(txn: KafkaTransaction, ctx: TransactionContext<KafkaSinkUserContext>): Promise<void> {
    const live = this.live.get(txn.transactionalId);
    this.live.delete(txn.transactionalId);
    if (live?.transaction !== undefined) await this.abortLive(txn, live, ctx);
    else await live?.producer?.close().catch(() => undefined);
    for (const [id, other] of this.live) {
      if (parseTransactionalId(this.prefix, id)?.subtask !== ctx.subtaskIndex) continue;
      this.live.delete(id);
      await other.producer?.close().catch(() => undefined);
    }
  }

  /**
   * Ends the open transaction of `live` so that nothing of it can land afterwards: EndTxn(abort) once no
   * send is in flight (then its markers are checked); if a send is still in flight after
   * `request.timeout.ms`, or the abort fails, the producer is fenced by InitProducerId on its transactional
   * id (the coordinator aborts the transaction; a late send with the old epoch is refused).
   */
  private async abortLive(txn: KafkaTransaction, live: LiveTransaction, ctx: TransactionContext<KafkaSinkUserContext>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const idle = await Promise.race([
      live.queue.stop().then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), this.settings.requestTimeoutMs))),
    ]);
    clearTimeout(timer);
    const producer = live.producer!;
    const handle: KafkaTransaction = { ...txn, producerId: String(producer.producerId ?? -1), epoch: producer.producerEpoch ?? -1, partitions: plainPartitions(live.written) };
    let ended = false;
    if (idle) {
      try {
        await live.transaction!.abort();
        ended = true;
      } catch (e) {
        ctx.logger.warn(`aborting Kafka transaction '${txn.transactionalId}' failed, fencing its producer instead: ${String(e)}`);
      }
    }
    await producer.close().catch(() => undefined);
    try {
      if (!ended) await abortTransactionById(this.settings, txn.transactionalId);
      if (handle.producerId !== "-1") await this.ensureClosed(handle, ctx, false);
    } catch (e) {
      ctx.logger.warn(`aborting Kafka transaction '${txn.transactionalId}' failed (the next start aborts it): ${String(e)}`);
    }
  }

  /** Commits a stored transaction by EndTxn(commit) with its id, producer id and epoch, without InitProducerId. */
  override async recoverAndCommit(txn: KafkaTransaction, ctx: TransactionContext<KafkaSinkUserContext>, checkpointId: number): Promise<void> {
    if (txn.producerId === "-1") return;
    const outcome = await commitStoredTransaction(this.settings, { transactionalId: txn.transactionalId, producerId: BigInt(txn.producerId), epoch: txn.epoch });
    if (outcome === "committed") {
      ctx.logger.info(`committed Kafka transaction '${txn.transactionalId}' of checkpoint ${checkpointId}`);
      await this.ensureClosed(txn, ctx, true);
      return;
    }
    ctx.logger.warn(
      `Kafka transaction '${txn.transactionalId}' (producer id ${txn.producerId}, epoch ${txn.epoch}) of checkpoint ${checkpointId} ` +
        `could not be committed: the broker answered ${outcome.refused}. Either it was committed before (its records are visible), ` +
        `or the broker aborted it after transaction.timeout.ms = ${this.settings.transactionTimeoutMs} ms (the job was down longer; its records are lost). Going on.`,
    );
  }

  /** The restored open transaction: aborted with the other leftovers (it may have got records after the checkpoint). */
  override recoverAndAbort(): void {}

  /** Aborts the open transactions of this prefix that no restored checkpoint owns (of old subtasks in this subtask's care). */
  override async cleanupLeftovers(ctx: TransactionContext<KafkaSinkUserContext>, restored: readonly KafkaTransaction[]): Promise<void> {
    const keep = new Set(restored.filter((t) => t.producerId !== "-1").map((t) => t.transactionalId));
    const ongoing = await listOngoingTransactions(this.settings);
    for (const id of lingeringIds(this.prefix, ctx.subtaskIndex, ctx.parallelism, ongoing, keep)) {
      await abortTransactionById(this.settings, id);
      ctx.logger.info(`aborted lingering Kafka transaction '${id}'`);
    }
  }

  private liveOf(txn: KafkaTransaction): LiveTransaction {
    const live = this.live.get(txn.transactionalId);
    if (live === undefined) throw new Error(`KafkaSink: transaction '${txn.transactionalId}' is not open in this process`);
    return live;
  }

  /** The producer of transaction `id`: InitProducerId on its id, then the transaction begins. */
  private async open(id: string, live: LiveTransaction, ctx: SinkContext): Promise<BatchSender> {
    const { Producer } = await kafkaModule();
    const s = this.settings;
    // The client sends its `timeout` option as InitProducerId's transaction timeout (and as Produce's
    // broker-side ack timeout, which the connection's request.timeout.ms bounds), and its `producerId` /
    // `producerEpoch` options as InitProducerId's expected ones: -1 asks for the id's current producer (its
    // default 0 is refused with PRODUCER_FENCED when the id was used before, e.g. by a run before a crash).
    // Both pinned by test/kafka-sink-client.test.ts.
    const producer = new Producer({
      ...clientOptions(s, `${s.clientId}-${ctx.operatorUid}-${ctx.subtaskIndex}`),
      transactionalId: id,
      idempotent: true,
      timeout: s.transactionTimeoutMs,
      producerId: -1n,
      producerEpoch: -1,
    });
    live.producer = producer;
    try {
      live.transaction = await producer.beginTransaction();
    } catch (e) {
      if (brokerErrorId(e, ["INVALID_TRANSACTION_TIMEOUT"]) !== undefined) throw timeoutRefused(s);
      throw e;
    }
    const transaction = live.transaction;
    return {
      send: async (messages) => {
        const result = await transaction.send({ messages });
        for (const o of result.offsets ?? []) {
          const ps = live.written.get(o.topic) ?? new Set<number>();
          ps.add(o.partition);
          live.written.set(o.topic, ps);
        }
      },
      partitionCount: async (topic) => (await producer.metadata({ topics: [topic] })).topics.get(topic)!.partitionsCount,
      topicExists: (topic) => topicExists(this.settings, topic),
    };
  }
}
