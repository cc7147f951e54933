/**
 * Typed errors of the state layer. Each names the place: the operator uid,
 * the state name and, where it applies, the key.
 */

/** What keys may be made of, quoted by {@link UnsupportedKeyError}. */
export const ALLOWED_KEYS =
  "keys must be strings, finite numbers, bigints, booleans, or (nested) arrays of those";

/** What state values may be made of, quoted by {@link StateSerializationError}. */
export const ALLOWED_STATE_VALUES =
  "state values must be plain data: null, undefined, booleans, numbers, strings, bigints, arrays, " +
  "plain objects, Map, Set, Date, Uint8Array (nested, without cycles)";

/**
 * A key (from `keyBy`) that cannot be hashed deterministically, such as an
 * object, `undefined`, `NaN` or a symbol.
 *
 * @example
 * ```ts
 * try { canonicalKey({ id: 1 }); } catch (e) { if (e instanceof UnsupportedKeyError) console.error(e.message); }
 * ```
 */
export class UnsupportedKeyError extends Error {
  /**
   * @param description - what the key is, e.g. `"a plain object"` or `"the number NaN"`
   * @param path - where inside an array key the bad part sits (`""` for the key itself)
   * @param operatorUid - the operator that received the key, when known
   */
  constructor(
    readonly description: string,
    readonly path: string = "",
    readonly operatorUid?: string,
  ) {
    const at = path === "" ? "" : ` at ${path}`;
    const where = operatorUid === undefined ? "" : ` in operator '${operatorUid}'`;
    super(`unsupported key${where}: got ${description}${at}; ${ALLOWED_KEYS}`);
    this.name = "UnsupportedKeyError";
  }
}

/** A state value that is not plain data and so cannot be checkpointed. */
export class StateSerializationError extends Error {
  /**
   * @param message - the full message, naming operator, state, key and the offending part
   * @param operatorUid - operator whose state failed, when known
   * @param stateName - state descriptor name, when known
   */
  constructor(
    message: string,
    readonly operatorUid?: string,
    readonly stateName?: string,
  ) {
    super(message);
    this.name = "StateSerializationError";
  }
}

/** The same state name registered twice with different kinds (e.g. value then list). */
export class StateKindMismatchError extends Error {
  constructor(
    readonly operatorUid: string,
    readonly stateName: string,
    readonly existingKind: string,
    readonly requestedKind: string,
  ) {
    super(
      `state '${stateName}' in operator '${operatorUid}' is already registered as ${existingKind} state; ` +
        `it cannot also be used as ${requestedKind} state (use another name)`,
    );
    this.name = "StateKindMismatchError";
  }
}

/**
 * The same state name registered twice in one operator with the same kind but
 * another default value, reduce function or aggregate function: both would
 * silently share the state of the first registration.
 */
export class StateDescriptorMismatchError extends Error {
  constructor(
    readonly operatorUid: string,
    readonly stateName: string,
    /** How, e.g. `default value 0 and again with default value ""`. */
    readonly difference: string,
  ) {
    super(
      `state '${stateName}' in operator '${operatorUid}' was registered with ${difference}: ` +
        "one name is one state; use the same descriptor, or another name",
    );
    this.name = "StateDescriptorMismatchError";
  }
}

/** Keyed state accessed when no current key is set (outside `processElement` / a keyed timer). */
export class NoCurrentKeyError extends Error {
  constructor(
    readonly operatorUid: string,
    readonly stateName: string,
  ) {
    super(
      `keyed state '${stateName}' in operator '${operatorUid}' was accessed with no current key; ` +
        `keyed state is only available while processing a keyed record or timer`,
    );
    this.name = "NoCurrentKeyError";
  }
}

/** A key whose key group this backend does not own: records were routed to the wrong subtask. */
export class KeyGroupOutOfRangeError extends Error {
  constructor(
    readonly operatorUid: string,
    readonly key: string,
    readonly keyGroup: number,
    readonly range: readonly [number, number],
  ) {
    super(
      `key ${key} belongs to key group ${keyGroup}, outside the range [${range[0]}, ${range[1]}] ` +
        `of this subtask of operator '${operatorUid}' (a partitioning bug: the record reached the wrong subtask)`,
    );
    this.name = "KeyGroupOutOfRangeError";
  }
}

/** A snapshot blob that cannot be restored (corrupt, another format, or another max parallelism). */
export class StateRestoreError extends Error {
  constructor(
    readonly operatorUid: string,
    detail: string,
  ) {
    super(`cannot restore state of operator '${operatorUid}': ${detail}`);
    this.name = "StateRestoreError";
  }
}

/**
 * A state restored from a snapshot with TTL registered without TTL, or the
 * other way round: the stored values have another form (Flink refuses this
 * too, as an incompatible serializer).
 *
 * @example
 * ```ts
 * try { backend.getState(new ValueStateDescriptor("count")); } // checkpointed with TTL
 * catch (e) { if (e instanceof StateTtlMismatchError) console.error(e.operatorUid, e.stateName, e.message); }
 * ```
 */
export class StateTtlMismatchError extends Error {
  constructor(
    readonly operatorUid: string,
    readonly stateName: string,
    /** Whether the snapshot's values were stored with TTL. */
    readonly storedWithTtl: boolean,
  ) {
    const [was, now] = storedWithTtl ? ["with", "without"] : ["without", "with"];
    super(
      `state '${stateName}' in operator '${operatorUid}' was checkpointed ${was} TTL and is now registered ${now} TTL: ` +
        `TTL cannot be ${storedWithTtl ? "removed from" : "added to"} a state with existing checkpoints; ` +
        "keep the descriptor's TTL setting, or use another state name",
    );
    this.name = "StateTtlMismatchError";
  }
}

/**
 * The local store of the disk keyed state backend failed: it cannot be opened
 * (unreadable, corrupt, not an LMDB store), a write failed (a full disk:
 * ENOSPC or MDB_MAP_FULL), or a stored value cannot be read back. Names the
 * store's directory (and file where known) and the operator; the state is
 * never silently empty.
 */
export class DiskStateStoreError extends Error {
  constructor(
    readonly operatorUid: string,
    /** The store's directory or file. */
    readonly path: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`keyed state store of operator '${operatorUid}' at ${path}: ${detail}`, options);
    this.name = "DiskStateStoreError";
  }
}
