/**
 * Reads the one split of a PostgreSQL CDC source: the initial snapshot (from the snapshot a new slot
 * exports), then the slot's pgoutput stream. Server work runs in the background and fills one queue in
 * server order — snapshot rows, decoded pgoutput messages, keepalive positions, phase changes — which
 * `pollNext` drains synchronously, so the split's position always describes exactly what was emitted.
 *
 * Exactness on restart: the checkpointed position is the end of the last transaction emitted in full
 * (or a keepalive position between transactions), plus how many changes of a transaction emitted in part
 * were emitted. Streaming resumes there; the server skips transactions committed before it (and so does
 * the reader), and the first changes of the part-emitted transaction are skipped by count. The slot's
 * `confirmed_flush_lsn` moves only when a checkpoint holding a position completes.
 */
import type * as Pg from "pg";
import type { Collector } from "../../core/collector.ts";
import type { PollStatus, ReaderOutput, SourceReader } from "../../core/source.ts";
import { Fifo } from "../../util/fifo.ts";
import { getLogger } from "../../util/logger.ts";
import type { JdbcConnectionOptions } from "./jdbc-connection-options.ts";
import { formatLsn, parseLsn } from "./lsn.ts";
import { PgoutputDecoder, type PgoutputMessage, type PgoutputRelation, type TupleValues } from "./pgoutput-decoder.ts";
import { ensurePublication, inactiveSlot, loadCapturedTables, tableName, type CapturedTable, type SlotInfo } from "./postgres-cdc-catalog.ts";
import { PostgresCdcError } from "./postgres-cdc-errors.ts";
import { UNCHANGED_TOAST_VALUE, type DebeziumDeserializationSchema, type PostgresChangeEvent, type PostgresRowValues } from "./postgres-change-event.ts";
import { connect } from "./postgres-connect.ts";
import { quoteIdent, quoteTable } from "./postgres-identifiers.ts";
import { copyPostgresSplit, pieceFor, type PostgresSourceSplit, type SnapshotPiece, type SnapshotPosition } from "./postgres-source-split.ts";
import { ReplicationStream } from "./replication-stream.ts";

/** What a reader needs besides its split. */
export interface PostgresSourceReaderConfig<T> {
  readonly connection: JdbcConnectionOptions;
  readonly tables: readonly { schema: string; name: string }[];
  readonly slotName: string;
  readonly publicationName: string;
  readonly startup: "initial" | "latest-offset";
  readonly deserializer: DebeziumDeserializationSchema<T>;
  /** Rows per snapshot query. */
  readonly snapshotFetchSize: number;
  /** How often a standby status update (with a keepalive request) goes to the server, ms. */
  readonly statusIntervalMs: number;
  /** Checks the captured tables before anything is read (the SQL connector's declared columns); throws to refuse. */
  readonly checkTables?: (tables: readonly CapturedTable[]) => void;
}

/** Queue bounds: the stream pauses its socket above HIGH; the snapshot reads on below LOW. */
const HIGH = 20_000;
const LOW = 5_000;

/** A row read from a snapshot. */
interface ReadRow {
  readonly kind: "read";
  readonly table: number;
  readonly values: (string | null)[];
  readonly key: string[];
  readonly lsn: string;
  readonly tsMs: number;
}

/** Phase changes, in queue order with what they separate. */
type Control = { readonly kind: "snapshot-begin"; readonly piece: SnapshotPiece } | { readonly kind: "snapshot-done" } | { readonly kind: "stream-begin"; readonly lsn: string };

/** A change message, with the piece decision when one needed the server. */
interface Change {
  readonly kind: "change";
  readonly message: Extract<PgoutputMessage, { tag: "insert" | "update" | "delete" }>;
  /** [old row inside the read pieces, new row inside], once asked. */
  inside?: [boolean, boolean];
}

/** XLogData messages other than changes, keepalive positions (bigint), rows, phase changes. */
type Item = PgoutputMessage | Change | bigint | ReadRow | Control;

