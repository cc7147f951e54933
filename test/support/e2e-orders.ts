/**
 * Input and expected output of the end-to-end suites' running-total job
 * (test/fixtures/e2e-running-total-job.ts): seeded JSON Lines orders, the
 * results a failure-free run must produce (computed here, independently of
 * the engine), the committed output of the file sink, and their comparison.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { randomInt, seededRandom } from "../../src/util/seeded-random.ts";

/** One input record. */
export interface E2eOrder {
  readonly id: number;
  readonly key: string;
  readonly amount: number;
}

/** One output record: the key's count and total after the order `id`. */
export interface E2eTotal {
  readonly id: number;
  readonly key: string;
  readonly count: number;
  readonly total: number;
}

/**
 * Seeded orders in `groups` groups (files or partitions) of `perGroup` orders, in group order. Ids are unique;
 * every key lives in one group only (`keysPerGroup` keys per group), so that the order in which a key's records
 * reach the job (and hence every emitted total) is fixed by the input.
 */
export function generateOrders(seed: number, groups: number, perGroup: number, keysPerGroup: number): E2eOrder[][] {
  const random = seededRandom(seed);
  const all: E2eOrder[][] = [];
  for (let g = 0; g < groups; g++) {
    const orders: E2eOrder[] = [];
    for (let i = 0; i < perGroup; i++) {
      orders.push({ id: g * perGroup + i + 1, key: `k${g}-${randomInt(random, 0, keysPerGroup - 1)}`, amount: randomInt(random, 1, 1000) });
    }
    all.push(orders);
  }
  return all;
}

/** Writes `files` JSON Lines files of `perFile` orders into `dir` (generateOrders) and returns the orders in file order. */
export function writeOrders(dir: string, seed: number, files: number, perFile: number, keysPerFile: number): E2eOrder[][] {
  mkdirSync(dir, { recursive: true });
  const all = generateOrders(seed, files, perFile, keysPerFile);
  all.forEach((orders, f) => writeFileSync(join(dir, `orders-${f}.jsonl`), orders.map((o) => JSON.stringify(o)).join("\n") + "\n"));
  return all;
}

/** The output of a failure-free run, by id: each file's orders tallied in file order. */
export function expectedTotals(files: readonly (readonly E2eOrder[])[]): Map<number, E2eTotal> {
  const tally = new Map<string, { count: number; total: number }>();
  const out = new Map<number, E2eTotal>();
  for (const orders of files) {
    for (const o of orders) {
      const t = tally.get(o.key) ?? { count: 0, total: 0 };
      t.count++;
      t.total += o.amount;
      tally.set(o.key, t);
      out.set(o.id, { id: o.id, key: o.key, count: t.count, total: t.total });
    }
  }
  return out;
}

/** Sum and number of orders per key. */
export function keySums(files: readonly (readonly E2eOrder[])[]): Map<string, { count: number; total: number }> {
  const sums = new Map<string, { count: number; total: number }>();
  for (const o of files.flat()) {
    const s = sums.get(o.key) ?? { count: 0, total: 0 };
    s.count++;
    s.total += o.amount;
    sums.set(o.key, s);
  }
  return sums;
}

/** Names of the files directly in `dir` whose name starts with `.` (in-progress or pending parts). */
export function hiddenFiles(dir: string): string[] {
  return readdirSync(dir).filter((n) => n.startsWith(".")).sort();
}

/** Every record of the committed part files (`part-*`) in `dir`; hidden files are never read. */
export function committedTotals(dir: string): E2eTotal[] {
  const out: E2eTotal[] = [];
  for (const name of readdirSync(dir).filter((n) => n.startsWith("part-")).sort()) {
    for (const line of readFileSync(join(dir, name), "utf8").split("\n")) if (line !== "") out.push(JSON.parse(line) as E2eTotal);
  }
  return out;
}

/** How an output differs from the expected one. */
export interface TotalsDiff {
  /** Expected ids absent from the output. */
  readonly missing: number[];
  /** Ids present more than once (each extra occurrence listed). */
  readonly duplicated: number[];
  /** Output records with an unknown id, or whose key, count or total differ from the expected ones. */
  readonly wrong: E2eTotal[];
}

/** Compares `actual` with `expected` as multisets of records. */
export function diffTotals(expected: ReadonlyMap<number, E2eTotal>, actual: readonly E2eTotal[]): TotalsDiff {
  const seen = new Set<number>();
  const duplicated: number[] = [];
  const wrong: E2eTotal[] = [];
  for (const r of actual) {
    const e = expected.get(r.id);
    if (!e || e.key !== r.key || e.count !== r.count || e.total !== r.total) wrong.push(r);
    if (seen.has(r.id)) duplicated.push(r.id);
    seen.add(r.id);
  }
  const missing = [...expected.keys()].filter((id) => !seen.has(id));
  return { missing, duplicated, wrong };
}

/** The highest count and total emitted per key (the key's final tally when each order counted once). */
export function finalTallies(actual: readonly E2eTotal[]): Map<string, { count: number; total: number }> {
  const last = new Map<string, { count: number; total: number }>();
  for (const r of actual) {
    const l = last.get(r.key);
    if (!l || r.count > l.count) last.set(r.key, { count: r.count, total: r.total });
  }
  return last;
}

/** A short description of a diff for assertion messages: counts and the first few offenders. */
export function describeDiff(d: TotalsDiff): string {
  const head = <T>(xs: readonly T[]) => JSON.stringify(xs.slice(0, 5)) + (xs.length > 5 ? "…" : "");
  return `missing ${d.missing.length} ${head(d.missing)}, duplicated ${d.duplicated.length} ${head(d.duplicated)}, wrong ${d.wrong.length} ${head(d.wrong)}`;
}

/** Asserts that `output` holds exactly the output of a failure-free run over `files`: no total missing, twice or wrong, each key's final count and total, no hidden file left. */
export function expectExactOutput(files: E2eOrder[][], output: string, where: string): void {
  const actual = committedTotals(output);
  const diff = diffTotals(expectedTotals(files), actual);
  expect(diff.missing.length + diff.duplicated.length + diff.wrong.length, `${where}: ${describeDiff(diff)}`).toBe(0);
  expect(finalTallies(actual), `${where}: final count and total per key`).toEqual(keySums(files));
  expect(hiddenFiles(output), `${where}: hidden files left`).toEqual([]);
}
