/**
 * The producer side of one output edge: picks the channel(s) of each record
 * by the edge's partitioning, collects records into per-channel batches, and
 * sends them when asked to flush (awaiting credit: this is where
 * backpressure stops a producer).
 */
import type { KeySelector, Partitioning } from "../../graph/stream-graph.ts";
import { canonicalKey, keyGroupOf, subtaskForKeyGroup } from "../../state/index.ts";
import type { ChannelEvent } from "../elements.ts";
import type { OutputChannel } from "./channel.ts";

/** Counters of a writer, read by metrics. */
export interface WriterCounters {
  recordsOut: number;
  /** Milliseconds spent waiting for credit (backpressure). */
  backpressuredMs: number;
}

/** Primitive keys whose channel is cached (cleared when full). */
const KEY_CACHE_LIMIT = 1 << 16;

export class RecordWriter {
  private readonly buffers: unknown[][];
  private next: number;
  private readonly select: (value: unknown) => void;

  /**
   * @param channels one per consumer subtask, in subtask order (a single one for forward)
   * @param consumerMaxParallelism key groups of the consumer, for hash partitioning
   */
  constructor(
    private readonly channels: readonly OutputChannel[],
    partitioning: Partitioning,
    keySelector: KeySelector | undefined,
    consumerMaxParallelism: number,
    private readonly batchSize: number,
    private readonly counters: WriterCounters,
    producerIndex: number,
  ) {
    this.buffers = channels.map(() => []);
    this.next = producerIndex % Math.max(1, channels.length);
    const n = channels.length;
    const buffers = this.buffers;
    switch (partitioning) {
      case "forward":
        this.select = (v) => void buffers[0]!.push(v);
        break;
      case "rebalance":
        this.select = (v) => {
          buffers[this.next]!.push(v);
          this.next = this.next + 1 === n ? 0 : this.next + 1;
        };
        break;
      case "broadcast":
        this.select = (v) => {
          for (let i = 0; i < n; i++) buffers[i]!.push(v);
        };
        break;
      case "hash": {
        if (!keySelector) throw new Error("hash partitioning needs a key selector");
        const channelOf = (key: unknown) => subtaskForKeyGroup(consumerMaxParallelism, n, keyGroupOf(canonicalKey(key), consumerMaxParallelism));
        // Channel of recent primitive keys: hashing per record is the costliest part of a keyed exchange.
        const cache = new Map<unknown, number>();
        this.select = (v) => {
          const key = keySelector(v);
          if (typeof key === "object") return void buffers[channelOf(key)]!.push(v);
          let ch = cache.get(key);
          if (ch === undefined) {
            ch = channelOf(key);
            if (cache.size >= KEY_CACHE_LIMIT) cache.clear();
            cache.set(key, ch);
          }
          buffers[ch]!.push(v);
        };
        break;
      }
    }
  }

  /** Hot path: buffers one record for its channel(s). */
  emit(value: unknown): void {
    this.select(value);
  }

  /**
   * Sends buffered records in batches of at most `batchSize`. With `onlyFull`, sends
   * only full batches and keeps the rest buffered (larger batches under load).
   */
  async flush(onlyFull = false): Promise<void> {
    const size = this.batchSize;
    for (let i = 0; i < this.channels.length; i++) {
      const buf = this.buffers[i]!;
      if (buf.length === 0 || (onlyFull && buf.length < size)) continue;
      if (buf.length <= size && (!onlyFull || buf.length === size)) {
        this.buffers[i] = [];
        await this.send(i, buf);
        continue;
      }
      const keep = onlyFull ? buf.length % size : 0;
      this.buffers[i] = keep > 0 ? buf.slice(buf.length - keep) : [];
      for (let off = 0; off < buf.length - keep; off += size) await this.send(i, buf.slice(off, Math.min(off + size, buf.length - keep)));
    }
  }

  /** Flushes, then sends `event` on every channel. */
  async broadcastEvent(event: ChannelEvent): Promise<void> {
    await this.flush();
    for (let i = 0; i < this.channels.length; i++) await this.sendWithCredit(i, event);
  }

  close(): void {
    for (const c of this.channels) c.close();
  }

  private async send(i: number, values: unknown[]): Promise<void> {
    await this.sendWithCredit(i, { kind: "data", values });
    this.counters.recordsOut += values.length;
  }

  private async sendWithCredit(i: number, message: Parameters<OutputChannel["send"]>[0]): Promise<void> {
    const ch = this.channels[i]!;
    if (!ch.hasCredit()) {
      const t0 = performance.now();
      while (!ch.hasCredit()) await ch.whenCredit();
      this.counters.backpressuredMs += performance.now() - t0;
    }
    ch.send(message);
  }
}
