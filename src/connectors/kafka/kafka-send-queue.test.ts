import type { MessageToProduce } from "@platformatic/kafka";
import { describe, expect, it } from "vitest";
import { KafkaSendQueue, type BatchSender } from "./kafka-send-queue.ts";
import { KafkaSendError, KafkaUnknownTopicError } from "./kafka-sink-errors.ts";

/** A sender whose sends the test completes by hand. */
function manualSender() {
  const sends: { messages: MessageToProduce[]; done: () => void; fail: (e: Error) => void }[] = [];
  const sender: BatchSender = {
    send: (messages) => new Promise((resolve, reject) => sends.push({ messages, done: resolve, fail: reject })),
    partitionCount: async () => 4,
    topicExists: async (topic) => topic !== "missing",
  };
  return { sender, sends };
}

const record = (v: string, bytes = 100) => ({ message: { topic: "t", value: Buffer.from(v) }, bytes });
const tick = () => new Promise((r) => setTimeout(r, 0));

describe("KafkaSendQueue", () => {
  it("one send in flight; what arrives meanwhile goes in the next batch, cut at max.request.size", async () => {
    const { sender, sends } = manualSender();
    const q = new KafkaSendQueue("test", async () => sender, 250, 10_000);
    q.add(record("a"));
    await tick();
    for (const v of ["b", "c", "d"]) q.add(record(v));
    expect(sends.map((s) => s.messages.length)).toEqual([1]);
    let drained = false;
    void q.drained().then(() => (drained = true));
    sends[0]!.done();
    await tick();
    expect(sends.map((s) => s.messages.map((m) => String(m.value)))).toEqual([["a"], ["b", "c"]]);
    sends[1]!.done();
    await tick();
    expect(drained).toBe(false);
    sends[2]!.done();
    await tick();
    expect(sends.map((s) => s.messages.length)).toEqual([1, 2, 1]);
    expect(drained).toBe(true);
  });

  it("stop() resolves only once the send in flight settled, and sends nothing more", async () => {
    const { sender, sends } = manualSender();
    const q = new KafkaSendQueue("test", async () => sender, 150, 10_000);
    q.add(record("a"));
    await tick();
    q.add(record("b"));
    let stopped = false;
    void q.stop().then(() => (stopped = true));
    await tick();
    expect(stopped).toBe(false);
    sends[0]!.fail(new Error("broker gone"));
    await tick();
    expect(stopped).toBe(true);
    expect(sends).toHaveLength(1);
    await q.stop();
  });

  it("blocked() above buffer.memory until half of it is sent", async () => {
    const { sender, sends } = manualSender();
    const q = new KafkaSendQueue("test", async () => sender, 150, 300);
    for (const v of ["a", "b", "c", "d"]) q.add(record(v));
    const blocked = q.blocked();
    expect(blocked).toBeInstanceOf(Promise);
    let released = false;
    void blocked!.then(() => (released = true));
    await tick();
    sends[0]!.done(); // 300 left: not yet half
    await tick();
    expect(released).toBe(false);
    sends[1]!.done(); // 200 left… still above 150
    await tick();
    expect(released).toBe(false);
    sends[2]!.done(); // 100 left
    await tick();
    expect(released).toBe(true);
    expect(q.blocked()).toBeUndefined();
  });

  it("a failed send fails drained() and the next add, naming the topic", async () => {
    const { sender, sends } = manualSender();
    const q = new KafkaSendQueue("KafkaSink 'out'", async () => sender, 1000, 1000);
    q.add(record("a"));
    const drained = q.drained();
    await tick();
    sends[0]!.fail(new Error("broker gone"));
    await expect(drained).rejects.toThrow(KafkaSendError);
    await expect(q.drained()).rejects.toThrow(/KafkaSink 'out': sending records to topic\(s\) 't' failed: broker gone/);
    expect(() => q.add(record("b"))).toThrow(/broker gone/);
  });

  it("a partitioner gets its topic's partition count", async () => {
    const { sender, sends } = manualSender();
    const q = new KafkaSendQueue("test", async () => sender, 1000, 1000);
    q.add({ ...record("a"), partitionOf: (count) => count - 1 });
    await tick();
    await tick();
    expect(sends[0]!.messages[0]!.partition).toBe(3);
  });

  it("a record for a topic the brokers do not know fails the queue naming the topic, before any send", async () => {
    const { sender, sends } = manualSender();
    const q = new KafkaSendQueue("sink 'out' subtask 0", async () => sender, 1000, 10_000);
    q.add({ message: { topic: "missing", value: Buffer.from("x") }, bytes: 10 });
    await expect(q.drained()).rejects.toThrow(/sink 'out' subtask 0: topic 'missing' does not exist on the brokers/);
    expect(sends).toEqual([]);
    expect(() => q.add(record("y"))).toThrow(KafkaUnknownTopicError);
  });

  it("asks a topic's partition count once per batch, not per record, for records with a partitioner", async () => {
    const asked: string[] = [];
    const sent: MessageToProduce[][] = [];
    const sender: BatchSender = {
      send: async (messages) => void sent.push(messages),
      partitionCount: async (topic) => (asked.push(topic), 3),
      topicExists: async () => true,
    };
    const q = new KafkaSendQueue("sink", async () => sender, 1 << 20, 1 << 20);
    for (let i = 0; i < 5; i++) q.add({ message: { topic: i % 2 === 0 ? "a" : "b", value: Buffer.from(String(i)) }, bytes: 10, partitionOf: (n) => i % n });
    await q.drained();
    expect(sent.flat().map((m) => m.partition)).toEqual([0, 1, 2, 0, 1]);
    expect(asked.length).toBeLessThanOrEqual(2 * sent.length);
    expect(asked.filter((t) => t === "a").length).toBe(sent.filter((b) => b.some((m) => m.topic === "a")).length);
  });
});
