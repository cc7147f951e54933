/**
 * The etcd client of the high-availability services (`etcd3`, over gRPC),
 * loaded on first use so that a process without high availability does not
 * import it (or gRPC) at start-up.
 */
import type * as Etcd3Module from "etcd3";

/** A connected client (the `etcd3` package's). */
export type EtcdClient = Etcd3Module.Etcd3;

/** The client module. */
export type EtcdModule = typeof Etcd3Module;

let loading: Promise<EtcdModule> | undefined;

/** The `etcd3` module, imported once per thread on first call. */
export function etcdModule(): Promise<EtcdModule> {
  loading ??= import("etcd3");
  return loading;
}

/**
 * A client of the etcd cluster at `endpoints` whose unary calls fail after
 * `requestTimeoutMs` instead of waiting for an unreachable server forever
 * (streams such as watches have no deadline). It connects lazily: the first
 * call connects.
 *
 * @example
 * ```ts
 * const client = await connectEtcd(["http://127.0.0.1:2379"], 5_000);
 * await client.put("/weir/default/hello").value("world");
 * client.close();
 * ```
 */
export async function connectEtcd(endpoints: readonly string[], requestTimeoutMs: number): Promise<EtcdClient> {
  const { Etcd3 } = await etcdModule();
  return new Etcd3({
    hosts: [...endpoints],
    dialTimeout: requestTimeoutMs,
    defaultCallOptions: (context) => (context.isStream ? {} : { deadline: Date.now() + requestTimeoutMs }),
  });
}

/** etcd's revisions are int64 decimal text; Weir's stay far below 2^53. */
export function revisionNumber(text: string | undefined): number {
  const n = Number(text ?? "0");
  if (!Number.isSafeInteger(n)) throw new RangeError(`etcd revision ${text} is beyond 2^53`);
  return n;
}
