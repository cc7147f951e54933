/**
 * Hosts on a private network for partition tests: each host is a Linux network namespace joined by a veth
 * pair to one bridge in this machine's own namespace (the "root" host: the bridge's address, where the test
 * and its servers such as etcd are), all on one /24 of 10.213.0.0/16. A process runs on a host through
 * `ip netns exec`. A partition drops packets silently, as a cut cable does (connections hang, new ones
 * wait for an answer, nothing is refused), and heals without closing what was open:
 * - a host from everything: its port of the bridge goes down;
 * - a host from one other: each of the two sends the other's packets to a MAC address nobody has.
 *
 * Needs root (`ip netns add`); {@link networkHostsUnavailable} says why not, for a suite to skip. Names
 * carry the test process's id: the namespaces and links of a network are removed by `close()`, at the
 * process's exit, and (for a process that was killed) by the next network made on this machine.
 */
import { execFileSync } from "node:child_process";

/** A host of a {@link HostNetwork}. */
export interface NetworkHost {
  /** The name the test gave it ("root" for this machine's own namespace). */
  readonly name: string;
  /** Its address on the network: what its processes bind and what others reach it at. */
  readonly ip: string;
  /** The command prefix that runs a program on the host (`ip netns exec <namespace>`; empty for the root host). */
  readonly launcher: readonly string[];
}

/** A private network of hosts; see the file's comment. */
export interface HostNetwork {
  /** This machine's own namespace, at the bridge's address: where servers the hosts share listen. */
  readonly root: NetworkHost;
  /** The hosts, by the names they were made with. */
  readonly hosts: Readonly<Record<string, NetworkHost>>;
  /** Cuts `host` from every other host and the root, or (with `from`) from that one only, until {@link HostNetwork.heal}. */
  partition(host: NetworkHost, from?: NetworkHost): void;
  /** Ends every partition of `host`. */
  heal(host: NetworkHost): void;
  /** Removes the namespaces, links and bridge (the processes on the hosts should have ended first). */
  close(): void;
}

/** Start of every name (namespaces and links), then the process id (5 base-36 digits) and the network's number. */
const PREFIX = "weir";
const NAME = new RegExp(`^${PREFIX}([0-9a-z]{5})`);
/** Host names are short: a link's name is at most 15 characters. */
const HOST_NAME = /^[a-z][a-z0-9]{0,2}$/;
/** Where a partitioned peer's packets go: a locally administered MAC address no interface has. */
const NOWHERE_MAC = "02:00:00:00:00:00";

let made = 0;
let unavailable: string | undefined | null = null;
const open = new Set<HostNetwork>();

function ip(...args: string[]): void {
  execFileSync("ip", args, { stdio: ["ignore", "ignore", "pipe"] });
}

