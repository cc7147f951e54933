/**
 * High availability on etcd: leader election with fencing, the checkpoint id
 * counter, the completed checkpoint store and the job graph store
 * (docs/high-availability.md).
 */
export { CheckpointIdCounter, INITIAL_CHECKPOINT_ID } from "./checkpoint-id-counter.ts";
export { EtcdCompletedCheckpointStore, type CheckpointHandle } from "./completed-checkpoint-store.ts";
export { FencingError } from "./fencing-error.ts";
export { EtcdHaServices, haSettings, type ContenderOptions, type HaSettings } from "./ha-services.ts";
export { HaKeys } from "./ha-keys.ts";
export { EtcdJobGraphStore, type SubmittedJob } from "./job-graph-store.ts";
export { LeaderElection, type LeaderAddress, type LeaderElectionOptions } from "./leader-election.ts";
export { currentLeader, watchLeader, type LeaderInfo, type LeaderWatch } from "./leader-retrieval.ts";
export { Leadership, type FenceCompare, type FencedResult, type FencedTransaction } from "./leadership.ts";
