import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { WatermarkStrategy } from "../../time/watermark-strategy.ts";
import type { OutputTag } from "../../core/output-tag.ts";
import type { PollStatus, ReaderOutput, SourceReader } from "../../core/source.ts";
import { splitContiguous } from "../../state/operator/redistribute-operator-state.ts";
import { ManualClock } from "../../util/clock.ts";
import { collectSink } from "../builtin/collect-sink.ts";
import { FileSource } from "./file-source.ts";
import type { DeadLetter } from "./file-source-reader.ts";
import type { FileSourceSplit } from "./file-source-split.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "weir-file-source-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Reader = SourceReader<string, FileSourceSplit>;

class Lines implements ReaderOutput<string> {
  readonly records: string[] = [];
  collect(value: string): void {
    this.records.push(value);
  }
  collectSide<S>(_tag: OutputTag<S>, _value: S): void {
    throw new Error("no side output expected");
  }
  createOutputForSplit(): ReaderOutput<string> {
    return this;
  }
  releaseOutputForSplit(): void {}
}

/**
 * Polls the readers (advancing the manual clock when all are idle) until
 * `done()` holds; fails after `maxRounds` rounds instead of hanging.
 */
async function pollUntil(readers: Reader[], out: Lines, clock: ManualClock, done: () => boolean, maxRounds = 1_000): Promise<void> {
  for (let round = 0; !done(); round++) {
    if (round >= maxRounds) throw new Error(`condition not reached after ${maxRounds} rounds; read ${JSON.stringify(out.records)}`);
    const statuses: PollStatus[] = [];
    for (const r of readers) statuses.push(await r.pollNext(out, 10));
    expect(statuses).not.toContain("end-of-input");
    if (statuses.every((s) => s === "nothing-available")) {
      const woken = Promise.all(readers.map((r) => r.isAvailable!()));
      clock.advance(100);
      await woken;
    }
  }
}

function readers(source: FileSource<string>, assigned: FileSourceSplit[][]): Reader[] {
  return assigned.map((splits) => {
    const r = source.createReader();
    r.addSplits(splits);
    return r;
  });
}

describe("FileSource in continuous mode", () => {
  it("reads files added later, never ends, and after a rescale 2 -> 3 reads no file twice", async () => {
    const clock = new ManualClock(0);
    const source = FileSource.forLines(dir, { monitorIntervalMs: 100, clock });
    expect(source.boundedness).toBe("continuous");
    const names = Array.from({ length: 12 }, (_, i) => `f${i}`);
    for (const n of names.slice(0, 6)) await writeFile(join(dir, n), `${n}-1\n${n}-2\n`);

    const out = new Lines();
    const initial = source.createSplits(2);
    const before = readers(source, [initial.filter((_, i) => i % 2 === 0), initial.filter((_, i) => i % 2 === 1)]);
    await pollUntil(before, out, clock, () => out.records.length === 12);

    for (const n of names.slice(6, 9)) await writeFile(join(dir, n), `${n}-1\n${n}-2\n`);
    await pollUntil(before, out, clock, () => out.records.length === 18);

    // checkpoint, then restore at parallelism 3 the way the engine redistributes split-list state
    const state = JSON.parse(JSON.stringify(before.flatMap((r) => r.snapshotState(1)))) as FileSourceSplit[];
    await Promise.all(before.map((r) => r.close?.()));
    const after = readers(source, splitContiguous(state, 3));
    for (const n of names.slice(9)) await writeFile(join(dir, n), `${n}-1\n${n}-2\n`);
    await pollUntil(after, out, clock, () => out.records.length >= 24);
    // more monitor rounds: nothing may arrive twice
    let rounds = 0;
    await pollUntil(after, out, clock, () => ++rounds > 30);

    await Promise.all(after.map((r) => r.close?.()));
    expect(out.records.sort()).toEqual(names.flatMap((n) => [`${n}-1`, `${n}-2`]).sort());
  });
});

describe("FileSource in a job", () => {
  it("sums JSON Lines orders per customer at parallelism 2 and routes dead letters to the side output", async () => {
    const expected = new Map<string, number>();
    for (let f = 0; f < 5; f++) {
      const lines: string[] = [];
      for (let i = 0; i < 200; i++) {
        const customer = `c${(f * 7 + i) % 9}`;
        const amount = (i % 13) + f;
        expected.set(customer, (expected.get(customer) ?? 0) + amount);
        lines.push(JSON.stringify({ customer, amount }));
      }
      if (f === 3) lines.splice(50, 0, '{"customer": "c1",}');
      await writeFile(join(dir, `orders-${f}.jsonl`), lines.join("\n") + "\n");
    }
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    const orders = env.fromSource(
      FileSource.forRecords<{ customer: string; amount: number }>(dir, { format: "jsonl", onMalformed: "dead-letter", chunkSize: 1024 }),
      WatermarkStrategy.noWatermarks(),
      "orders",
    );
    orders
      .keyBy((o) => o.customer)
      .sum("amount")
      .sinkTo(collectSink("totals"));
    orders.getSideOutput(FileSource.DEAD_LETTERS).sinkTo(collectSink("bad"));
    const result = await env.execute("file-source-orders");

    const totals = new Map<string, number>();
    for (const o of result.getCollected<{ customer: string; amount: number }>("totals")) totals.set(o.customer, o.amount);
    expect(totals).toEqual(expected);
    expect(result.getCollected<DeadLetter>("bad")).toEqual([
      { file: join(dir, "orders-3.jsonl"), line: 51, text: '{"customer": "c1",}', error: expect.stringMatching(/^invalid JSON \(/) },
    ]);
  });

  it("fails the job with file:line when a record is malformed and dead letters are off", async () => {
    await writeFile(join(dir, "o.jsonl"), '{"customer":"a","amount":1}\nnot json\n');
    const env = StreamExecutionEnvironment.create({ parallelism: 2 });
    env
      .fromSource(FileSource.forRecords(dir, { format: "jsonl" }), WatermarkStrategy.noWatermarks(), "orders")
      .sinkTo(collectSink("out"));
    await expect(env.execute("file-source-fail")).rejects.toThrow(`${join(dir, "o.jsonl")}:2: invalid JSON`);
  });
});
