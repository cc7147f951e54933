/**
 * An HTTP proxy in front of a test's S3 server that can hold a request: the next PUT of a checkpoint's
 * `_metadata` object is neither forwarded nor answered until the test releases it (dropping it), so a test can
 * SIGKILL a job at the exact moment every state object of a checkpoint is written and its completion is not.
 * Everything else is forwarded as it is (the Host header too, so request signatures stay valid).
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A running proxy. */
export interface S3HoldProxy {
  /** `http://127.0.0.1:<port>`: the `s3.endpoint` of the job. */
  readonly endpoint: string;
  /** Holds the next `PUT …/_metadata`; resolves with its path (`/bucket/key`) once one arrived. */
  holdNextMetadata(): Promise<string>;
  /** Drops the held request (its connection is closed unanswered: the object is never written). */
  dropHeld(): void;
  close(): Promise<void>;
}

/**
 * Starts a proxy to `target` (`http://127.0.0.1:<port>`).
 *
 * @example
 * ```ts
 * const proxy = await startS3HoldProxy(s3.endpoint);
 * const held = proxy.holdNextMetadata(); // then: SIGKILL the job, proxy.dropHeld()
 * ```
 */
export async function startS3HoldProxy(target: string): Promise<S3HoldProxy> {
  const to = new URL(target);
  let hold: ((path: string) => void) | undefined;
  const held: ServerResponse[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "").split("?")[0]!;
    if (hold && req.method === "PUT" && path.endsWith("/_metadata")) {
      const arrived = hold;
      hold = undefined;
      held.push(res);
      arrived(decodeURIComponent(path));
      return;
    }
    const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", (e) => res.destroy(e));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    holdNextMetadata: () => new Promise<string>((resolve) => (hold = resolve)),
    dropHeld: () => held.splice(0).forEach((res) => res.destroy()),
    close: () => {
      held.splice(0).forEach((res) => res.destroy());
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
