/**
 * A decoder of `pgoutput`, PostgreSQL's built-in logical decoding output (protocol version 1): the
 * messages of the "Logical Replication Message Formats" chapter of PostgreSQL's documentation. Values are
 * kept in PostgreSQL's TEXT form (what pgoutput sends without `binary`), so no conversion is lost or
 * guessed here: the consumer converts them by the column's type.
 */

/** Replica identity of a relation: default (primary key), nothing, full (every column), index. */
export type ReplicaIdentity = "d" | "n" | "f" | "i";

/** A column of a relation as pgoutput describes it. */
export interface PgoutputColumn {
  readonly name: string;
  /** Type OID (`pg_type.oid`). */
  readonly typeOid: number;
  readonly typeMod: number;
  /** Part of the replica identity key (the primary key with identity default). */
  readonly key: boolean;
}

/** A table as pgoutput describes it (sent before its first change and after each schema change). */
export interface PgoutputRelation {
  readonly id: number;
  readonly schema: string;
  readonly name: string;
  readonly replicaIdentity: ReplicaIdentity;
  readonly columns: readonly PgoutputColumn[];
}

/**
 * The values of one row in column order: the TEXT form, `null` for SQL NULL, `undefined` for a TOASTed
 * value the update did not change (pgoutput does not send it).
 */
export type TupleValues = (string | null | undefined)[];

/** One decoded message. */
export type PgoutputMessage =
  | { readonly tag: "begin"; readonly finalLsn: bigint; readonly commitTimeMs: number; readonly xid: number }
  | { readonly tag: "commit"; readonly commitLsn: bigint; readonly endLsn: bigint; readonly commitTimeMs: number }
  | { readonly tag: "relation"; readonly relation: PgoutputRelation }
  | { readonly tag: "insert"; readonly relation: PgoutputRelation; readonly after: TupleValues }
  | {
      readonly tag: "update";
      readonly relation: PgoutputRelation;
      /** `K`: the old key columns (the key changed), `O`: the whole old row (replica identity full), else none. */
      readonly oldKind: "K" | "O" | undefined;
      readonly before: TupleValues | undefined;
      readonly after: TupleValues;
    }
  | { readonly tag: "delete"; readonly relation: PgoutputRelation; readonly oldKind: "K" | "O"; readonly before: TupleValues }
  | { readonly tag: "truncate"; readonly relations: readonly PgoutputRelation[] }
  /** Origin, type and logical message: nothing a change stream needs. */
  | { readonly tag: "other"; readonly type: string };

/** A message pgoutput does not send, or a change of a relation it never described. */
export class PgoutputProtocolError extends Error {
  constructor(message: string) {
    super(`pgoutput: ${message}`);
    this.name = "PgoutputProtocolError";
  }
}

/** Milliseconds between 1970-01-01 and PostgreSQL's epoch 2000-01-01. */
const PG_EPOCH_MS = 946_684_800_000;

/**
 * Decodes pgoutput messages, remembering the relations it was sent.
 *
 * @example
 * ```ts
 * const decoder = new PgoutputDecoder();
 * const message = decoder.decode(xlogData, 25); // the payload after the XLogData header
 * if (message.tag === "insert") console.log(message.relation.name, message.after);
 * ```
 */
export class PgoutputDecoder {
  private readonly relations = new Map<number, PgoutputRelation>();
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;

  /** The relation with this id, if it was described. */
  relation(id: number): PgoutputRelation | undefined {
    return this.relations.get(id);
  }

