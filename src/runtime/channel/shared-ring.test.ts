import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { SharedRing } from "./shared-ring.ts";

/** Payload of entry `seq`: `length` bytes derived from seq, so a reader can check it. */
function payloadOf(seq: number, length: number): Uint8Array {
  const p = new Uint8Array(length);
  for (let i = 0; i < length; i++) p[i] = (seq * 31 + i) & 0xff;
  return p;
}

/** True if `p` is the payload of entry `seq` of `length` bytes. */
function isPayloadOf(p: Uint8Array, seq: number, length: number): boolean {
  if (p.length !== length) return false;
  for (let i = 0; i < length; i++) if (p[i] !== ((seq * 31 + i) & 0xff)) return false;
  return true;
}

describe("SharedRing", () => {
  it("gives the entries back in order with their fields, and refuses one that does not fit until space is freed", () => {
    const ring = new SharedRing(SharedRing.allocate(64));
    expect(ring.hasEntry()).toBe(false);
    expect(ring.write(1, 7, 3, 0, payloadOf(1, 10))).toBe(true); // 20 + 12 bytes
    expect(ring.write(2, 8, 3, 1, payloadOf(2, 5))).toBe(true); // 20 + 8 bytes: 60 of 64 used
    expect(ring.write(3, 9, 3, 0, new Uint8Array(0))).toBe(false);
    const e = ring.peek()!;
    expect({ ...e, payload: [...e.payload] }).toEqual({ seq: 1, channel: 7, attempt: 3, kind: 0, payload: [...payloadOf(1, 10)] });
    ring.consume();
    // the entry does not fit before the end: it wraps to the start
    expect(ring.write(3, 9, 3, 0, payloadOf(3, 4))).toBe(true);
    expect(ring.peek()).toMatchObject({ seq: 2, channel: 8, kind: 1 });
    expect([...ring.peek()!.payload]).toEqual([...payloadOf(2, 5)]);
    ring.consume();
    expect(ring.peek()).toMatchObject({ seq: 3, channel: 9 });
    expect([...ring.peek()!.payload]).toEqual([...payloadOf(3, 4)]);
    ring.consume();
    expect(ring.peek()).toBeUndefined();
    expect(ring.hasEntry()).toBe(false);
  });

  it("keeps a random stream of writes and reads in order across many wrap-arounds", () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const ring = new SharedRing(SharedRing.allocate(256));
    const written: [number, number][] = [];
    let next = 0;
    let read = 0;
    for (let step = 0; step < 20_000; step++) {
      if (random() < 0.55) {
        const length = randomInt(random, 0, 100);
        if (ring.write(next, next % 5, 0, 0, payloadOf(next, length))) written.push([next++, length]);
      } else {
        const e = ring.peek();
        if (e === undefined) {
          expect(read, `seed ${seed}`).toBe(next);
          continue;
        }
        const [seq, length] = written[read]!;
        expect([e.seq, e.channel, e.payload.length], `seed ${seed}, entry ${read}`).toEqual([seq, seq % 5, length]);
        expect(isPayloadOf(e.payload, seq, length), `seed ${seed}, entry ${read}`).toBe(true);
        ring.consume();
        read++;
      }
    }
    expect(next, `seed ${seed}`).toBeGreaterThan(1_000);
  });

  it("carries entries from a writer thread to a reader thread intact and in order", async () => {
    const seed = testSeed();
    const count = 5_000;
    const buffer = SharedRing.allocate(512);
    // The writer: the same payloads from the same seed, retrying while the ring is full.
    const writer = new Worker(
      `
      const { workerData } = require("node:worker_threads");
      (async () => {
        const { register } = await import("tsx/esm/api");
        register();
        const { SharedRing } = await import(workerData.ring);
        const { seededRandom, randomInt } = await import(workerData.random);
        const ring = new SharedRing(workerData.buffer);
        const random = seededRandom(workerData.seed);
        const pause = new Int32Array(new SharedArrayBuffer(4));
        for (let seq = 0; seq < workerData.count; seq++) {
          const length = randomInt(random, 0, 200);
          const p = new Uint8Array(length);
          for (let i = 0; i < length; i++) p[i] = (seq * 31 + i) & 0xff;
          while (!ring.write(seq, seq % 3, 0, 0, p)) Atomics.wait(pause, 0, 0, 0.05);
        }
      })();
      `,
      {
        eval: true,
        workerData: {
          buffer,
          seed,
          count,
          ring: new URL("./shared-ring.ts", import.meta.url).href,
          random: new URL("../../util/seeded-random.ts", import.meta.url).href,
        },
      },
    );
    const exited = new Promise<number>((resolve) => writer.on("exit", resolve));
    const ring = new SharedRing(buffer);
    const random = seededRandom(seed);
    const deadline = Date.now() + 60_000;
    for (let seq = 0; seq < count; ) {
      const e = ring.peek();
      if (e === undefined) {
        if (Date.now() > deadline) throw new Error(`seed ${seed}: no entry ${seq} within 60 s`);
        await new Promise((r) => setImmediate(r));
        continue;
      }
      const length = randomInt(random, 0, 200);
      expect([e.seq, e.channel], `seed ${seed}`).toEqual([seq, seq % 3]);
      expect(isPayloadOf(e.payload, seq, length), `seed ${seed}, entry ${seq}`).toBe(true);
      ring.consume();
      seq++;
    }
    expect(await exited).toBe(0);
    expect(ring.hasEntry()).toBe(false);
  });
});
