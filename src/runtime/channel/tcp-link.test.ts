import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { ChannelMessage } from "../elements.ts";
import type { InputChannel, OutputChannel } from "./channel.ts";
import { TcpDataPlane } from "./tcp-data-plane.ts";
import { FrameReader, FrameWriter, HELLO, helloBody, REFUSE } from "./tcp-frames.ts";
import type { TcpLink } from "./tcp-link.ts";

const HOST = "127.0.0.1";
const opened: TcpDataPlane[] = [];
afterEach(() => {
  for (const p of opened.splice(0)) p.close();
});

/** The data plane of worker `self` (linked to `peers`) on loopback. */
async function plane(self: number, peers: number[], token = "secret"): Promise<{ plane: TcpDataPlane; port: number }> {
  const p = new TcpDataPlane({ self, host: HOST, peers, token });
  opened.push(p);
  return { plane: p, port: await p.listening };
}

/** Workers 0 and 1 linked over TCP: [link of 0 to 1, link of 1 to 0]. `connect` false: worker 0 does not dial yet. */
async function linkPair(connect = true, tokens: [string, string] = ["secret", "secret"]) {
  const a = await plane(0, [1], tokens[0]);
  const b = await plane(1, [0], tokens[1]);
  const dial = () => a.plane.setPeers({ 1: { host: HOST, port: b.port } });
  if (connect) dial();
  return { a: a.plane.links.get(1)!, b: b.plane.links.get(0)!, dial, planes: [a.plane, b.plane] as const, port: b.port };
}