/** Per relation id: which captured table (-1 none) and where its key columns are. */
interface RelationInfo {
  readonly relation: PgoutputRelation;
  readonly table: number;
  readonly keyIndex: readonly number[];
}

/** The transaction being emitted. */
interface OpenTransaction {
  readonly finalLsn: bigint;
  readonly commitTimeMs: number;
  readonly xid: number;
  /** Changes of it seen so far (emitted or filtered). */
  index: number;
  /** The first `skip` changes were emitted before the restore. */
  readonly skip: number;
}

/**
 * The reader of a PostgreSQL CDC source.
 *
 * @example
 * ```ts
 * const reader = source.createReader(context);
 * reader.addSplits(source.createSplits(1));
 * while ((await reader.pollNext(output, 100)) !== "end-of-input") await reader.isAvailable();
 * ```
 */
export class PostgresSourceReader<T> implements SourceReader<T, PostgresSourceSplit> {
  private split: PostgresSourceSplit | undefined;
  private readonly queue = new Fifo<Item>();
  private failure: Error | undefined;
  private closed = false;
  private started = false;
  private sql: Pg.Client | undefined;
  private stream: ReplicationStream | undefined;
  private statusTimer: ReturnType<typeof setInterval> | undefined;
  private tables: CapturedTable[] = [];
  private readonly tableIndex = new Map<string, number>();
  private readonly relations = new Map<number, RelationInfo>();
  private readonly decoder = new PgoutputDecoder();
  private txn: OpenTransaction | undefined;
  /** Streaming position as a number (mirrors `split.lsn`). */
  private position = 0n;
  /** The pieces while streaming over them, with numeric LSNs. */
  private pieces: { lsn: bigint; upTo: SnapshotPosition }[] | undefined;
  private readonly pending = new Map<number, bigint>();
  /** The newest position a completed checkpoint allows to confirm (applied when the stream runs). */
  private confirmable = 0n;
  private wake: (() => void) | undefined;
  private room: (() => void) | undefined;
  private readonly where: string;
  private readonly collector: Collector<T> & { output: ReaderOutput<T> | undefined; timestamp: number; emitted: number };

  constructor(private readonly config: PostgresSourceReaderConfig<T>) {
    this.where = config.connection.describe();
    const collector = {
      output: undefined as ReaderOutput<T> | undefined,
      timestamp: 0,
      emitted: 0,
      collect(value: T): void {
        collector.emitted++;
        collector.output!.collect(value, collector.timestamp);
      },
    };
    this.collector = collector;
  }

  addSplits(splits: PostgresSourceSplit[]): void {
    for (const s of splits) {
      if (this.split !== undefined) throw new PostgresCdcError("a reader got two splits: the source runs at parallelism 1");
      this.split = copyPostgresSplit(s);
    }
  }

  pollNext(output: ReaderOutput<T>, maxRecords: number): PollStatus | Promise<PollStatus> {
    if (this.failure) throw this.failure;
    const split = this.split;
    if (split === undefined) {
      output.markIdle?.();
      return "nothing-available";
    }
    if (!this.started) this.start(split);
    const c = this.collector;
    c.output = output;
    c.emitted = 0;
    let item: Item | undefined;
    while (c.emitted < maxRecords && (item = this.queue.peek()) !== undefined) {
      if (typeof item === "object" && "kind" in item && item.kind === "change" && item.inside === undefined && this.needsServer(item)) {
        return this.decide(item).then(() => (c.emitted > 0 ? "more-available" : this.pollNext(output, maxRecords)));
      }
      this.queue.shift();
      this.apply(split, item);
    }
    if (this.queue.size < LOW) {
      this.stream?.resume();
      this.room?.();
    }
    return c.emitted > 0 || this.queue.size > 0 ? "more-available" : "nothing-available";
  }

