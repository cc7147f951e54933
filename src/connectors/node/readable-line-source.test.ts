/**
 * fromReadable in real jobs: lines across chunk boundaries, a restart that
 * creates the stream again and skips to the checkpointed line, a stream object
 * refused after a failure, and backpressure: a job whose sink is slow reads
 * the stream no faster than it writes.
 */
import { createReadStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import type { CheckpointListener } from "../../core/checkpointed-function.ts";
import { RichFunction } from "../../core/rich-function.ts";
import { RestartStrategies } from "../../runtime/execution/restart-strategy.ts";
import { collectSink } from "../builtin/collect-sink.ts";
import { WritableSink } from "./writable-sink.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "weir-readable-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Shared with the job's map (same thread): fail once, after `after` lines and a completed checkpoint. */
const failure = { armed: false, seen: 0, checkpoints: 0, firstAfterRestart: undefined as string | undefined };

class FailOnce extends RichFunction implements CheckpointListener {
  constructor(private readonly after: number) {
    super();
  }
  map(line: string): string {
    if (this.getRuntimeContext().getAttemptNumber() > 0) failure.firstAfterRestart ??= line;
    else if (failure.armed && ++failure.seen >= this.after && failure.checkpoints > 0) {
      failure.armed = false;
      throw new Error(`injected failure at ${line}`);
    }
    return line;
  }
  notifyCheckpointComplete(): void {
    failure.checkpoints++;
  }
}

function linesJob(input: Parameters<StreamExecutionEnvironment["fromReadable"]>[0], after: number) {
  Object.assign(failure, { armed: true, seen: 0, checkpoints: 0, firstAfterRestart: undefined });
  const env = StreamExecutionEnvironment.create({ parallelism: 1 });
  env.enableCheckpointing(5).setRestartStrategy(RestartStrategies.fixedDelayRestart(1, 0));
  env.fromReadable(input).uid("lines").map(new FailOnce(after)).uid("fail-once").sinkTo(collectSink("out")).uid("out");
  return env.execute("lines");
}

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i} ✓`);

/** A stream of the lines, a few at a time with a timer in between (so checkpoints complete while it is read). */
function paced(lines: string[]): Readable {
  return Readable.from(
    (async function* () {
      for (let i = 0; i < lines.length; i += 100) {
        await new Promise((r) => setTimeout(r, 1));
        yield lines.slice(i, i + 100).join("\n") + "\n";
      }
    })(),
  );
}

describe("fromReadable", () => {
  it("reads a file stream", async () => {
    const path = join(dir, "in.txt");
    await writeFile(path, numbered(5_000).join("\n") + "\n");
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    env.fromReadable(() => createReadStream(path, { highWaterMark: 256 })).sinkTo(collectSink("out"));
    expect((await env.execute("file")).getCollected("out")).toEqual(numbered(5_000));
  });

  it("emits the lines of a stream of bytes or strings: CRLF, characters split across chunks, a last line without newline", async () => {
    const bytes = Buffer.from("first\r\n\nzwei – ü\r\n€🎉 end\nno newline ✓");
    const chunks = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1)); // every character split
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    env.fromReadable(() => Readable.from(chunks)).sinkTo(collectSink("bytes"));
    env.fromReadable(() => Readable.from(["a\nb", "c\n", "d"])).sinkTo(collectSink("strings"));
    const result = await env.execute("readables");
    expect(result.getCollected("bytes")).toEqual(["first", "", "zwei – ü", "€🎉 end", "no newline ✓"]);
    expect(result.getCollected("strings")).toEqual(["a", "bc", "d"]);
  });

  it("after a failure creates the stream again and skips to the checkpointed line: every line exactly once", async () => {
    const lines = numbered(5_000);
    let opened = 0;
    const result = await linesJob(() => (opened++, paced(lines)), 4_000);
    expect(result.restarts).toBe(1);
    expect(opened).toBe(2);
    expect(failure.firstAfterRestart).not.toBe(lines[0]); // resumed from a checkpoint, not from the start
    expect(result.getCollected("out")).toEqual(lines);
  });

  it("refuses to read a stream object again after a failure", async () => {
    const err = await linesJob(paced(numbered(5_000)), 4_000).catch((e: unknown) => e);
    expect(String((err as Error).cause)).toMatch(/fromReadable: cannot resume at record \d+ \(from a checkpoint\): the input object can be read only once\. Pass a function that creates it again, env\.fromReadable\(\(\) => stream\)/);
  });

  it("fails the job with the stream's error", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    const broken = new Readable({
      read() {
        this.push("one\ntwo\n");
        this.destroy(new Error("disk on fire"));
      },
    });
    env.fromReadable(broken).sinkTo(collectSink("out"));
    await expect(env.execute("broken")).rejects.toThrow(/fromReadable: the stream failed after \d lines: disk on fire/);
  });

  it("reads the stream no faster than a slow sink writes: backpressure from a Writable to a Readable", async () => {
    let produced = 0;
    const endless = new Readable({
      highWaterMark: 1024,
      read() {
        this.push(`${produced++}\n`);
      },
    });
    let written = 0;
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString().split("\n").length - 1;
        setTimeout(done, 20); // a slow destination
      },
    });
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    env.fromReadable(endless).sinkTo(new WritableSink(() => slow));
    const client = await env.executeAsync("backpressure");
    const deadline = Date.now() + 30_000;
    while (written < 100_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await client.cancel();
    expect(written).toBeGreaterThanOrEqual(100_000);
    // what was read and not written is bounded: the stream's and the sink's buffers, and one batch in flight
    expect(produced - written, `produced ${produced}, written ${written}`).toBeLessThan(40_000);
  });
});
