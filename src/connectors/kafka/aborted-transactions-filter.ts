/**
 * The read_committed filter of a Kafka source, as the Java consumer does it. With isolation level
 * read_committed the broker returns data up to the last stable offset, aborted transactions included, and
 * lists with each partition's data the aborted transactions it overlaps (producer id, first offset). The
 * filter walks the batches in offset order: when a transactional batch reaches the first offset of a listed
 * aborted transaction, that producer is aborted until its abort marker (a control batch); its batches in
 * between are skipped; control batches are never records.
 *
 * The state lives across fetch responses, so a transaction whose abort marker comes in a later response is
 * still skipped (the client's own filter only removes a transaction whose marker is in the same response).
 */

/** The part of a record batch the filter reads. */
export interface BatchHeader {
  readonly firstOffset: bigint;
  readonly lastOffsetDelta: number;
  readonly attributes: number;
  readonly producerId: bigint;
  readonly records: readonly { readonly key: Uint8Array | null }[];
}

/** An aborted transaction as a fetch response lists it. */
export interface AbortedTransaction {
  readonly producerId: bigint;
  readonly firstOffset: bigint;
}

const IS_TRANSACTIONAL = 0x10;
const IS_CONTROL = 0x20;

/** Whether a control batch is an abort marker (its record key: version int16, type int16 with 0 = abort). */
function isAbortMarker(batch: BatchHeader): boolean {
  const key = batch.records[0]?.key;
  if (!key || key.length < 4) return false;
  return ((key[2]! << 8) | key[3]!) === 0;
}

/**
 * The filter of one partition: `startResponse` with the aborted transactions of each fetch response, then
 * `accept` every batch of that response in order.
 *
 * @example
 * ```ts
 * const filter = new AbortedTransactionsFilter();
 * filter.startResponse(partition.abortedTransactions);
 * for (const batch of partition.records ?? []) if (filter.accept(batch)) emit(batch);
 * ```
 */
export class AbortedTransactionsFilter {
  /** Producers inside an aborted transaction (until its abort marker). */
  private readonly aborted = new Set<bigint>();
  /** This response's aborted transactions not reached yet, by first offset. */
  private pending: AbortedTransaction[] = [];

  /** The aborted transactions a new fetch response lists for this partition. */
  startResponse(abortedTransactions: readonly AbortedTransaction[]): void {
    this.pending = [...abortedTransactions].sort((a, b) => (a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0));
  }

  /** Whether the records of `batch` are to be read (false for control batches and aborted transactions' batches). */
  accept(batch: BatchHeader): boolean {
    const control = (batch.attributes & IS_CONTROL) !== 0;
    if ((batch.attributes & IS_TRANSACTIONAL) !== 0) {
      const last = batch.firstOffset + BigInt(batch.lastOffsetDelta);
      while (this.pending.length > 0 && this.pending[0]!.firstOffset <= last) this.aborted.add(this.pending.shift()!.producerId);
      if (control) {
        if (isAbortMarker(batch)) this.aborted.delete(batch.producerId);
        return false;
      }
      return !this.aborted.has(batch.producerId);
    }
    return !control;
  }
}
