import { describe, expect, it } from "vitest";
import { TimeMeter } from "../../metrics/time-meter.ts";
import { HeapKeyedStateBackend, keyGroupOf, keyGroupRangeForSubtask, subtaskForKeyGroup } from "../../state/index.ts";
import { NO_TIMESTAMP } from "../elements.ts";
import { RecordNotPlainDataError } from "../record-not-plain-data-error.ts";
import { MessageChannel } from "node:worker_threads";
import { LocalChannel } from "./local-channel.ts";
import { RecordWriter } from "./record-writer.ts";
import { createLinkEnds, RemoteLink } from "./remote-link.ts";

function writer(partitioning: "broadcast" | "forward", channels: LocalChannel[], origin: { copy: boolean; reuse?: boolean; copyRecord?: (r: unknown) => unknown }) {
  const counters = new TimeMeter();
  return new RecordWriter(channels, partitioning, undefined, 128, 16, counters, 0, { timestamp: Number.NaN }, { producer: "operator 'Map' (uid 'm')", ...origin });
}

async function received(w: RecordWriter, channels: LocalChannel[]): Promise<unknown[][]> {
  await w.flush();
  return channels.map((c) => {
    const m = c.poll();
    return m?.kind === "data" ? m.values : [];
  });
}

describe("RecordWriter record contract", () => {
  it("a broadcast edge gives every channel its own copy; with object reuse one shared object", async () => {
    const chans = [new LocalChannel(), new LocalChannel(), new LocalChannel()];
    const w = writer("broadcast", chans, { copy: false });
    const r = { n: 1, nested: [1] };
    w.emit(r);
    const [a, b, c] = await received(w, chans);
    expect(a![0]).toEqual(r);
    expect(new Set([a![0], b![0], c![0]]).size).toBe(3);
    expect((a![0] as typeof r).nested).not.toBe((b![0] as typeof r).nested);

    const reused = [new LocalChannel(), new LocalChannel()];
    const wr = writer("broadcast", reused, { copy: false, reuse: true });
    wr.emit(r);
    const [x, y] = await received(wr, reused);
    expect(x![0]).toBe(r);
    expect(y![0]).toBe(r);
  });

  it("an edge that shares its output with another edge sends copies; a single edge sends the record itself", async () => {
    const r = { n: 1 };
    const shared = [new LocalChannel()];
    const w = writer("forward", shared, { copy: true });
    w.emit(r);
    const [got] = await received(w, shared);
    expect(got![0]).toEqual(r);
    expect(got![0]).not.toBe(r);
    const single = [new LocalChannel()];
    const ws = writer("forward", single, { copy: false });
    ws.emit(r);
    expect((await received(ws, single))[0]![0]).toBe(r);
  });

  it("records of learned shapes: copies share no nested object, and a later record is refused with its path", async () => {
    const record = (i: number) => ({ type: 2, person: null, bid: { auction: i, tags: [{ t: "x" }] } });
    for (const copy of [true, false]) {
      const chans = [new LocalChannel(1_000)];
      const w = writer("forward", chans, { copy });
      const sent = Array.from({ length: 10 }, (_, i) => record(i)); // one batch
      for (const r of sent) w.emit(r);
      const [got] = await received(w, chans);
      expect(got).toEqual(sent);
      if (copy) {
        expect(got![7]).not.toBe(sent[7]);
        expect((got![7] as ReturnType<typeof record>).bid.tags[0]).not.toBe(sent[7]!.bid.tags[0]);
      }
      const bad = { type: 2, person: null, bid: { auction: 1, tags: [{ t: new Map([[1, () => 1]]) }] } };
      expect(() => w.emit(bad)).toThrow(RecordNotPlainDataError);
      expect(() => w.emit(bad)).toThrow(/^operator 'Map' \(uid 'm'\) emitted a record that contains a function at \.bid\.tags\[0\]\.t<map value #0>;/);
    }
  });

  it("a source's records with the source's own copy: copied with it where a copy is due (fan-out, broadcast), never checked", async () => {
    const copies: unknown[] = [];
    const copyRecord = (r: unknown) => {
      copies.push(r);
      return { ...(r as object) };
    };
    const r = { n: 1, f: () => 1 }; // not plain data: a trusted source's record is not looked at
    const shared = [new LocalChannel()];
    const w = writer("forward", shared, { copy: true, copyRecord });
    w.emit(r);
    const [got] = await received(w, shared);
    expect(got![0]).not.toBe(r);
    expect(copies).toEqual([r]);
    const last = [new LocalChannel()];
    const wl = writer("forward", last, { copy: false, copyRecord });
    wl.emit(r);
    expect((await received(wl, last))[0]![0]).toBe(r);
    const chans = [new LocalChannel(), new LocalChannel()];
    const wb = writer("broadcast", chans, { copy: false, copyRecord });
    wb.emit(r);
    const [a, b] = await received(wb, chans);
    expect(a![0]).not.toBe(r);
    expect(b![0]).toBe(r);
    expect(copies).toEqual([r, r]);
  });

  it("refuses a record that is not plain data, naming the producer and the path", () => {
    const w = writer("forward", [new LocalChannel()], { copy: false });
    expect(() => w.emit({ a: { f: () => 1 } })).toThrow(RecordNotPlainDataError);
    expect(() => w.emit({ a: { f: () => 1 } })).toThrow(/^operator 'Map' \(uid 'm'\) emitted a record that contains a function at \.a\.f;/);
  });
});

describe("RecordWriter with a channel to another thread", () => {
  it("leaves the check of the records it sends there to the channel's encoding: a record that is not plain data is refused at the flush, with the same error", async () => {
    const { port1, port2 } = new MessageChannel();
    const [ea, eb] = createLinkEnds(2, port1, port2);
    const a = new RemoteLink(ea);
    const b = new RemoteLink(eb);
    try {
      a.reset(0);
      b.reset(0);
      const local = new LocalChannel(1_000);
      const remote = a.output(1, 1_000);
      const input = b.input(1);
      // records { k, v }: k = here goes to the local channel (subtask 0), k = there to the remote one (subtask 1)
      const subtaskOf = (k: number) => subtaskForKeyGroup(128, 2, keyGroupOf(k, 128));
      const here = [0, 1, 2, 3, 4, 5].find((k) => subtaskOf(k) === 0)!;
      const there = [0, 1, 2, 3, 4, 5].find((k) => subtaskOf(k) === 1)!;
      const w = new RecordWriter([local, remote], "hash", (r) => (r as { k: number }).k, 128, 1_000, new TimeMeter(), 0, { timestamp: NO_TIMESTAMP }, { producer: "operator 'Map' (uid 'm')", copy: false });
      const sent = [{ k: here, v: "here" }, { k: there, v: "there" }, { k: there, v: [1, { x: 2 }] }];
      for (const r of sent) w.emit(r);
      await w.flush();
      expect(local.poll()).toEqual({ kind: "data", values: [sent[0]] });
      expect(input.poll()).toEqual({ kind: "data", values: [sent[1], sent[2]] });

      const bad = { k: here, v: { f: () => 1 } };
      expect(() => w.emit(bad)).toThrow(/^operator 'Map' \(uid 'm'\) emitted a record that contains a function at \.v\.f;/);
      w.emit({ k: there, v: "before" });
      w.emit({ k: there, v: { f: () => 1 } });
      await expect(w.flush()).rejects.toThrow(RecordNotPlainDataError);
      w.emit({ k: there, v: { f: () => 1 } });
      await expect(w.flush()).rejects.toThrow(/^operator 'Map' \(uid 'm'\) emitted a record that contains a function at \.v\.f;/);
      expect(input.poll()).toBeUndefined();
    } finally {
      a.close();
      b.close();
    }
  });
});

describe("RecordWriter hash partitioning", () => {
  it("sends every kind of key to the subtask whose keyed state owns the key's group", async () => {
    const parallelism = 3;
    const chans = Array.from({ length: parallelism }, () => new LocalChannel(1_000));
    const counters = new TimeMeter();
    const keyOf = (r: unknown): unknown => (r as { key: unknown }).key;
    const w = new RecordWriter(chans, "hash", keyOf, 128, 64, counters, 0, { timestamp: Number.NaN }, { producer: "p", copy: false });
    const keys: unknown[] = [];
    for (let i = 0; i < 500; i++) keys.push(i, -i - 1, i / 3, 2 ** 35 + i, `k${i}`, `\u0000${i}`, BigInt(i), [i, "a"], [[`${i}`]]);
    keys.push(true, false, "");
    for (const key of keys) w.emit({ key });
    await w.flush();
    let received = 0;
    for (let s = 0; s < parallelism; s++) {
      const backend = new HeapKeyedStateBackend({ operatorUid: "op", maxParallelism: 128, keyGroupRange: keyGroupRangeForSubtask(128, parallelism, s) });
      for (let m = chans[s]!.poll(); m !== undefined; m = chans[s]!.poll()) {
        if (m.kind !== "data") continue;
        for (const r of m.values) backend.setCurrentKey(keyOf(r)); // throws KeyGroupOutOfRangeError when routed elsewhere
        received += m.values.length;
      }
    }
    expect(received).toBe(keys.length);
  });
});