/** Waits for `condition` (the link works through the event loop). */
async function until(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** Polls `input` until it gives a message. */
async function next(input: InputChannel): Promise<ChannelMessage> {
  let m: ChannelMessage | undefined;
  await until(() => (m = input.poll()) !== undefined, "a message");
  return m!;
}

/** Sends `m` once `out` has credit. */
async function send(out: OutputChannel, m: ChannelMessage): Promise<void> {
  while (!out.hasCredit()) await out.whenCredit();
  out.send(m);
}

function start(links: TcpLink[], attempt: number): void {
  for (const l of links) l.reset(attempt);
}

describe("TcpLink", () => {
  it("delivers batches and events of each channel in order, both directions, also what was sent before the connection", async () => {
    const { a, b, dial } = await linkPair(false);
    start([a, b], 0);
    const channels = [
      { out: a.output(1), input: b.input(1) },
      { out: a.output(2), input: b.input(2) },
      { out: b.output(3), input: a.input(3) },
    ];
    const sent: ChannelMessage[][] = channels.map(() => []);
    const sendOn = async (k: number, m: ChannelMessage) => {
      sent[k]!.push(m);
      await send(channels[k]!.out, m);
    };
    // before worker 0 dials: waits in the link's buffer (within the credits)
    await sendOn(0, { kind: "data", values: [{ early: true }] });
    await sendOn(2, { kind: "watermark", timestamp: -1 });
    dial();
    const producing = (async () => {
      for (let i = 0; i < 60; i++) {
        const k = i % 3;
        const values = Array.from({ length: 1 + (i % 9) }, (_, j) => (i % 4 === 0 ? { i, j, s: "é".repeat(j % 3) } : i * 100 + j));
        await sendOn(k, i % 5 === 1 ? { kind: "data", values, timestamps: values.map((_, j) => i * 1000 + j) } : { kind: "data", values });
        if (i % 7 === 0) await sendOn(k, { kind: "watermark", timestamp: i });
        if (i === 30) for (let c = 0; c < 3; c++) await sendOn(c, { kind: "barrier", id: 4, timestamp: 1234, savepoint: true });
      }
      // a big batch: megabytes in one frame, read from many TCP segments
      await sendOn(1, { kind: "data", values: Array.from({ length: 200_000 }, (_, j) => ({ id: j, name: `name-${j}` })) });
      await sendOn(1, { kind: "watermark", timestamp: Number.POSITIVE_INFINITY });
      for (let c = 0; c < 3; c++) await sendOn(c, { kind: "end" });
    })();
    const received = await Promise.all(
      channels.map(async ({ input }) => {
        const got: ChannelMessage[] = [];
        while (got[got.length - 1]?.kind !== "end") got.push(await next(input));
        return got;
      }),
    );
    await producing;
    expect(received).toEqual(sent);
  });

  it("stops a producer at its credits and wakes it when the consumer takes a message", async () => {
    const { a, b } = await linkPair();
    start([a, b], 0);
    const out = a.output(2, 2);
    const input = b.input(2);
    const back = b.output(9);
    const backIn = a.input(9);
    out.send({ kind: "data", values: [1] });
    out.send({ kind: "data", values: [2] });
    expect(out.hasCredit()).toBe(false);
    let woken = false;
    const waiting = out.whenCredit().then(() => (woken = true));
    await until(() => input.queued() === 2, "both batches at the consumer");
    // a round trip on another channel: a credit granted without a poll would have come back with it
    back.send({ kind: "watermark", timestamp: 1 });
    await next(backIn);
    expect(woken).toBe(false);
    expect(out.hasCredit()).toBe(false);
    expect(input.poll()).toEqual({ kind: "data", values: [1] });
    await waiting;
    expect(out.hasCredit()).toBe(true);
  });

  it("wakes a consumer whose channel was empty when a message arrives", async () => {
    const { a, b } = await linkPair();
    start([a, b], 0);
    const out = a.output(0);
    const input = b.input(0);
    const arrived = new Promise<void>((resolve) => (input.onAvailable = resolve));
    expect(input.hasMessage()).toBe(false);
    out.send({ kind: "data", values: ["wake"] });
    await arrived;
    expect(input.poll()).toEqual({ kind: "data", values: ["wake"] });
  });

  it("drops what an older attempt sent and holds what a newer one sent until this worker deploys it", async () => {
    const { a, b } = await linkPair();
    start([a, b], 0);
    a.output(3).send({ kind: "data", values: ["old"] });
    a.reset(1);
    a.output(3).send({ kind: "data", values: ["new"] });
    const old = b.input(3);
    expect(await next(old)).toEqual({ kind: "data", values: ["old"] });
    // the newer attempt's batch came behind the old one on the same connection: it is held, not delivered
    await until(() => (b as unknown as { early: unknown[] }).early.length === 1, "the newer batch held");
    expect(old.poll()).toBeUndefined();
    b.reset(1);
    const current = b.input(3);
    b.replayEarly();
    expect(await next(current)).toEqual({ kind: "data", values: ["new"] });
  });

  it("fails the attempt's channels with an error naming the peer and its address when the peer closes, and wakes their tasks", async () => {
    const { a, b, planes, port } = await linkPair();
    start([a, b], 0);
    const out = a.output(1);
    const input = a.input(2);
    const bIn = b.input(1);
    out.send({ kind: "data", values: [1] });
    await next(bIn);
    const woken = new Promise<void>((resolve) => (input.onAvailable = resolve));
    planes[1].close();
    await woken;
    const error = new RegExp(`worker 0 lost its connection to worker 1 at 127\\.0\\.0\\.1:${port} \\(connection 1\\) in attempt 0: `);
    expect(input.hasMessage()).toBe(true);
    expect(() => input.poll()).toThrow(error);
    expect(out.hasCredit()).toBe(true);
    expect(() => out.send({ kind: "data", values: [2] })).toThrow(error);
  });

  it("runs the next attempt over a new connection to a peer that was started again", async () => {
    const { a, b, planes } = await linkPair();
    start([a, b], 0);
    const watch = a.input(5);
    a.output(1).send({ kind: "data", values: ["first"] });
    expect(await next(b.input(1))).toEqual({ kind: "data", values: ["first"] });
    planes[1].close();
    await until(() => watch.hasMessage(), "attempt 0 failed at worker 0");
    const again = await plane(1, [0]);
    // the next attempt is deployed before the new address comes: its batch waits in the buffer
    a.reset(1);
    const out = a.output(1);
    out.send({ kind: "data", values: ["second"] });
    a.connect(HOST, again.port);
    const b2 = again.plane.links.get(0)!;
    b2.reset(1);
    const input = b2.input(1);
    b2.replayEarly();
    expect(await next(input)).toEqual({ kind: "data", values: ["second"] });
  });

  it("drops the connection of a dialling peer's previous thread when told it was started again: its late close fails no later attempt", async () => {
    const { a, b, planes, port } = await linkPair();
    start([a, b], 0);
    const old = b.input(1);
    await send(a.output(1), { kind: "data", values: ["before"] });
    expect(await next(old)).toEqual({ kind: "data", values: ["before"] }); // connected
    // worker 0 is started again while its previous thread's socket is still open (its close comes late)
    const again = await plane(0, [1]);
    planes[1].setPeers({ 0: { host: HOST, port: again.port } }, true);
    expect(old.hasMessage()).toBe(true); // attempt 0 fails here now, as if that connection had closed
    start([b], 1);
    const input = b.input(1);
    planes[0].close(); // the previous thread's socket closes, after attempt 1 was deployed
    const a2 = again.plane.links.get(1)!;
    a2.reset(1);
    again.plane.setPeers({ 1: { host: HOST, port } });
    await send(a2.output(1), { kind: "data", values: ["after"] });
    expect(await next(input)).toEqual({ kind: "data", values: ["after"] });
  });

  it("refuses a connection with a wrong token: the connecting worker's channels fail with the reason", async () => {
    const { a, b, dial } = await linkPair(false, ["guess", "secret"]);
    start([a, b], 0);
    const input = a.input(1);
    const failed = new Promise<void>((resolve) => (input.onAvailable = resolve));
    const out = a.output(2);
    out.send({ kind: "data", values: ["never"] });
    const bIn = b.input(2);
    dial();
    await failed;
    expect(() => input.poll()).toThrow(/worker 1 at 127\.0\.0\.1:\d+ \(connection 1\) refused the connection of worker 0: wrong token/);
    expect(bIn.poll()).toBeUndefined();
  });

  it("refuses what is not a hello of a peer that connects to it, saying why", async () => {
    const { port } = await plane(1, [0, 2]);
    /** Sends `bytes` to worker 1's server; resolves with the refusal it answers before closing. */
    const answer = (bytes: Buffer) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect({ host: HOST, port }, () => socket.write(bytes));
        const reader = new FrameReader();
        socket.on("data", (c: Buffer) => reader.push(c));
        socket.on("error", reject);
        socket.on("close", () => {
          const f = reader.next();
          resolve(f?.[0] === REFUSE ? f.toString("utf8", 1) : `no refusal (${f?.[0]})`);
        });
      });
    const hello = (from: number, to: number, token = "secret") => {
      const w = new FrameWriter();
      w.control(HELLO, helloBody({ from, to, generation: 1, token }));
      return w.take()!;
    };
    const garbage = Buffer.from([5, 0, 0, 0, 104, 101, 108, 108, 111]);
    expect(await answer(garbage)).toBe("the first frame is not a hello");
    expect(await answer(hello(0, 1, "guess"))).toBe("wrong token");
    expect(await answer(hello(0, 3))).toBe("this is worker 1, not worker 3");
    // worker 2 has the higher index: worker 1 connects to it, not the other way round
    expect(await answer(hello(2, 1))).toBe("worker 2 does not connect to worker 1");
    expect(await answer(hello(5, 1))).toBe("worker 5 does not connect to worker 1");
  });
});