  /** Decodes the message starting at `offset` of `buf`. */
  decode(buf: Buffer, offset = 0): PgoutputMessage {
    this.buf = buf;
    this.pos = offset + 1;
    const tag = buf[offset];
    switch (tag) {
      case 0x42 /* B */: {
        const finalLsn = this.int64();
        const commitTimeMs = this.timestamp();
        return { tag: "begin", finalLsn, commitTimeMs, xid: this.int32() };
      }
      case 0x43 /* C */: {
        this.pos += 1; // flags (unused)
        const commitLsn = this.int64();
        const endLsn = this.int64();
        return { tag: "commit", commitLsn, endLsn, commitTimeMs: this.timestamp() };
      }
      case 0x52 /* R */:
        return { tag: "relation", relation: this.relationMessage() };
      case 0x49 /* I */: {
        const relation = this.relationOf(this.int32());
        this.pos += 1; // 'N'
        return { tag: "insert", relation, after: this.tuple() };
      }
      case 0x55 /* U */: {
        const relation = this.relationOf(this.int32());
        const kind = buf[this.pos++];
        if (kind === 0x4e /* N */) return { tag: "update", relation, oldKind: undefined, before: undefined, after: this.tuple() };
        const before = this.tuple();
        this.pos += 1; // 'N'
        return { tag: "update", relation, oldKind: kind === 0x4f ? "O" : "K", before, after: this.tuple() };
      }
      case 0x44 /* D */: {
        const relation = this.relationOf(this.int32());
        const kind = buf[this.pos++];
        return { tag: "delete", relation, oldKind: kind === 0x4f ? "O" : "K", before: this.tuple() };
      }
      case 0x54 /* T */: {
        const n = this.int32();
        this.pos += 1; // options
        const relations: PgoutputRelation[] = [];
        for (let i = 0; i < n; i++) relations.push(this.relationOf(this.int32()));
        return { tag: "truncate", relations };
      }
      case 0x4f /* O */:
      case 0x59 /* Y */:
      case 0x4d /* M */:
        return { tag: "other", type: String.fromCharCode(tag) };
      default:
        throw new PgoutputProtocolError(`unknown message type ${tag === undefined ? "(empty)" : `'${String.fromCharCode(tag)}' (${tag})`}`);
    }
  }

  private relationMessage(): PgoutputRelation {
    const id = this.int32();
    const schema = this.cstring();
    const name = this.cstring();
    const replicaIdentity = String.fromCharCode(this.buf[this.pos++]!) as ReplicaIdentity;
    const n = this.int16();
    const columns: PgoutputColumn[] = [];
    for (let i = 0; i < n; i++) {
      const flags = this.buf[this.pos++]!;
      const columnName = this.cstring();
      const typeOid = this.int32();
      columns.push({ name: columnName, typeOid, typeMod: this.int32(), key: (flags & 1) === 1 });
    }
    const relation: PgoutputRelation = { id, schema, name, replicaIdentity, columns };
    this.relations.set(id, relation);
    return relation;
  }

  private relationOf(id: number): PgoutputRelation {
    const relation = this.relations.get(id);
    if (relation === undefined) throw new PgoutputProtocolError(`a change of relation ${id}, which was never described`);
    return relation;
  }

  private tuple(): TupleValues {
    const buf = this.buf;
    const n = this.int16();
    const values: TupleValues = new Array(n);
    for (let i = 0; i < n; i++) {
      const kind = buf[this.pos++];
      if (kind === 0x74 /* t */) {
        const len = this.int32();
        values[i] = buf.toString("utf8", this.pos, this.pos + len);
        this.pos += len;
      } else if (kind === 0x6e /* n */) values[i] = null;
      else if (kind === 0x75 /* u */) values[i] = undefined;
      else throw new PgoutputProtocolError(`unknown tuple value kind ${kind} (binary values are not requested)`);
    }
    return values;
  }

  private int16(): number {
    const v = this.buf.readUInt16BE(this.pos);
    this.pos += 2;
    return v;
  }

  private int32(): number {
    const v = this.buf.readInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  private int64(): bigint {
    const v = this.buf.readBigUInt64BE(this.pos);
    this.pos += 8;
    return v;
  }

  private timestamp(): number {
    const micros = this.buf.readBigInt64BE(this.pos);
    this.pos += 8;
    return Number(micros / 1000n) + PG_EPOCH_MS;
  }

  private cstring(): string {
    const end = this.buf.indexOf(0, this.pos);
    const s = this.buf.toString("utf8", this.pos, end);
    this.pos = end + 1;
    return s;
  }
}
