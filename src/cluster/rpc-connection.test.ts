import { createServer, connect, type AddressInfo, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { RpcConnection } from "./rpc-connection.ts";

const sockets: Socket[] = [];
afterEach(() => sockets.splice(0).forEach((s) => s.destroy()));

/** Two connected sockets over 127.0.0.1. */
async function pair(): Promise<[Socket, Socket]> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const accepted = new Promise<Socket>((resolve) => server.once("connection", resolve));
  const client = connect((server.address() as AddressInfo).port, "127.0.0.1");
  const s = await accepted;
  server.close();
  sockets.push(client, s);
  return [client, s];
}

describe("RpcConnection", () => {
  it("delivers messages in order, whole, however the stream splits them (binary payloads too)", async () => {
    const [a, b] = await pair();
    const sender = new RpcConnection<object, object>(a);
    const receiver = new RpcConnection<object, object>(b);
    const got: object[] = [];
    receiver.onMessage((m) => got.push(m));
    const big = new Uint8Array(200_000).map((_, i) => i % 251);
    const sent = [{ type: "a", n: 1 }, { type: "jar", bytes: big }, { type: "b", nested: { list: [1, "two", undefined] } }];
    for (const m of sent) sender.send(m);
    const deadline = Date.now() + 10_000;
    while (got.length < sent.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(got).toEqual(sent);
  });

  it("reports the close of the peer once", async () => {
    const [a, b] = await pair();
    const receiver = new RpcConnection<object, object>(b);
    let closes = 0;
    const closed = new Promise<void>((resolve) =>
      receiver.onClose(() => {
        closes++;
        resolve();
      }),
    );
    a.destroy();
    await closed;
    expect(closes).toBe(1);
    expect(receiver.isClosed).toBe(true);
  });
});
