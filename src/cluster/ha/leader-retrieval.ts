/**
 * Finding the leader of a component (Flink's `LeaderRetrievalService`): task
 * managers and clients read the address the leader published in its leader
 * key, and follow it when another contender takes over.
 */
import type { IKeyValue } from "etcd3";
import { type EtcdClient, revisionNumber } from "./etcd-client.ts";
import type { HaKeys } from "./ha-keys.ts";
import type { LeaderAddress } from "./leader-election.ts";

/** The leader as its key says. */
export interface LeaderInfo extends LeaderAddress {
  readonly contenderId: string;
  /** Its epoch: higher for every later leader. */
  readonly epoch: number;
}

/**
 * The current leader of `component`, or null when none leads.
 *
 * @example
 * ```ts
 * const leader = await currentLeader(client, keys, "jobmanager");
 * if (leader) await fetch(`${leader.restAddress}/jobs/overview`);
 * ```
 */
export async function currentLeader(client: EtcdClient, keys: HaKeys, component: string): Promise<LeaderInfo | null> {
  const res = await client.get(keys.leader(component)).exec();
  const kv = res.kvs[0];
  return kv === undefined ? null : leaderInfo(kv);
}

/** A running watch of a component's leader; `close` ends it. */
export interface LeaderWatch {
  close(): Promise<void>;
}

/**
 * Calls `listener` with the current leader of `component` (null: none), then
 * again at every change — a new leader, or none after the leader's key is gone.
 *
 * @example
 * ```ts
 * const watch = await watchLeader(client, keys, "jobmanager", (leader) => {
 *   if (leader) connectTo(leader.rpcAddress); // register with the new leader
 * });
 * // …
 * await watch.close();
 * ```
 */
export async function watchLeader(client: EtcdClient, keys: HaKeys, component: string, listener: (leader: LeaderInfo | null) => void): Promise<LeaderWatch> {
  const key = keys.leader(component);
  const res = await client.get(key).exec();
  const kv = res.kvs[0];
  listener(kv === undefined ? null : leaderInfo(kv));
  const watcher = await client.watch().key(key).startRevision(String(revisionNumber(res.header.revision) + 1)).create();
  watcher.on("put", (put) => listener(leaderInfo(put)));
  watcher.on("delete", () => listener(null));
  return { close: () => watcher.cancel() };
}

function leaderInfo(kv: IKeyValue): LeaderInfo {
  const { contenderId, rpcAddress, restAddress } = JSON.parse(kv.value.toString("utf8")) as Omit<LeaderInfo, "epoch">;
  return { contenderId, rpcAddress, restAddress, epoch: revisionNumber(kv.create_revision) };
}
