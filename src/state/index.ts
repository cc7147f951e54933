/**
 * Keyed and operator state: key groups, state descriptors and handles, the
 * keyed state backends (heap, disk), operator list state and state value encoding.
 */

export { canonicalKey, decodeCanonicalKey } from "./canonical-key.ts";
export {
  DEFAULT_MAX_PARALLELISM,
  keyGroupOf,
  keyGroupRangeForSubtask,
  subtaskForKeyGroup,
} from "./key-groups.ts";
export {
  type AggregateFunction,
  AggregatingStateDescriptor,
  type AnyStateDescriptor,
  ListStateDescriptor,
  MapStateDescriptor,
  ReducingStateDescriptor,
  type StateKind,
  ValueStateDescriptor,
} from "./descriptors.ts";
export type { AggregatingState, ListState, MapState, ReducingState, ValueState } from "./state-handles.ts";
export type { StateSnapshot } from "./state-snapshot.ts";
export {
  DiskStateStoreError,
  KeyGroupOutOfRangeError,
  NoCurrentKeyError,
  StateDescriptorMismatchError,
  StateKindMismatchError,
  StateRestoreError,
  StateSerializationError,
  StateTtlMismatchError,
  UnsupportedKeyError,
} from "./errors.ts";
export {
  type IncrementalCleanup,
  StateTtlConfig,
  StateTtlConfigBuilder,
  StateVisibility,
  UpdateType,
} from "./ttl/state-ttl-config.ts";
export { decodeStateValue, encodeStateValue, type StateValueContext } from "./serializer.ts";
export {
  KeyedStateBackend,
  type EngineKeyedState,
  type KeyedStateBackendOptions,
  type SnapshotType,
} from "./keyed-state-backend.ts";
export {
  HeapKeyedStateBackend,
  type HeapKeyedStateBackendOptions,
  type HeapStateStats,
} from "./heap/heap-keyed-state-backend.ts";
export {
  DEFAULT_CACHE_ENTRIES,
  DiskKeyedStateBackend,
  type DiskKeyedStateBackendOptions,
  type DiskStateSnapshot,
  type DiskStateStats,
  type LocalSnapshotId,
} from "./disk/disk-keyed-state-backend.ts";
export { OperatorStateBackend } from "./operator/operator-state-backend.ts";
export { redistributeOperatorState } from "./operator/redistribute-operator-state.ts";
