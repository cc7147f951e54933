import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bucketOf } from "../../src/connectors/file/file-source-split.ts";
import { FILE_PARALLELISM, orderOfCsv, priceOrder, runFileCopy, writeOrders } from "./file-copy.ts";

describe("file-copy bench job", () => {
  it("prices an order in cents", () => {
    expect(priceOrder({ id: 1, customer: "ann", amount: 512.34, note: "n" })).toEqual({ id: 1, customer: "ANN", cents: 51_234, large: true, note: "n" });
  });

  it("writes input shared equally by the source readers and commits one line per record, with and without checkpoints", async () => {
    const input = await writeOrders(400_000);
    try {
      const files = (await readdir(input.dir)).map((name) => `${input.dir}/${name}`);
      const perReader = Array.from({ length: FILE_PARALLELISM }, (_, b) => files.filter((f) => bucketOf(f, FILE_PARALLELISM) === b).length);
      expect(new Set(perReader).size).toBe(1);
      expect(input.bytes).toBeGreaterThanOrEqual(400_000);
      for (const checkpointIntervalMs of [0, 50]) {
        const m = await runFileCopy({ input, checkpointIntervalMs });
        expect(m.outputLines).toBe(input.records);
      }
    } finally {
      await rm(input.dir, { recursive: true, force: true });
    }
  });

  it("reads the orders from CSV (a header, one note in ten quoted) and commits one line per record", async () => {
    const input = await writeOrders(200_000, "csv");
    try {
      const text = await readFile(join(input.dir, (await readdir(input.dir))[0]!), "utf8");
      expect(text.startsWith("id,customer,amount,note\n")).toBe(true);
      expect(text).toMatch(/\n(\d+0),customer-\d+,[\d.]+,"order \1 placed through the bench generator, deliver by courier"\n/);
      expect((await runFileCopy({ input, checkpointIntervalMs: 0 })).outputLines).toBe(input.records);
    } finally {
      await rm(input.dir, { recursive: true, force: true });
    }
  });

  it("parses the numbers of a CSV order", () => {
    expect(orderOfCsv({ id: "7", customer: "c", amount: "12.5", note: "n" })).toEqual({ id: 7, customer: "c", amount: 12.5, note: "n" });
  });
});
