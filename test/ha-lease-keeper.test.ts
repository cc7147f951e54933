/**
 * The lease of a contender on a real etcd: kept alive well past its TTL, given up by its holder when etcd says
 * it is gone, and left to expire after `close(false)`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectEtcd, type EtcdClient } from "../src/cluster/ha/etcd-client.ts";
import { LeaseKeeper } from "../src/cluster/ha/lease-keeper.ts";
import { systemClock } from "../src/util/clock.ts";
import { waitFor } from "./support/cli-process.ts";
import { startEtcd, type EtcdServer } from "./support/etcd-server.ts";
import { waitForQuery } from "./support/postgres-wait.ts";

let etcd: EtcdServer;
let client: EtcdClient;
beforeAll(async () => {
  etcd = await startEtcd();
  client = await connectEtcd([etcd.endpoint], 5_000);
});
afterAll(async () => {
  client?.close();
  await etcd?.stop();
});

describe("LeaseKeeper", () => {
  it("keeps its lease alive for several TTLs, then lets it expire after close(false)", async () => {
    const expired: string[] = [];
    const keeper = await LeaseKeeper.grant({ client, ttlMs: 1_000, clock: systemClock, onExpired: (r) => void expired.push(r) });
    await client.put("/weir/test/kept").value("x").lease(keeper.leaseId);
    const first = keeper.deadline;
    await waitFor("keep-alives to carry the deadline 4 TTLs on", () => keeper.deadline >= first + 4_000, 60_000);
    expect(expired).toEqual([]);
    expect(await client.get("/weir/test/kept").string()).toBe("x"); // alive in etcd after 4 TTLs

    await keeper.close(false);
    await waitForQuery("the lease to expire in etcd", async () => (await client.get("/weir/test/kept").string()) === null, 60_000);
    expect(keeper.expired).toBe(true);
    expect(expired).toEqual([]); // closing is not expiring
  });

  it("expires at the next keep-alive once etcd has dropped the lease", async () => {
    const expired: string[] = [];
    const keeper = await LeaseKeeper.grant({ client, ttlMs: 3_000, clock: systemClock, onExpired: (r) => void expired.push(r) });
    await client.leaseClient.leaseRevoke({ ID: keeper.leaseId }); // as etcd does when a lease times out
    await waitFor("the keeper to hear it", () => expired.length === 1, 60_000);
    expect(expired[0]).toBe(`etcd says lease ${keeper.leaseId} has expired`);
    expect(keeper.expired).toBe(true);
  });

  it("refuses a TTL that is not whole seconds", async () => {
    await expect(LeaseKeeper.grant({ client, ttlMs: 1_500, clock: systemClock, onExpired: () => {} })).rejects.toThrow("a lease TTL is a whole number of seconds ≥ 1 s, not 1500 ms");
  });
});
