/**
 * The writer of the Kafka sink without transactions (`NONE`, `AT_LEAST_ONCE`): one producer per subtask,
 * records sent in batches; at a checkpoint barrier `AT_LEAST_ONCE` waits until every record written so
 * far is acknowledged by all in-sync replicas, `NONE` does not wait.
 */
import type { Producer } from "@platformatic/kafka";
import type { SinkContext, SinkWriter } from "../../core/sink.ts";
import { kafkaModule } from "./kafka-client.ts";
import { queuedRecord } from "./kafka-queued-record.ts";
import { KafkaSendQueue, type BatchSender } from "./kafka-send-queue.ts";
import { clientOptions, type KafkaConnectionSettings, type KafkaSinkSettings } from "./kafka-sink-settings.ts";
import { topicExists } from "./kafka-topic-check.ts";
import { DeliveryGuarantee } from "./delivery-guarantee.ts";

/** A producer as the send queue uses it (`settings` for the topic check). */
export function producerSender(producer: Producer, acks: -1 | 0 | 1, settings: KafkaConnectionSettings): BatchSender {
  return {
    send: async (messages) => {
      await producer.send({ messages, acks });
    },
    partitionCount: async (topic) => {
      const meta = await producer.metadata({ topics: [topic] });
      return meta.topics.get(topic)!.partitionsCount;
    },
    topicExists: (topic) => topicExists(settings, topic),
  };
}

/** Writes one subtask's records without transactions. */
export class KafkaWriter<T> implements SinkWriter<T> {
  private readonly queue: KafkaSendQueue;
  private producer: Producer | undefined;

  constructor(
    private readonly settings: KafkaSinkSettings<T>,
    private readonly ctx: SinkContext,
  ) {
    const what = `KafkaSink '${ctx.operatorUid}' subtask ${ctx.subtaskIndex}`;
    this.queue = new KafkaSendQueue(what, () => this.openProducer(), settings.maxRequestSize, settings.bufferMemory);
  }

  write(value: T): void {
    const r = queuedRecord(this.settings.serializer, value);
    if (r !== undefined) this.queue.add(r);
  }

  blocked(): Promise<void> | undefined {
    return this.queue.blocked();
  }

  /** AT_LEAST_ONCE: the barrier waits for every acknowledgement. */
  flush(): Promise<void> | undefined {
    return this.settings.deliveryGuarantee === DeliveryGuarantee.AT_LEAST_ONCE ? this.queue.drained() : undefined;
  }

  /** End of input: everything is sent, whatever the guarantee. */
  finish(): Promise<void> {
    return this.queue.drained();
  }

  async close(): Promise<void> {
    const producer = this.producer;
    this.producer = undefined;
    if (producer !== undefined) await producer.close().catch((e: unknown) => this.ctx.logger.warn(`closing the Kafka producer failed: ${String(e)}`));
  }

  private async openProducer(): Promise<BatchSender> {
    const { Producer } = await kafkaModule();
    const s = this.settings;
    const producer = new Producer({ ...clientOptions(s, `${s.clientId}-${this.ctx.operatorUid}-${this.ctx.subtaskIndex}`), acks: s.acks, idempotent: s.idempotence });
    this.producer = producer;
    return producerSender(producer, s.acks, s);
  }
}