  isAvailable(): Promise<void> {
    if (this.failure || this.queue.size > 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = resolve;
      // a split-less reader (parallelism > 1) looks again now and then
      if (this.split === undefined) setTimeout(resolve, 1000).unref();
    });
  }

  snapshotState(checkpointId: number): PostgresSourceSplit[] {
    const split = this.split;
    if (split === undefined) return [];
    if (checkpointId >= 0 && split.phase === "stream") this.pending.set(checkpointId, this.position);
    return [copyPostgresSplit(split)];
  }

  /** The checkpoint's position is durable: the slot may forget what came before it. */
  notifyCheckpointComplete(checkpointId: number): void {
    const lsn = this.pending.get(checkpointId);
    for (const id of [...this.pending.keys()]) if (id <= checkpointId) this.pending.delete(id);
    if (lsn === undefined || lsn <= this.confirmable) return;
    this.confirmable = lsn;
    this.stream?.confirm(lsn);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.statusTimer !== undefined) clearInterval(this.statusTimer);
    this.wake?.();
    this.room?.();
    await this.stream?.close();
    await this.sql?.end().catch(() => {});
  }

  // ---- emitting (task thread, synchronous) ----

  private apply(split: PostgresSourceSplit, item: Item): void {
    if (typeof item === "bigint") {
      // a keepalive between transactions: everything committed before it was emitted
      if (this.txn === undefined && split.phase === "stream" && item > this.position) {
        this.setPosition(split, item);
        this.passPieces(split, item);
      }
      return;
    }
    if ("tag" in item) return this.applyMessage(split, item);
    switch (item.kind) {
      case "read":
        return this.emitRead(split, item);
      case "change":
        return this.emitChange(split, item);
      case "snapshot-begin":
        split.phase = "snapshot";
        (split.pieces ??= []).push({ lsn: item.piece.lsn, upTo: { ...item.piece.upTo } });
        return;
      case "snapshot-done": {
        const pieces = split.pieces!;
        pieces[pieces.length - 1]!.upTo = { table: this.tables.length, key: null };
        split.phase = "stream";
        this.setPosition(split, parseLsn(pieces[0]!.lsn));
        if (pieces.length === 1) delete split.pieces;
        this.loadPieces(split);
        return;
      }
      case "stream-begin":
        split.phase = "stream";
        this.setPosition(split, parseLsn(item.lsn));
        return;
    }
  }

  private applyMessage(split: PostgresSourceSplit, m: PgoutputMessage): void {
    switch (m.tag) {
      case "begin": {
        // a transaction committed before the position was emitted (the server does not send it again, but
        // should it, it is skipped); one emitted in part before the restore is skipped up to where it was
        const restored =
          m.finalLsn < this.position ? Number.POSITIVE_INFINITY : split.txn !== undefined && parseLsn(split.txn.finalLsn) === m.finalLsn ? split.txn.emitted : 0;
        this.txn = { finalLsn: m.finalLsn, commitTimeMs: m.commitTimeMs, xid: m.xid, index: 0, skip: restored };
        split.txn = { finalLsn: formatLsn(m.finalLsn), emitted: Number.isFinite(restored) ? restored : 0 };
        return;
      }
      case "commit":
        this.txn = undefined;
        delete split.txn;
        if (m.endLsn > this.position) this.setPosition(split, m.endLsn);
        this.passPieces(split, m.endLsn);
        return;
      case "relation":
        this.relations.set(m.relation.id, this.relationInfo(m.relation));
        return;
      case "truncate":
        if (this.txn !== undefined) this.txn.index++;
        getLogger().warn(`PostgresSource: TRUNCATE of ${m.relations.map((r) => `${r.schema}.${r.name}`).join(", ")} is not emitted (as Flink CDC): the table's rows stay in the stream's result`);
        return;
      default:
        return;
    }
  }

  private setPosition(split: PostgresSourceSplit, lsn: bigint): void {
    this.position = lsn;
    split.lsn = formatLsn(lsn);
  }

  private emitRead(split: PostgresSourceSplit, row: ReadRow): void {
    const table = this.tables[row.table]!;
    const after: PostgresRowValues = {};
    const columns = table.columns;
    for (let i = 0; i < columns.length; i++) after[columns[i]!.name] = row.values[i]!;
    this.deserialize({
      op: "r",
      before: null,
      after,
      source: { db: this.config.connection.address.database, schema: table.schema, table: table.name, lsn: row.lsn, txId: undefined, ts_ms: row.tsMs, snapshot: true },
      key: table.primaryKey,
    });
    const pieces = split.pieces!;
    pieces[pieces.length - 1]!.upTo = { table: row.table, key: row.key };
  }

  private emitChange(split: PostgresSourceSplit, change: Change): void {
    const txn = this.txn;
    if (txn === undefined) throw new PostgresCdcError(`a change outside a transaction from slot ${this.config.slotName}`);
    txn.index++;
    if (txn.index <= txn.skip) return;
    split.txn!.emitted = txn.index;
    const m = change.message;
    const info = this.relations.get(m.relation.id) ?? this.relationInfo(m.relation);
    if (info.table < 0) return;
    let op: "c" | "u" | "d" = m.tag === "insert" ? "c" : m.tag === "update" ? "u" : "d";
    const inside = this.pieces === undefined ? [true, true] : (change.inside ?? this.insidePieces(info));
    if (op === "u") {
      if (!inside[0] && !inside[1]) return;
      // an update across the edge of what the snapshot pieces read: a delete or an insert downstream
      if (!inside[1]) op = "d";
      else if (!inside[0]) op = "c";
    } else if (!inside[op === "c" ? 1 : 0]) return;
    const table = this.tables[info.table]!;
    const columns = m.relation.columns;
    const oldRow = m.tag !== "insert" && m.before !== undefined ? this.row(columns, m.before, undefined) : null;
    const newRow = m.tag !== "delete" ? this.row(columns, m.after, m.tag === "update" && m.oldKind === "O" ? m.before : undefined) : null;
    this.deserialize({
      op,
      before: op === "c" ? null : oldRow,
      after: op === "d" ? null : newRow,
      source: { db: this.config.connection.address.database, schema: table.schema, table: table.name, lsn: formatLsn(txn.finalLsn), txId: txn.xid, ts_ms: txn.commitTimeMs, snapshot: false },
      key: table.primaryKey,
    });
  }

  /** Column name → value; a TOASTed value an update did not send comes from the whole old row, else is UNCHANGED_TOAST_VALUE. */
  private row(columns: PgoutputRelation["columns"], values: TupleValues, fullOld: TupleValues | undefined): PostgresRowValues {
    const row: PostgresRowValues = {};
    for (let i = 0; i < columns.length; i++) {
      const v = values[i];
      row[columns[i]!.name] = v !== undefined ? v : (fullOld?.[i] ?? UNCHANGED_TOAST_VALUE);
    }
    return row;
  }

  private deserialize(event: PostgresChangeEvent): void {
    this.collector.timestamp = event.source.ts_ms;
    this.config.deserializer.deserialize(event, this.collector);
  }

  // ---- streaming over snapshot pieces ----

  private loadPieces(split: PostgresSourceSplit): void {
    this.pieces = split.pieces?.map((p) => ({ lsn: parseLsn(p.lsn), upTo: p.upTo }));
  }

  /** Streaming reached `lsn`: once past the last piece's LSN, every change is emitted. */
  private passPieces(split: PostgresSourceSplit, lsn: bigint): void {
    const pieces = this.pieces;
    if (pieces !== undefined && lsn >= pieces[pieces.length - 1]!.lsn) {
      this.pieces = undefined;
      delete split.pieces;
    }
  }

  /** Whether deciding on `change` needs a key comparison by the server. */
  private needsServer(change: Change): boolean {
    if (this.pieces === undefined || this.txn === undefined) return false;
    const k = pieceFor(this.pieces, this.txn.finalLsn);
    if (typeof k !== "number") return false;
    const upTo = this.pieces[k]!.upTo;
    const info = this.relations.get(change.message.relation.id) ?? this.relationInfo(change.message.relation);
    return info.table === upTo.table && upTo.key !== null;
  }

  /** [old row inside, new row inside] the rows the pieces read before the change's transaction committed. */
  private insidePieces(info: RelationInfo): [boolean, boolean] {
    const k = pieceFor(this.pieces!, this.txn!.finalLsn);
    if (k === "all") return [true, true];
    if (k === "none") return [false, false];
    const upTo = this.pieces![k]!.upTo;
    const inside = info.table < upTo.table;
    return [inside, inside];
  }

  /** Asks the server whether the change's keys sort at or before the piece's last key (the snapshot's order). */
  private async decide(change: Change): Promise<void> {
    const k = pieceFor(this.pieces!, this.txn!.finalLsn) as number;
    const upTo = this.pieces![k]!.upTo;
    const m = change.message;
    const info = this.relations.get(m.relation.id) ?? this.relationInfo(m.relation);
    const table = this.tables[info.table]!;
    const newKey = m.tag === "delete" ? undefined : info.keyIndex.map((i) => m.after[i] ?? null);
    const oldKey = m.tag === "insert" ? undefined : m.before === undefined ? newKey : info.keyIndex.map((i) => m.before![i] ?? null);
    const types = table.primaryKey.map((name) => table.columns.find((c) => c.name === name)!.type);
    const at = async (key: (string | null)[] | undefined): Promise<boolean> => {
      if (key === undefined) return false;
      const n = types.length;
      const row = (offset: number) => `ROW(${types.map((t, i) => `$${offset + i + 1}::${t}`).join(", ")})`;
      const { rows } = await this.sql!.query<{ inside: boolean }>(`SELECT ${row(0)} <= ${row(n)} AS inside`, [...key, ...upTo.key!]);
      return rows[0]!.inside;
    };
    change.inside = [await at(oldKey), await at(newKey)];
  }

  private relationInfo(relation: PgoutputRelation): RelationInfo {
    const table = this.tableIndex.get(`${relation.schema}.${relation.name}`) ?? -1;
    const names = relation.columns.map((c) => c.name);
    const keyIndex = table < 0 ? [] : this.tables[table]!.primaryKey.map((k) => names.indexOf(k));
    return { relation, table, keyIndex };
  }

  // ---- the background: catalog, slot, snapshot, stream ----

  private start(split: PostgresSourceSplit): void {
    this.started = true;
    this.position = split.lsn === undefined ? 0n : parseLsn(split.lsn);
    this.loadPieces(split);
    void this.run(copyPostgresSplit(split)).catch((e: unknown) => this.fail(e));
  }

  private fail(e: unknown): void {
    if (this.closed || this.failure) return;
    this.failure = e instanceof Error ? e : new Error(String(e));
    this.wake?.();
  }

  private push(item: Item): void {
    this.queue.push(item);
    if (this.wake) {
      const wake = this.wake;
      this.wake = undefined;
      wake();
    }
  }

  private async run(split: PostgresSourceSplit): Promise<void> {
    const { connection, slotName, startup } = this.config;
    const sql = await connect(connection, { purpose: `weir postgres-cdc ${slotName}` });
    this.sql = sql;
    if (this.closed) return;
    this.tables = await loadCapturedTables(sql, this.config.tables, this.where);
    this.config.checkTables?.(this.tables);
    this.tables.forEach((t, i) => this.tableIndex.set(tableName(t), i));
    await ensurePublication(sql, this.config.publicationName, this.tables, this.where);
    let from: bigint;
    if (split.phase === "start" && startup === "initial") {
      const existing = await inactiveSlot(sql, slotName, this.where);
      if (existing !== undefined) {
        getLogger().info(`PostgresSource: dropping replication slot ${slotName} left by an earlier start, to take a new snapshot`);
        await sql.query(`SELECT pg_drop_replication_slot($1)`, [slotName]);
      }
      const lsn = await this.snapshot(slotName, false, { table: 0, key: null });
      from = parseLsn(lsn);
    } else if (split.phase === "start") {
      const existing = this.checkSlot(await inactiveSlot(sql, slotName, this.where));
      const lsn = existing?.confirmedFlushLsn ?? (await this.createSlot(slotName, "NOEXPORT_SNAPSHOT")).lsn;
      this.push({ kind: "stream-begin", lsn });
      from = parseLsn(lsn);
    } else if (split.phase === "snapshot") {
      const existing = this.checkSlot(await inactiveSlot(sql, slotName, this.where), "the snapshot in progress");
      const pieces = split.pieces!;
      const first = parseLsn(pieces[0]!.lsn);
      this.checkConfirmed(existing.confirmedFlushLsn, first);
      const suffix = Math.floor(Math.random() * 1e9).toString(36);
      await this.snapshot(`${slotName.slice(0, 48)}_resume_${suffix}`, true, pieces[pieces.length - 1]!.upTo);
      from = first;
    } else {
      const existing = this.checkSlot(await inactiveSlot(sql, slotName, this.where), `position ${split.lsn}`);
      from = parseLsn(split.lsn!);
      this.checkConfirmed(existing.confirmedFlushLsn, from);
    }
    if (this.closed) return;
    await this.startStream(from);
  }

  /** An existing slot must be pgoutput's and of this database; a restore (`restoring` says of what) needs it to exist. */
  private checkSlot(info: SlotInfo | undefined, restoring: string): SlotInfo;
  private checkSlot(info: SlotInfo | undefined): SlotInfo | undefined;
  private checkSlot(info: SlotInfo | undefined, restoring?: string): SlotInfo | undefined {
    const slot = this.config.slotName;
    if (info === undefined) {
      if (restoring !== undefined) throw new PostgresCdcError(`replication slot ${slot} in ${this.where} is gone: the job's checkpoint (${restoring}) cannot be resumed without losing changes; start the job fresh (a new snapshot)`);
      return undefined;
    }
    if (info.plugin !== "pgoutput") throw new PostgresCdcError(`replication slot ${slot} in ${this.where} uses plugin ${info.plugin}, not pgoutput`);
    if (info.database !== this.config.connection.address.database) throw new PostgresCdcError(`replication slot ${slot} belongs to database ${info.database}, not ${this.config.connection.address.database}`);
    return info;
  }

  /** The slot must still hold the changes after `from`. */
  private checkConfirmed(confirmed: string | null, from: bigint): void {
    if (confirmed !== null && parseLsn(confirmed) > from) {
      throw new PostgresCdcError(
        `replication slot ${this.config.slotName} in ${this.where} was confirmed up to ${confirmed}, past the restored position ${formatLsn(from)}: the changes between them are gone (restored from an older checkpoint or savepoint?); start the job fresh`,
      );
    }
  }

  /** Opens a replication connection and creates `slot`; the connection is returned open (an exported snapshot lives while it is idle). */
  private async createSlot(slot: string, how: "EXPORT_SNAPSHOT" | "NOEXPORT_SNAPSHOT", temporary = false): Promise<{ lsn: string; snapshot: string | null; replication: Pg.Client }> {
    const replication = await connect(this.config.connection, { purpose: `weir postgres-cdc ${this.config.slotName}`, replication: "database" });
    try {
      const { rows } = await replication.query<{ consistent_point: string; snapshot_name: string | null }>(
        `CREATE_REPLICATION_SLOT ${quoteIdent(slot)}${temporary ? " TEMPORARY" : ""} LOGICAL pgoutput ${how}`,
      );
      const r = rows[0]!;
      if (how === "NOEXPORT_SNAPSHOT") await replication.end();
      return { lsn: r.consistent_point, snapshot: r.snapshot_name, replication };
    } catch (e) {
      await replication.end().catch(() => {});
      throw new PostgresCdcError(`could not create replication slot ${slot} in ${this.where}: ${(e as Error).message}`, { cause: e });
    }
  }

  /**
   * Creates `slot` with an exported snapshot, reads every row after `from` in it (a new piece), and returns
   * the slot's consistent point.
   */
  private async snapshot(slot: string, temporary: boolean, from: SnapshotPosition): Promise<string> {
    const sql = this.sql!;
    const created = await this.createSlot(slot, "EXPORT_SNAPSHOT", temporary);
    try {
      await sql.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      await sql.query(`SET TRANSACTION SNAPSHOT '${created.snapshot!}'`);
    } finally {
      // imported: the snapshot lives on in this transaction (a temporary slot goes with its connection)
      await created.replication.end().catch(() => {});
    }
    const tsMs = Date.now();
    this.push({ kind: "snapshot-begin", piece: { lsn: created.lsn, upTo: from } });
    const text = { getTypeParser: () => (value: string) => value };
    for (let t = from.table; t < this.tables.length && !this.closed; t++) {
      const table = this.tables[t]!;
      const columns = table.columns.map((c) => quoteIdent(c.name)).join(", ");
      const pk = table.primaryKey.map((k) => quoteIdent(k));
      const keyIndex = table.primaryKey.map((k) => table.columns.findIndex((c) => c.name === k));
      const types = table.primaryKey.map((k) => table.columns.find((c) => c.name === k)!.type);
      let key = t === from.table ? from.key : null;
      for (;;) {
        await this.roomInQueue();
        if (this.closed) return created.lsn;
        const after = key === null ? "" : `WHERE ROW(${pk.join(", ")}) > ROW(${types.map((ty, i) => `$${i + 1}::${ty}`).join(", ")}) `;
        const result = await sql.query<(string | null)[]>({
          text: `SELECT ${columns} FROM ${quoteTable(table.schema, table.name)} ${after}ORDER BY ${pk.join(", ")} LIMIT ${this.config.snapshotFetchSize}`,
          values: key ?? [],
          rowMode: "array",
          types: text,
        });
        for (const values of result.rows) {
          const rowKey = keyIndex.map((i) => values[i]!);
          this.push({ kind: "read", table: t, values, key: rowKey, lsn: created.lsn, tsMs });
          key = rowKey;
        }
        if (result.rows.length < this.config.snapshotFetchSize) break;
      }
    }
    await sql.query("COMMIT");
    this.push({ kind: "snapshot-done" });
    return created.lsn;
  }

  private roomInQueue(): Promise<void> {
    if (this.queue.size < HIGH || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.room = () => {
        this.room = undefined;
        resolve();
      };
    });
  }

  private async startStream(from: bigint): Promise<void> {
    const { connection, slotName, publicationName } = this.config;
    const replication = await connect(connection, { purpose: `weir postgres-cdc ${slotName}`, replication: "database" });
    const decoder = this.decoder;
    const stream = await ReplicationStream.start(replication, slotName, from, `(proto_version '1', publication_names '${publicationName.replace(/'/g, "''")}')`, {
      onXLogData: (_walStart, payload, offset) => {
        let m: PgoutputMessage;
        try {
          m = decoder.decode(payload, offset);
        } catch (e) {
          this.fail(e);
          return;
        }
        if (m.tag === "insert" || m.tag === "update" || m.tag === "delete") this.push({ kind: "change", message: m });
        else if (m.tag !== "other") this.push(m);
        if (this.queue.size > HIGH) this.stream?.pause();
      },
      onKeepalive: (walEnd) => {
        this.push(walEnd);
      },
    }).catch(async (e: unknown) => {
      await replication.end().catch(() => {});
      throw new PostgresCdcError(`could not start streaming from replication slot ${slotName} at ${formatLsn(from)} in ${this.where}: ${(e as Error).message}`, { cause: e });
    });
    this.stream = stream;
    if (this.closed) return void (await stream.close());
    if (this.confirmable > from) stream.confirm(this.confirmable);
    this.statusTimer = setInterval(() => stream.sendStatus(true), this.config.statusIntervalMs);
    this.statusTimer.unref();
    stream.done.then(
      () => this.fail(new PostgresCdcError(`the server ended streaming from replication slot ${slotName} in ${this.where}`)),
      (e: unknown) => this.fail(new PostgresCdcError(`streaming from replication slot ${slotName} in ${this.where} failed: ${(e as Error).message}`, { cause: e })),
    );
  }
}
