import { describe, expect, it } from "vitest";
import { AbortedTransactionsFilter, type BatchHeader } from "./aborted-transactions-filter.ts";

const TXN = 0x10;
const CONTROL = 0x20;

function data(first: number, count: number, producerId: number, transactional = true): BatchHeader {
  return { firstOffset: BigInt(first), lastOffsetDelta: count - 1, attributes: transactional ? TXN : 0, producerId: BigInt(producerId), records: [] };
}
function marker(offset: number, producerId: number, type: "commit" | "abort"): BatchHeader {
  const key = new Uint8Array([0, 0, 0, type === "commit" ? 1 : 0]);
  return { firstOffset: BigInt(offset), lastOffsetDelta: 0, attributes: TXN | CONTROL, producerId: BigInt(producerId), records: [{ key }] };
}

/** First offsets of the accepted batches, response by response. */
function run(responses: { aborted: [number, number][]; batches: BatchHeader[] }[]): number[] {
  const filter = new AbortedTransactionsFilter();
  const out: number[] = [];
  for (const r of responses) {
    filter.startResponse(r.aborted.map(([producerId, firstOffset]) => ({ producerId: BigInt(producerId), firstOffset: BigInt(firstOffset) })));
    for (const b of r.batches) if (filter.accept(b)) out.push(Number(b.firstOffset));
  }
  return out;
}

describe("AbortedTransactionsFilter", () => {
  it("skips an aborted transaction and control batches, keeps a committed one and plain batches in one response", () => {
    expect(run([{ aborted: [[7, 3]], batches: [data(0, 2, 5), marker(2, 5, "commit"), data(3, 1, 7), data(4, 1, 0, false), marker(5, 7, "abort"), data(6, 1, 7)] }])).toEqual([0, 4, 6]);
  });

  it("keeps skipping when the abort marker comes in a later response (the client's own filter keeps those batches)", () => {
    expect(
      run([
        { aborted: [[7, 0]], batches: [data(0, 2, 7), data(2, 2, 8)] },
        { aborted: [[7, 0]], batches: [data(4, 2, 7)] },
        { aborted: [[7, 0]], batches: [marker(6, 7, "abort"), marker(7, 8, "commit"), data(8, 1, 7)] },
      ]),
    ).toEqual([2, 8]);
  });

  it("interleaved producers: only the aborted producer's batches between its first offset and its marker are skipped", () => {
    expect(
      run([
        { aborted: [[2, 1]], batches: [data(0, 1, 1), data(1, 1, 2), data(2, 1, 1), data(3, 1, 2)] },
        { aborted: [[2, 1]], batches: [marker(4, 1, "commit"), marker(5, 2, "abort"), data(6, 1, 2), marker(7, 2, "commit")] },
      ]),
    ).toEqual([0, 2, 6]);
  });

  it("a reader restored in the middle of an aborted transaction skips its rest (the broker lists it again)", () => {
    expect(run([{ aborted: [[3, 10]], batches: [data(14, 2, 3), data(16, 1, 4), marker(17, 3, "abort"), data(18, 1, 3)] }])).toEqual([16, 18]);
  });

  it("a listed transaction starting after a batch does not abort that batch", () => {
    expect(run([{ aborted: [[3, 5]], batches: [data(0, 2, 3), marker(2, 3, "commit"), data(5, 1, 3), marker(6, 3, "abort")] }])).toEqual([0]);
  });
});
