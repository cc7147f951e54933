/**
 * A worker's end of the TCP data plane: its server (one per worker, on
 * `host:0`) and its `TcpLink` to each peer worker in another process. The
 * worker with the lower index connects to the higher one's server; the server
 * reads the hello of each connection and hands it to the link of the worker
 * it names, or refuses it (wrong token, not a peer, not a hello) with a
 * refusal frame that says why.
 *
 * @example
 * ```ts
 * const plane = new TcpDataPlane({ self: 1, host: "0.0.0.0", peers: [0, 2], token });
 * const port = await plane.listening;       // told to the other workers
 * plane.setPeers({ 2: { host: "10.0.0.3", port: 40123 } }); // worker 1 connects to worker 2
 * const links = plane.links;                // for the task manager
 * ```
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type Server, type Socket } from "node:net";
import { getLogger } from "../../util/logger.ts";
import { FrameReader, FrameWriter, MAX_FRAME_BYTES, MAX_HELLO_BYTES, parseHello, REFUSE } from "./tcp-frames.ts";
import { TcpLink } from "./tcp-link.ts";

/** Longest wait for the hello of a new connection. */
const HELLO_TIMEOUT_MS = 10_000;

/** Where a worker's data server listens. */
export interface TcpPeerAddress {
  readonly host: string;
  readonly port: number;
}

export interface TcpDataPlaneOptions {
  /** This worker's index. */
  readonly self: number;
  /** Interface the server listens on (port 0: any free port). */
  readonly host: string;
  /** Indices of the workers reached over TCP. */
  readonly peers: readonly number[];
  /** Secret every hello must carry. */
  readonly token: string;
}

export class TcpDataPlane {
  private readonly server: Server;
  private readonly tokenHash: Buffer;
  /** The link to each peer, by its index (the same object for the worker's life; its connection may change). */
  readonly links: ReadonlyMap<number, TcpLink>;
  /** The port the server listens on, once it does. */
  readonly listening: Promise<number>;

  constructor(private readonly o: TcpDataPlaneOptions) {
    this.tokenHash = hash(o.token);
    this.links = new Map(o.peers.map((p) => [p, new TcpLink({ self: o.self, peer: p, token: o.token })]));
    this.server = createServer((socket) => this.accept(socket));
    this.listening = new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen({ host: o.host, port: 0 }, () => resolve((this.server.address() as { port: number }).port));
    });
  }

  /**
   * Addresses of peers: this worker connects to each one with a higher index (again, if it had a
   * connection: the peer was started again); a peer with a lower index connects to this one. With
   * `started`, the peers were just started (told to the workers that ran before them): a connection
   * from a lower one's previous thread is dropped now (see `TcpLink.peerReplaced`).
   */
  setPeers(peers: Readonly<Record<number, TcpPeerAddress>>, started = false): void {
    for (const [k, address] of Object.entries(peers)) {
      const peer = Number(k);
      const link = this.links.get(peer);
      if (!link) throw new Error(`worker ${this.o.self} has no TCP link to worker ${peer} (its peers: ${this.o.peers.join(", ")})`);
      if (peer > this.o.self) link.connect(address.host, address.port); // which replaces a connection to an earlier peer
      else if (started) link.peerReplaced();
    }
  }

  /** Closes the server and every link. */
  close(): void {
    this.server.close();
    for (const l of this.links.values()) l.close();
  }

  /** Reads the hello of a new connection and hands the connection to its link. */
  private accept(socket: Socket): void {
    const reader = new FrameReader(MAX_HELLO_BYTES);
    const timer = setTimeout(() => refuse(`no hello within ${HELLO_TIMEOUT_MS} ms`), HELLO_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      socket.off("data", onData);
      socket.off("error", onError);
    };
    const refuse = (reason: string) => {
      done();
      getLogger().warn({ component: "tcp-link", worker: this.o.self }, `worker ${this.o.self} refused a data connection from ${socket.remoteAddress}:${socket.remotePort}: ${reason}`);
      const w = new FrameWriter();
      w.control(REFUSE, Buffer.from(reason, "utf8"));
      socket.end(w.take()!, () => socket.destroy());
    };
    const onError = () => {
      done();
      socket.destroy();
    };
    const onData = (chunk: Buffer) => {
      reader.push(chunk);
      let frame: Buffer | undefined;
      try {
        frame = reader.next();
      } catch (e) {
        return refuse((e as Error).message);
      }
      if (!frame) return;
      const hello = parseHello(frame);
      if (typeof hello === "string") return refuse(hello);
      if (!timingSafeEqual(hash(hello.token), this.tokenHash)) return refuse("wrong token");
      if (hello.to !== this.o.self) return refuse(`this is worker ${this.o.self}, not worker ${hello.to}`);
      const link = this.links.get(hello.from);
      if (!link || hello.from > this.o.self) return refuse(`worker ${hello.from} does not connect to worker ${this.o.self}`);
      done();
      reader.maxFrame = MAX_FRAME_BYTES;
      link.attach(socket, reader, hello.generation);
    };
    socket.on("data", onData);
    socket.on("error", onError);
  }
}

function hash(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}