function ipOutput(...args: string[]): string {
  return execFileSync("ip", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/**
 * Why hosts cannot be made here (not root, no `ip`, no network namespaces), or undefined when they can;
 * found out once per process by making and removing a namespace.
 *
 * @example
 * ```ts
 * const why = networkHostsUnavailable();
 * if (why !== undefined) console.warn(`skipping the partition tests: ${why}`);
 * describe.skipIf(why !== undefined)("partitions", () => { … });
 * ```
 */
export function networkHostsUnavailable(): string | undefined {
  if (unavailable !== null) return unavailable;
  const probe = `${PREFIX}${pidPart()}p`;
  try {
    ip("netns", "add", probe);
    ip("netns", "del", probe);
    unavailable = undefined;
  } catch (e) {
    const stderr = String((e as { stderr?: Buffer }).stderr ?? (e as Error).message).trim();
    unavailable = `network namespaces cannot be made here (\`ip netns add\` needs root and the ip command): ${stderr}`;
  }
  return unavailable;
}

/**
 * Makes a network with the hosts `names` (each 1–3 lowercase letters or digits, starting with a letter).
 *
 * @example
 * ```ts
 * const net = makeHostNetwork(["a", "b"]);
 * afterAll(() => net.close());
 * const etcd = await startEtcd(net.root.ip);
 * const jm = await startJobManager(dir, flags, net.hosts.a);
 * net.partition(net.hosts.a); // a hears nothing and is heard by no one
 * net.heal(net.hosts.a);
 * ```
 */
export function makeHostNetwork(names: readonly string[]): HostNetwork {
  for (const n of names) if (!HOST_NAME.test(n) || n === "br") throw new RangeError(`host name '${n}': 1–3 lowercase letters or digits, starting with a letter (not 'br')`);
  removeLeftovers();
  const base = `${PREFIX}${pidPart()}${(made++ % 36).toString(36)}`;
  const bridge = `${base}br`;
  const subnet = freeSubnet();
  const created: { namespaces: string[]; links: string[] } = { namespaces: [], links: [bridge] };
  const namespace = (host: NetworkHost) => `${base}${host.name}`;
  const cuts = new Map<NetworkHost, Set<NetworkHost>>();

  const root: NetworkHost = { name: "root", ip: `${subnet}.1`, launcher: [] };
  const hosts: Record<string, NetworkHost> = {};
  /** `ip neigh` on `host`'s side of the network. */
  const neigh = (host: NetworkHost, ...args: string[]) =>
    host === root ? ip("neigh", ...args, "dev", bridge) : ip("-n", namespace(host), "neigh", ...args, "dev", "eth0");
  const cutPair = (a: NetworkHost, b: NetworkHost, on: boolean) => {
    for (const [self, peer] of [[a, b], [b, a]] as const) {
      if (on) neigh(self, "replace", peer.ip, "lladdr", NOWHERE_MAC, "nud", "permanent");
      else neigh(self, "del", peer.ip);
    }
  };

  const network: HostNetwork = {
    root,
    hosts,
    partition(host, from) {
      if (host === root) throw new RangeError("partition a host, not the root (partition each host from it instead)");
      const set = cuts.get(host) ?? new Set();
      cuts.set(host, set);
      if (from === undefined) {
        ip("link", "set", `${base}${host.name}`, "down");
        set.add(host);
      } else if (!set.has(from)) {
        cutPair(host, from, true);
        set.add(from);
      }
    },
    heal(host) {
      for (const other of cuts.get(host) ?? []) {
        if (other === host) ip("link", "set", `${base}${host.name}`, "up");
        else cutPair(host, other, false);
      }
      cuts.delete(host);
    },
    close() {
      if (!open.delete(network)) return;
      for (const ns of created.namespaces) quietly(() => ip("netns", "del", ns));
      for (const link of created.links) quietly(() => ip("link", "del", link));
    },
  };
  open.add(network);
  try {
    ip("link", "add", bridge, "type", "bridge");
    ip("link", "set", bridge, "up");
    ip("addr", "add", `${root.ip}/24`, "dev", bridge);
    names.forEach((name, i) => {
      const host: NetworkHost = { name, ip: `${subnet}.${i + 2}`, launcher: ["ip", "netns", "exec", `${base}${name}`] };
      const ns = namespace(host);
      const outer = `${base}${name}`;
      ip("netns", "add", ns);
      created.namespaces.push(ns);
      ip("link", "add", outer, "type", "veth", "peer", "name", `${outer}i`);
      created.links.push(outer);
      ip("link", "set", `${outer}i`, "netns", ns);
      ip("-n", ns, "link", "set", `${outer}i`, "name", "eth0");
      ip("-n", ns, "addr", "add", `${host.ip}/24`, "dev", "eth0");
      ip("-n", ns, "link", "set", "lo", "up");
      ip("-n", ns, "link", "set", "eth0", "up");
      ip("link", "set", outer, "master", bridge);
      ip("link", "set", outer, "up");
      hosts[name] = host;
    });
  } catch (e) {
    network.close();
    throw e;
  }
  return network;
}

/** This process's id in 5 base-36 digits (Linux pids stay below 36^5). */
function pidPart(pid = process.pid): string {
  return pid.toString(36).padStart(5, "0");
}

/** A /24 of 10.213.0.0/16 that no address of this machine is in (the first free one from this process's id on). */
function freeSubnet(): string {
  const used = ipOutput("-4", "-o", "addr", "show");
  for (let i = 0; i < 256; i++) {
    const subnet = `10.213.${(process.pid + made + i) % 256}`;
    if (!used.includes(` ${subnet}.`)) return subnet;
  }
  throw new Error("no free /24 in 10.213.0.0/16 for a host network");
}

/** Removes the namespaces and links of networks whose process is gone (killed before it could remove them). */
function removeLeftovers(): void {
  const gone = (name: string) => {
    const m = NAME.exec(name);
    if (!m) return false;
    try {
      process.kill(parseInt(m[1]!, 36), 0);
      return false;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === "ESRCH";
    }
  };
  for (const line of ipOutput("netns", "list").split("\n")) {
    const ns = line.split(" ")[0]!;
    if (gone(ns)) quietly(() => ip("netns", "del", ns));
  }
  for (const line of ipOutput("-o", "link", "show").split("\n")) {
    const link = /^\d+: ([^:@]+)/.exec(line)?.[1];
    if (link !== undefined && gone(link)) quietly(() => ip("link", "del", link));
  }
}

function quietly(step: () => void): void {
  try {
    step();
  } catch {
    // already gone
  }
}

process.on("exit", () => {
  for (const network of [...open]) network.close();
});
