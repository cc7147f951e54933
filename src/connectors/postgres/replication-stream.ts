/**
 * The streaming part of PostgreSQL's replication protocol over a `pg` client opened with
 * `replication: 'database'`: `START_REPLICATION SLOT … LOGICAL …` switches the connection to CopyBoth;
 * the server then sends XLogData (`w`) and keepalive (`k`) messages as CopyData, and the client answers
 * with standby status updates (`r`) whose flush position is what the slot may forget (its
 * `confirmed_flush_lsn`). Only the caller decides that position: nothing here confirms on its own.
 */
import type * as Pg from "pg";
import { formatLsn } from "./lsn.ts";
import { quoteIdent } from "./postgres-identifiers.ts";

/** What the stream delivers. Both run synchronously in the socket's data handler. */
export interface ReplicationHandlers {
  /** An XLogData message: `payload[offset…]` is one pgoutput message; `walStart` its position. */
  onXLogData(walStart: bigint, payload: Buffer, offset: number): void;
  /** A keepalive: the server has sent everything before `walEnd`. */
  onKeepalive(walEnd: bigint): void;
}

/** Microseconds between 1970-01-01 and PostgreSQL's epoch 2000-01-01. */
const PG_EPOCH_US = 946_684_800_000_000n;

interface CopyConnection {
  on(event: "copyData", listener: (msg: { chunk: Buffer }) => void): void;
  once(event: "replicationStart", listener: () => void): void;
  sendCopyFromChunk(chunk: Buffer): void;
  stream: { pause(): void; resume(): void };
}

/**
 * A started logical replication stream.
 *
 * @example
 * ```ts
 * const client = await connect(options, { purpose: "weir cdc", replication: "database" });
 * const stream = await ReplicationStream.start(client, "weir_slot", 0n, "(proto_version '1', publication_names 'weir')", handlers);
 * stream.confirm(lsn); // after the checkpoint holding lsn completed
 * ```
 */
export class ReplicationStream {
  /** Settles when the server ends the stream or the connection fails. */
  readonly done: Promise<void>;
  private flushed: bigint;
  private received: bigint;
  private paused = false;

  private constructor(
    private readonly client: Pg.Client,
    private readonly connection: CopyConnection,
    startLsn: bigint,
    done: Promise<void>,
  ) {
    this.flushed = startLsn;
    this.received = startLsn;
    this.done = done;
  }

  /**
   * Sends `START_REPLICATION SLOT "slot" LOGICAL <startLsn> <options>` and resolves once the server
   * switched to streaming (or rejects with its refusal). `startLsn` is also the first flush position
   * reported: it must not be below the slot's `confirmed_flush_lsn`.
   */
  static async start(client: Pg.Client, slot: string, startLsn: bigint, pluginOptions: string, handlers: ReplicationHandlers): Promise<ReplicationStream> {
    const connection = (client as unknown as { connection: CopyConnection }).connection;
    let stream: ReplicationStream | undefined;
    const started = new Promise<void>((resolve) => connection.once("replicationStart", resolve));
    connection.on("copyData", ({ chunk }) => {
      const kind = chunk[0];
      if (kind === 0x77 /* w */) {
        const walStart = chunk.readBigUInt64BE(1);
        if (stream !== undefined && walStart > stream.received) stream.received = walStart;
        handlers.onXLogData(walStart, chunk, 25);
      } else if (kind === 0x6b /* k */) {
        const walEnd = chunk.readBigUInt64BE(1);
        if (stream !== undefined && walEnd > stream.received) stream.received = walEnd;
        handlers.onKeepalive(walEnd);
        if (chunk[17] === 1) stream?.sendStatus(false);
      }
    });
    const sql = `START_REPLICATION SLOT ${quoteIdent(slot)} LOGICAL ${formatLsn(startLsn)} ${pluginOptions}`;
    const done = client.query(sql).then(() => undefined);
    // the query settles only when streaming ends: whichever comes first tells whether it started
    await Promise.race([started, done]);
    stream = new ReplicationStream(client, connection, startLsn, done);
    done.catch(() => {});
    return stream;
  }

  /** The slot may forget everything before `lsn` (never moves back). Sent at once. */
  confirm(lsn: bigint): void {
    if (lsn <= this.flushed) return;
    this.flushed = lsn;
    this.sendStatus(false);
  }

  /** The confirmed position. */
  get confirmed(): bigint {
    return this.flushed;
  }

  /** Stops reading from the socket (backpressure); status updates still go out. */
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.connection.stream.pause();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.connection.stream.resume();
  }

  /** Sends a standby status update: received up to `received`, flushed (and applied) up to the confirmed position. */
  sendStatus(replyRequested: boolean): void {
    const msg = Buffer.alloc(34);
    msg[0] = 0x72; // r
    msg.writeBigUInt64BE(this.received, 1);
    msg.writeBigUInt64BE(this.flushed, 9);
    msg.writeBigUInt64BE(this.flushed, 17);
    msg.writeBigInt64BE(BigInt(Date.now()) * 1000n - PG_EPOCH_US, 25);
    msg[33] = replyRequested ? 1 : 0;
    try {
      this.connection.sendCopyFromChunk(msg);
    } catch {
      // a closed connection: `done` reports it
    }
  }

  /** Ends the connection (the server stops the walsender). */
  async close(): Promise<void> {
    this.resume();
    await this.client.end().catch(() => {});
  }
}
