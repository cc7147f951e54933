/**
 * The REST API of the leading job manager of a cluster with high availability,
 * looked up in etcd (the leader key's `restAddress`): how `weir run -m`
 * follows its job across a change of leader when it is given the cluster's
 * `high-availability.*` keys (docs/cluster-client.md).
 */
import { EtcdHaServices, type HaSettings } from "../cluster/ha/index.ts";
import { RestClient } from "./rest-client.ts";

/**
 * A lookup of the leader's REST API; each call asks etcd once (a client of its own, closed after).
 *
 * @example
 * ```ts
 * const locate = leaderRest(haSettings(conf)!, token);
 * const rest = await locate(); // RestClient of the leader, or null while none leads
 * ```
 */
export function leaderRest(settings: HaSettings, token: string | undefined): () => Promise<RestClient | null> {
  return async () => {
    const ha = await EtcdHaServices.connect(settings);
    try {
      const leader = await ha.currentLeader("jobmanager");
      return leader ? new RestClient(leader.restAddress.replace(/\/+$/, ""), token) : null;
    } finally {
      ha.close();
    }
  };
}
