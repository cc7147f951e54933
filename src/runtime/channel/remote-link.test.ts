import { MessageChannel } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import type { ChannelMessage } from "../elements.ts";
import type { InputChannel, OutputChannel } from "./channel.ts";
import { createLinkEnds, RemoteLink } from "./remote-link.ts";

/** Two ends of a link in this thread, with rings of `ringBytes`. */
function linkPair(ringBytes: number, channels = 4): [RemoteLink, RemoteLink] {
  const { port1, port2 } = new MessageChannel();
  const [a, b] = createLinkEnds(channels, port1, port2, ringBytes);
  const pair: [RemoteLink, RemoteLink] = [new RemoteLink(a), new RemoteLink(b)];
  opened.push(...pair);
  return pair;
}

const opened: RemoteLink[] = [];
afterEach(() => {
  for (const l of opened.splice(0)) l.close();
});

/** Polls `input` until it gives a message (the port delivers through the event loop too). */
async function next(input: InputChannel): Promise<ChannelMessage> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const m = input.poll();
    if (m) return m;
    if (Date.now() > deadline) throw new Error("no message within 5 s");
    await new Promise((r) => setImmediate(r));
  }
}

/** Sends `m` once `out` has credit. */
async function send(out: OutputChannel, m: ChannelMessage): Promise<void> {
  while (!out.hasCredit()) await out.whenCredit();
  out.send(m);
}

describe("RemoteLink", () => {
  it("keeps batches and events in order when some go through the ring and others, too large for it, through the port", async () => {
    const [a, b] = linkPair(1024);
    a.reset(0);
    b.reset(0);
    const out = a.output(1, 64);
    const input = b.input(1);
    const sent: ChannelMessage[] = [];
    for (let i = 0; i < 40; i++) {
      // every third batch is larger than the whole ring
      const size = i % 3 === 2 ? 400 : 1 + (i % 7);
      const values = Array.from({ length: size }, (_, k) => ({ i, k, s: "x".repeat(k % 5) }));
      const m: ChannelMessage = i % 4 === 1 ? { kind: "data", values, timestamps: values.map((_, k) => i * 1000 + k) } : { kind: "data", values };
      sent.push(m);
      await send(out, m);
      if (i % 10 === 9) {
        const wm: ChannelMessage = { kind: "watermark", timestamp: i };
        sent.push(wm);
        await send(out, wm);
      }
    }
    const received: ChannelMessage[] = [];
    for (let i = 0; i < sent.length; i++) received.push(await next(input));
    expect(received).toEqual(sent);
  });

  it("stops a producer at its capacity and wakes it when the consumer takes a batch", async () => {
    const [a, b] = linkPair(1 << 16);
    a.reset(0);
    b.reset(0);
    const out = a.output(2, 2);
    const input = b.input(2);
    out.send({ kind: "data", values: [1] });
    out.send({ kind: "data", values: [2] });
    expect(out.hasCredit()).toBe(false);
    let woken = false;
    const waiting = out.whenCredit().then(() => (woken = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(woken).toBe(false);
    expect(await next(input)).toEqual({ kind: "data", values: [1] });
    await waiting;
    expect(out.hasCredit()).toBe(true);
  });

  it("wakes a consumer that went to sleep when a batch arrives in the ring", async () => {
    const [a, b] = linkPair(1 << 16);
    a.reset(0);
    b.reset(0);
    const out = a.output(0);
    const input = b.input(0);
    const arrived = new Promise<void>((resolve) => (input.onAvailable = resolve));
    expect(input.hasMessage()).toBe(false); // the task would sleep now: nothing polls any more
    out.send({ kind: "data", values: ["wake"] });
    await Promise.race([arrived, new Promise((_, reject) => setTimeout(() => reject(new Error("no wake-up within 2 s")), 2_000))]);
    expect(input.poll()).toEqual({ kind: "data", values: ["wake"] });
  });

  // Two tasks of one thread read channels of the same link. Both sleep; a batch for the first wakes the
  // thread, which takes it; a later batch for the second, still asleep, must wake the thread again.
  it("wakes each sleeping consumer of the link, not only the first one its thread hears from", async () => {
    const [a, b] = linkPair(1 << 16);
    a.reset(0);
    b.reset(0);
    const outs = [a.output(0), a.output(1)];
    const inputs = [b.input(0), b.input(1)];
    const arrivals = inputs.map((input) => new Promise<void>((resolve) => (input.onAvailable = resolve)));
    for (const input of inputs) expect(input.hasMessage()).toBe(false); // both tasks would sleep now
    const within = (p: Promise<void>, what: string) =>
      Promise.race([p, new Promise((_, reject) => setTimeout(() => reject(new Error(`no wake-up of ${what} within 2 s`)), 2_000))]);
    outs[0]!.send({ kind: "data", values: ["first"] });
    await within(arrivals[0]!, "the first consumer");
    expect(inputs[0]!.poll()).toEqual({ kind: "data", values: ["first"] });
    outs[1]!.send({ kind: "data", values: ["second"] });
    await within(arrivals[1]!, "the second consumer");
    expect(inputs[1]!.poll()).toEqual({ kind: "data", values: ["second"] });
  });

  it("drops what an older attempt sent and holds what a newer one sent until this thread deploys it", async () => {
    const [a, b] = linkPair(1 << 16);
    a.reset(0);
    b.reset(0);
    a.output(3).send({ kind: "data", values: ["old"] });
    a.reset(1);
    a.output(3).send({ kind: "data", values: ["new"] });
    // b still runs attempt 0: its channel sees the old batch only
    const old = b.input(3);
    expect(await next(old)).toEqual({ kind: "data", values: ["old"] });
    await new Promise((r) => setTimeout(r, 20));
    expect(old.poll()).toBeUndefined();
    b.reset(1);
    const current = b.input(3);
    b.replayEarly();
    expect(await next(current)).toEqual({ kind: "data", values: ["new"] });
  });
});
