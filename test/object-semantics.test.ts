/**
 * Object semantics end to end (fixtures/object-semantics-job.ts): user code
 * that mutates what it reads from state, what it emits and what it receives,
 * and keeps references across records, over records of many shapes, with an
 * injected failure at a random point, in the main thread and on worker
 * threads, gives the results its definition says.
 */
import { describe, expect, it } from "vitest";
import { jsonResult, runCli } from "./support/cli-process.ts";
import { canon, shapeOf } from "./support/record-shapes.ts";
import { seededRandom } from "../src/util/seeded-random.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const RECORDS = 30_000;
const KEYS = 10_000;
const SHAPE_SEED = 7;
const tempDir = tempDirs("weir-objects-");

interface Output {
  acc: string[];
  reduce: string[];
  window: string[];
  restarts: number;
}

/** Per key: the counts emitted (each once, 1..c) and the final record; what does not depend on arrival order. */
function summarizeAcc(lines: string[]): Map<number, { counts: number[]; last: string }> {
  const by = new Map<number, { counts: number[]; last: string; max: number }>();
  for (const line of lines) {
    const k = Number(/k:(\d+)/.exec(line)![1]);
    const count = Number(/count:(\d+)/.exec(line)![1]);
    const e = by.get(k) ?? { counts: [], last: "", max: 0 };
    e.counts.push(count);
    if (count > e.max) {
      e.max = count;
      e.last = line;
    }
    by.set(k, e);
  }
  return new Map([...by].map(([k, e]) => [k, { counts: e.counts.sort((a, b) => a - b), last: e.last }]));
}

/** What the job must output, computed from its definition. */
function expected(): { acc: Map<number, { counts: number[]; last: string }>; reduceFinal: Map<number, string>; window: string[] } {
  const perKey = new Map<number, { n: number[]; seen: string[] }>();
  const windows = new Map<string, { cnt: number; sum: number; firstN: number; first: string }>();
  for (let n = 1; n <= RECORDS; n++) {
    const r = shapeOf(n, KEYS, SHAPE_SEED);
    const e = perKey.get(r.k) ?? { n: [], seen: [] };
    e.n.push(n);
    e.seen.push(canon(r));
    perKey.set(r.k, e);
    const w = `${r.k % 97}|${Math.floor((n * 10) / 5_000)}`;
    const acc = windows.get(w) ?? { cnt: 0, sum: 0, firstN: n, first: canon(r) };
    acc.cnt++;
    acc.sum += n;
    windows.set(w, acc);
  }
  const acc = new Map<number, { counts: number[]; last: string }>();
  const reduceFinal = new Map<number, string>();
  for (const [k, e] of perKey) {
    const sum = e.n.reduce((a, b) => a + b, 0);
    acc.set(k, { counts: e.n.map((_, i) => i + 1), last: canon({ k, count: e.n.length, sum, seen: e.seen.sort() }) });
    reduceFinal.set(k, `${k}|${e.n.length}|${sum}`);
  }
  return { acc, reduceFinal, window: [...windows.values()].map((a) => canon(a)).sort() };
}

function checkAgainstDefinition(out: Output): void {
  const want = expected();
  expect(summarizeAcc(out.acc)).toEqual(want.acc);
  const reduceFinal = new Map<number, string>();
  const reduceCounts = new Map<number, number[]>();
  for (const line of out.reduce) {
    const [k, cnt] = line.split("|").map(Number) as [number, number];
    reduceCounts.set(k, [...(reduceCounts.get(k) ?? []), cnt]);
    const prev = reduceFinal.get(k);
    if (prev === undefined || Number(prev.split("|")[1]) < cnt) reduceFinal.set(k, line);
  }
  for (const [k, counts] of reduceCounts) expect(counts.sort((a, b) => a - b), `reduce counts of key ${k}`).toEqual(want.acc.get(k)!.counts);
  expect(reduceFinal).toEqual(want.reduceFinal);
  expect(out.window).toEqual(want.window);
}

async function run(workers: number, failAt: number): Promise<Output> {
  const dir = tempDir();
  const r = await runCli(
    ["run", "test/fixtures/object-semantics-job.ts", "--parallelism", "3", "--workers", String(workers), "--checkpoint-interval", "50",
      "--checkpoint-dir", dir, "--", String(RECORDS), String(KEYS), String(failAt), String(SHAPE_SEED)],
    380_000,
  );
  expect(r.code, r.stderr).toBe(0);
  return jsonResult<Output>(r);
}

describe("object semantics", () => {
  const seed = Number(process.env.WEIR_TEST_SEED ?? Date.now() % 100_000);
  // In the first half of one source subtask's range (each of the 3 reads RECORDS / 3), so records follow it.
  const random = seededRandom(seed);
  const failAt = Math.floor(random() * 3) * (RECORDS / 3) + 1 + Math.floor(random() * (RECORDS / 6));

  it(`mutating user code, many record shapes, one injected failure (seed ${seed}, failAt ${failAt}): in the main thread and on 2 workers, as defined`, async () => {
    const [inProcess, twoWorkers] = await Promise.all([run(0, failAt), run(2, failAt)]);
    expect(inProcess.restarts).toBe(1);
    expect(twoWorkers.restarts).toBe(1);
    checkAgainstDefinition(inProcess);
    checkAgainstDefinition(twoWorkers);
  }, 400_000);

  it("three workers without failure give the same results", async () => {
    const out = await run(3, 0);
    expect(out.restarts).toBe(0);
    checkAgainstDefinition(out);
  }, 400_000);
});
