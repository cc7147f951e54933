/**
 * The file benchmark job: `FileSource.forRecords(jsonl or csv)` → `map` (a
 * small transform) → `FileSink.forRows(jsonl)`, at parallelism 2, in the
 * calling thread (no worker threads).
 *
 * The input is generated once per bench run and format (`writeOrders`) into a
 * temporary directory: equally sized JSON Lines or CSV files whose names are
 * chosen so that each of the two source readers discovers the same number of
 * bytes. The bench checks afterwards that the committed output holds one line
 * per input record (`countCommittedLines`).
 */
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { once } from "node:events";
import { csvField } from "../../src/connectors/file/file-sink-encoder.ts";
import { bucketOf } from "../../src/connectors/file/file-source-split.ts";
import { FileSink, FileSource, StreamExecutionEnvironment, WatermarkStrategy, type CheckpointStats } from "../../src/index.ts";
import { withCheckpointDir } from "./checkpoint-dir.ts";

/** Parallelism of every operator of the file job. */
export const FILE_PARALLELISM = 2;

/** Input files per source reader. */
const FILES_PER_READER = 2;

/** One input record. */
export interface Order {
  readonly id: number;
  readonly customer: string;
  readonly amount: number;
  readonly note: string;
}

/** An order read from CSV: every value a string. */
export interface CsvOrder {
  readonly id: string;
  readonly customer: string;
  readonly amount: string;
  readonly note: string;
}

/** Formats of the file job's input. */
export type OrdersFormat = "jsonl" | "csv";

/** The CSV columns of an order (the header of each CSV input file). */
const CSV_COLUMNS = ["id", "customer", "amount", "note"] as const;

/** One output record: the order with its amount in cents and a derived flag. */
export interface PricedOrder {
  readonly id: number;
  readonly customer: string;
  readonly cents: number;
  readonly large: boolean;
  readonly note: string;
}

/** The generated input of a bench run. */
export interface OrdersInput {
  /** Absolute directory holding the input files (and nothing else). */
  readonly dir: string;
  readonly format: OrdersFormat;
  readonly records: number;
  /** Total size of the input files. */
  readonly bytes: number;
}

/** One run of the file job. */
export interface FileCopyParams {
  readonly input: OrdersInput;
  /** Checkpoint interval in ms (exactly-once, filesystem storage in a temp dir); 0 disables checkpointing. */
  readonly checkpointIntervalMs: number;
}

/** What one run measured. */
export interface FileCopyMeasurement {
  readonly params: FileCopyParams;
  /** Wall time from `executeAsync` to the job's result (every part file committed). */
  readonly elapsedMs: number;
  /** Lines in the committed output files. */
  readonly outputLines: number;
  /** Checkpoint statistics of the run (null without checkpointing). */
  readonly checkpoints: CheckpointStats | null;
}

/** The transform of the job (pure). */
export function priceOrder(o: Order): PricedOrder {
  const cents = Math.round(o.amount * 100);
  return { id: o.id, customer: o.customer.toUpperCase(), cents, large: cents >= 50_000, note: o.note };
}

/** The order read from CSV, with its numbers parsed. */
export function orderOfCsv(o: CsvOrder): Order {
  return { id: Number(o.id), customer: o.customer, amount: Number(o.amount), note: o.note };
}

/** The order with number `id` (deterministic); one note in ten holds a comma, which CSV quotes. */
function orderOf(id: number): Order {
  return {
    id,
    customer: `customer-${(id * 7919) % 50_000}`,
    amount: ((id * 104_729) % 100_000) / 100,
    note: `order ${id} placed through the bench generator${id % 10 === 0 ? "," : ";"} deliver by courier`,
  };
}

/** The line of `order` in `format`, newline included. */
function lineOf(order: Order, format: OrdersFormat): string {
  if (format === "jsonl") return `${JSON.stringify(order)}\n`;
  return `${CSV_COLUMNS.map((c) => csvField(order[c], ",")).join(",")}\n`;
}

