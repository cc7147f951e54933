/**
 * Contenders for the leadership of "jobmanager" in the high-availability tests, each with its own etcd client,
 * recording what they were told — and checking on every grant that no other contender of the test still
 * considers itself the leader (the one property leader election must never break); and the leader etcd names.
 */
import { randomBytes } from "node:crypto";
import { onTestFinished } from "vitest";
import { EtcdHaServices, type LeaderElection, type LeaderInfo, type Leadership } from "../../src/cluster/ha/index.ts";
import type { Clock } from "../../src/util/clock.ts";
import { waitFor } from "./cli-process.ts";

/** One contender and what happened to it. */
export interface Contender {
  readonly name: string;
  readonly ha: EtcdHaServices;
  readonly election: LeaderElection;
  /** Every leadership granted, in order. */
  readonly granted: Leadership[];
  /** Every leadership lost, with why and when (Date.now()), in order. */
  readonly lost: { leadership: Leadership; reason: string; at: number }[];
  /** When (Date.now()) each leadership was granted. */
  readonly grantedAt: number[];
  /** The leadership granted last. */
  last(): Leadership | undefined;
}

/** A fresh cluster id, so each test has its own keys. */
export function freshClusterId(): string {
  return `test-${randomBytes(4).toString("hex")}`;
}

/**
 * A maker of contenders on one cluster id, called in a test: all of them are stopped and closed when the test ends. `violations`
 * lists grants that happened while another contender's leadership was still active.
 *
 * @example
 * ```ts
 * const { contender, violations } = contenders(freshClusterId(), 2_000);
 * const a = await contender("a", etcd.endpoint);
 * a.election.start();
 * ```
 */
export function contenders(clusterId: string, leaseTtlMs: number): {
  contender(name: string, endpoint: string, clock?: Clock): Promise<Contender>;
  readonly violations: string[];
} {
  const all: Contender[] = [];
  const violations: string[] = [];
  onTestFinished(async () => {
    for (const c of all) await c.election.stop();
    for (const c of all) c.ha.close();
  });
  return {
    violations,
    async contender(name, endpoint, clock) {
      const ha = await EtcdHaServices.connect({ endpoints: [endpoint], clusterId, storageDir: "/unused", leaseTtlMs }, clock ? { clock } : {});
      const granted: Leadership[] = [];
      const grantedAt: number[] = [];
      const lost: Contender["lost"] = [];
      const election = ha.leaderElection({
        component: "jobmanager",
        contenderId: name,
        address: { rpcAddress: `${name}:6123`, restAddress: `http://${name}:8081` },
        onLeadershipGranted: (leadership) => {
          for (const other of all) {
            const active = other.last();
            if (other.name !== name && active?.active) violations.push(`${name} was granted epoch ${leadership.epoch} while ${other.name} held epoch ${active.epoch}`);
          }
          granted.push(leadership);
          grantedAt.push(Date.now());
        },
        onLeadershipLost: (leadership, reason) => void lost.push({ leadership, reason, at: Date.now() }),
      });
      const c: Contender = { name, ha, election, granted, grantedAt, lost, last: () => granted.at(-1) };
      all.push(c);
      return c;
    },
  };
}

/** Starts `c` contending and resolves with its leadership once it leads (up to 60 s). */
export async function leading(c: Contender): Promise<Leadership> {
  c.election.start();
  await waitFor(`${c.name} to lead`, () => c.last()?.active === true, 60_000);
  return c.last()!;
}

/**
 * The leader of "jobmanager" as etcd names it now (a cluster's job managers are the contenders), or null.
 *
 * @example
 * ```ts
 * expect((await leaderInEtcd(etcd.endpoint, "failover"))?.restAddress).toBe(standby.url);
 * ```
 */
export async function leaderInEtcd(endpoint: string, clusterId: string): Promise<LeaderInfo | null> {
  const ha = await EtcdHaServices.connect({ endpoints: [endpoint], clusterId, storageDir: "/unused", leaseTtlMs: 3_000 });
  try {
    return await ha.currentLeader("jobmanager");
  } finally {
    ha.close();
  }
}
