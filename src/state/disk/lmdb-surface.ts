/**
 * The part of the `lmdb` package's API the disk store uses, declared here so
 * that Weir's published type declarations do not import lmdb's own (which do
 * not type-check under `module: NodeNext` without `skipLibCheck`). Checked
 * against lmdb's declarations where the store opens it (disk-store.ts).
 */

/** A read transaction: a consistent view of the store until `done()`. */
export interface LmdbReadTransaction {
  done(): void;
}

/** One entry of a range read. */
export interface LmdbEntry {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

/** Range bounds, optionally read in a read transaction. */
export interface LmdbRange {
  readonly start?: Uint8Array;
  readonly end?: Uint8Array;
  /** At most this many entries. */
  readonly limit?: number;
  readonly transaction?: LmdbReadTransaction;
}

/** An LMDB environment's root database with binary keys and values. */
export interface LmdbDatabase {
  getBinary(key: Uint8Array, options?: { readonly transaction?: LmdbReadTransaction }): Uint8Array | undefined;
  getRange(range: LmdbRange): Iterable<LmdbEntry>;
  getKeys(range: LmdbRange): Iterable<Uint8Array>;
  putSync(key: Uint8Array, value: Uint8Array): boolean;
  removeSync(key: Uint8Array): boolean;
  clearSync(): void;
  transactionSync<T>(fn: () => T): T;
  useReadTransaction(): LmdbReadTransaction;
  getStats(): { entryCount: number };
  close(): Promise<void>;
}

/** Opens an environment (lmdb's `open`) in directory mode with binary keys and values. */
export type LmdbOpen = (options: {
  path: string;
  keyEncoding: "binary";
  encoding: "binary";
  noSync: boolean;
  cache: boolean;
}) => LmdbDatabase;