/**
 * Writes about `targetBytes` of orders as JSON Lines or CSV (with a header)
 * into a new temporary directory, spread over equal files so that both source
 * readers get the same share. Remove it with `rm(input.dir, { recursive: true })`.
 *
 * @example
 * ```ts
 * const input = await writeOrders(250 * 2 ** 20);
 * const csv = await writeOrders(100e6, "csv");
 * ```
 */
export async function writeOrders(targetBytes: number, format: OrdersFormat = "jsonl"): Promise<OrdersInput> {
  const dir = await mkdtemp(join(tmpdir(), "weir-bench-in-"));
  const files = balancedFileNames(dir, format);
  const perFile = Math.ceil(targetBytes / files.length);
  let id = 0;
  let bytes = 0;
  for (const file of files) {
    const out = createWriteStream(file);
    let written = 0;
    if (format === "csv") {
      const header = `${CSV_COLUMNS.join(",")}\n`;
      out.write(header);
      written += header.length;
    }
    while (written < perFile) {
      let chunk = "";
      for (let i = 0; i < 2_000; i++) chunk += lineOf(orderOf(++id), format);
      written += Buffer.byteLength(chunk);
      if (!out.write(chunk)) await once(out, "drain");
    }
    out.end();
    await once(out, "finish");
    bytes += written;
  }
  return { dir, format, records: id, bytes };
}

/** `FILES_PER_READER` file paths for each source reader, by the source's own bucket function. */
function balancedFileNames(dir: string, format: OrdersFormat): string[] {
  const perBucket = Array.from({ length: FILE_PARALLELISM }, () => [] as string[]);
  for (let i = 0; perBucket.some((b) => b.length < FILES_PER_READER); i++) {
    const path = join(dir, `orders-${i}.${format}`);
    const bucket = perBucket[bucketOf(path, FILE_PARALLELISM)]!;
    if (bucket.length < FILES_PER_READER) bucket.push(path);
  }
  return perBucket.flat();
}

/**
 * Runs the file job once over `params.input` into a fresh output directory,
 * counts the committed output lines, and removes the output and checkpoints.
 *
 * @example
 * ```ts
 * const m = await runFileCopy({ input, checkpointIntervalMs: 1_000 });
 * console.log(`${(input.bytes / 2 ** 20 / (m.elapsedMs / 1000)).toFixed(1)} MB/s`);
 * ```
 */
export async function runFileCopy(params: FileCopyParams): Promise<FileCopyMeasurement> {
  const outDir = await mkdtemp(join(tmpdir(), "weir-bench-out-"));
  try {
    return await withCheckpointDir(params.checkpointIntervalMs, async (checkpointDir) => {
      const env = StreamExecutionEnvironment.create({ parallelism: FILE_PARALLELISM, workers: 0, fresh: true, log: () => {} });
      if (checkpointDir) {
        env.enableCheckpointing(params.checkpointIntervalMs, "exactly-once");
        env.getCheckpointConfig().setCheckpointStorage(checkpointDir);
      }
      const { dir, format } = params.input;
      const orders =
        format === "jsonl"
          ? env.fromSource(FileSource.forRecords<Order>(dir, { format }), WatermarkStrategy.noWatermarks(), "orders").uid("orders")
          : env.fromSource(FileSource.forRecords<CsvOrder>(dir, { format }), WatermarkStrategy.noWatermarks(), "orders").uid("orders").map(orderOfCsv).uid("parse");
      orders
        .map(priceOrder)
        .uid("price")
        .sinkTo(FileSink.forRows<PricedOrder>(outDir, { format: "jsonl" }))
        .uid("priced");
      const started = performance.now();
      const client = await env.executeAsync("bench-file-copy");
      const result = await client.getJobExecutionResult();
      const elapsedMs = performance.now() - started;
      return { params, elapsedMs, outputLines: await countCommittedLines(outDir), checkpoints: result.checkpoints };
    });
  } finally {
    await rm(outDir, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
}

/** Newlines in the committed (not hidden) files of `dir`. */
async function countCommittedLines(dir: string): Promise<number> {
  let lines = 0;
  for (const name of await readdir(dir)) {
    if (name.startsWith(".")) continue;
    const path = join(dir, name);
    if (!(await stat(path)).isFile()) continue;
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
    }
  }
  return lines;
}
