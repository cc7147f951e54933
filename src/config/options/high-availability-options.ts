/**
 * Options of high availability (Flink's `HighAvailabilityOptions`): leader
 * election, the checkpoint id counter, the completed checkpoint store and the
 * submitted jobs kept in etcd (docs/high-availability.md). Flink has no etcd
 * services: the `high-availability.etcd.*` keys are Weir's, named after
 * Flink's Kubernetes ones.
 */
import { ConfigOptions } from "../config-option.ts";

/** `high-availability.type`: none or etcd. */
export const HA_TYPE = ConfigOptions.enumeration(
  "high-availability.type",
  ["none", "etcd"],
  "The high-availability services of a cluster: none (a job manager alone; its jobs end with it) or etcd (leader election, checkpoint ids, completed checkpoints and submitted jobs in etcd, so a standby job manager takes over).",
  "none",
  { aliases: ["high-availability"] },
);

/** `high-availability.etcd.endpoints`: comma-separated client URLs. */
export const HA_ETCD_ENDPOINTS = ConfigOptions.string(
  "high-availability.etcd.endpoints",
  "The client URLs of the etcd cluster, comma-separated (http://host:2379,http://other:2379); required with high-availability.type etcd.",
  undefined,
  { check: (text) => (text.split(",").every((u) => /^https?:\/\/[^/\s]+\/?$/.test(u.trim())) ? undefined : "comma-separated http:// or https:// URLs such as http://127.0.0.1:2379") },
);

/** `high-availability.cluster-id`: the cluster's own part of the key space. */
export const HA_CLUSTER_ID = ConfigOptions.string(
  "high-availability.cluster-id",
  "The id of the cluster: its keys in etcd are under /weir/<cluster-id>/, so clusters sharing one etcd stay apart.",
  "default",
  { check: (id) => (/^[A-Za-z0-9._-]+$/.test(id) ? undefined : "letters, digits, '.', '_' or '-' (no '/')") },
);

/** `high-availability.storageDir`: durable storage for what is too large for etcd. */
export const HA_STORAGE_DIR = ConfigOptions.string(
  "high-availability.storageDir",
  "A directory every job manager reaches (a shared file system; later object storage) for what is too large for etcd: the bundles of submitted jobs, which a standby needs to recover them; required with high-availability.type etcd.",
);

/** `high-availability.etcd.lease-ttl`: the lease of a leader; its local step-down deadline. */
export const HA_ETCD_LEASE_TTL = ConfigOptions.duration(
  "high-availability.etcd.lease-ttl",
  "The TTL of a leader's etcd lease (whole seconds): a standby takes over at most this long after the leader stopped renewing it, and a leader that cannot renew it steps down by itself within this time (Flink's Kubernetes lease duration).",
  15_000,
  { check: (ms) => (ms >= 1_000 && ms % 1_000 === 0 ? undefined : "a whole number of seconds, at least 1 s") },
);

export const HIGH_AVAILABILITY_OPTIONS = [HA_TYPE, HA_ETCD_ENDPOINTS, HA_CLUSTER_ID, HA_STORAGE_DIR, HA_ETCD_LEASE_TTL] as const;
