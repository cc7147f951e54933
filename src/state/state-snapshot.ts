/** The result of the synchronous part of a checkpoint of one backend. */
export interface StateSnapshot {
  /**
   * Asynchronous part: serializes the captured state (msgpack), yielding to the
   * event loop between slices so a large snapshot does not stall the stream.
   * Rejects with `StateSerializationError` naming the state, operator and key
   * when a value is not plain data. Calling it again returns the same promise.
   */
  serialize(): Promise<Uint8Array>;
  /** Drops the captured view (after serialize, or when the checkpoint is aborted). Idempotent. */
  release(): void;
}
