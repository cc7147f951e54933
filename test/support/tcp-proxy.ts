/**
 * A TCP proxy on 127.0.0.1 in front of a server, for partition-like tests: a client connected through it can be
 * cut off (nothing passes either way: calls hang as across a dropped network link, new connections wait) and
 * reconnected (held data and connections go through again), while the server stays up for everyone else.
 */
import { createConnection, createServer, type Socket } from "node:net";

/** A running proxy. */
export interface TcpProxy {
  readonly port: number;
  /** Stops every byte in both directions, on open connections and new ones, until `heal`. */
  cut(): void;
  /** Lets everything through again. */
  heal(): void;
  /** Closes the proxy and every connection through it. */
  close(): Promise<void>;
}

interface Pair {
  readonly down: Socket;
  up?: Socket;
}

/**
 * Starts a proxy to 127.0.0.1:`targetPort` on a free port.
 *
 * @example
 * ```ts
 * const proxy = await startTcpProxy(etcd.clientPort);
 * const endpoint = `http://127.0.0.1:${proxy.port}`; // this client's way to etcd
 * proxy.cut(); // a partition between this client and etcd
 * ```
 */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let blocked = false;

  const flow = (pair: Pair): void => {
    if (pair.up === undefined) {
      const up = createConnection(targetPort, "127.0.0.1");
      pair.up = up;
      up.on("error", () => pair.down.destroy());
      up.on("close", () => pair.down.destroy());
    }
    pair.down.pipe(pair.up);
    pair.up.pipe(pair.down);
  };
  const stop = (pair: Pair): void => {
    pair.down.unpipe();
    pair.up?.unpipe();
    pair.down.pause();
    pair.up?.pause();
  };

  const server = createServer((down) => {
    const pair: Pair = { down };
    pairs.add(pair);
    down.on("error", () => pair.up?.destroy());
    down.on("close", () => {
      pair.up?.destroy();
      pairs.delete(pair);
    });
    if (blocked) down.pause();
    else flow(pair);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the proxy has no port");
  return {
    port: address.port,
    cut: () => {
      blocked = true;
      pairs.forEach(stop);
    },
    heal: () => {
      blocked = false;
      pairs.forEach(flow);
    },
    close: async () => {
      for (const p of pairs) {
        p.down.destroy();
        p.up?.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
