/**
 * Interval join state restores across layouts and state backends: a
 * savepoint whose interval join state is in the layout the join wrote until
 * 2026-12-03 (keyed states `_left`/`_right`, per key
 * `{ rows: [{ f, t, m }], next }`, written on each row's arrival), and one
 * the join wrote on either backend (on the heap backend its rows held in
 * memory and written behind, on the disk backend in keyed state per key),
 * restore into the join on either backend: the restored rows match the rows
 * read after the resume, and the unmatched ones of the preserved sides are
 * padded when the watermark passes them. The first run writes the old layout
 * with a keyed co-process function of the same uid (the old join's writes,
 * without its matching: none of its rows match each other, and no watermark
 * passes them), or runs the join on those rows; the second run, from its
 * savepoint at the same or another parallelism, must give the batch join of
 * all rows.
 */
import { describe, expect, it } from "vitest";
import { collectSink, StreamExecutionEnvironment, type JobClient, type KeyedProcessContext } from "../src/index.ts";
import { KeyedCoProcessFunction } from "../src/core/co-process-function.ts";
import { engineKeyedState } from "../src/core/runtime-context.ts";
import { Row } from "../src/table/data/row.ts";
import { intervalJoin, type IntervalJoinSpec } from "../src/table/runtime/interval-join.ts";
import { rowKeySelector } from "../src/table/runtime/row-key.ts";
import type { SqlValue } from "../src/table/types/sql-value.ts";
import { waitFor } from "./support/cli-process.ts";
import { folded, nestedLoopJoin, pairMatches, sequencedInputs, type SideRow } from "./support/join-oracle.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const tempDir = tempDirs("weir-interval-legacy-");

/** `r.t BETWEEN l.t - 5 AND l.t + 10` on rows `[k, t, s]`, FULL. */
const SPEC: IntervalJoinSpec = { joinType: "FULL", leftKeys: [0], rightKeys: [0], leftArity: 3, rightArity: 3, leftTimeField: 1, rightTimeField: 1, lowerBound: -5, upperBound: 10 };

const L = (k: number, t: number, s: string): SideRow => ({ side: "L", fields: [k, t, s] });
const R = (k: number, t: number, s: string): SideRow => ({ side: "R", fields: [k, t, s] });
const W = (watermark: number): SideRow => ({ side: "W", watermark });

/** Before the savepoint: rows that match none of each other (keys 1, 2 left; 3 right, or times far apart). */
const BEFORE = [L(1, 100, "a"), L(1, 104, "b"), L(2, 100, "c"), R(3, 100, "x"), R(1, 200, "far"), L(4, 300, "d")];
/** After: rows matching the restored ones, then watermarks that expire them all. */
const AFTER = [R(1, 103, "y"), L(3, 98, "e"), R(2, 150, "no"), W(150), R(4, 305, "z"), W(1000)];
const ROWS = [...BEFORE, ...AFTER];

/** Rows the first run read (all of them before the savepoint's barrier). */
let read = 0;

/** The old join's state writes: each row appended to its side's state `{ rows, next }` (earliest cleanup time). */
class OldLayoutWriter extends KeyedCoProcessFunction<string, Row, Row, never> {
  static written = 0;
  processElement1(row: Row, _ctx: KeyedProcessContext<string>): void {
    this.hold("_left", row.fields, (row.fields[1] as number) + SPEC.upperBound);
  }
  processElement2(row: Row, _ctx: KeyedProcessContext<string>): void {
    this.hold("_right", row.fields, (row.fields[1] as number) - SPEC.lowerBound);
  }
  private hold(name: string, f: SqlValue[], cleanup: number): void {
    const state = engineKeyedState<{ rows: { f: SqlValue[]; t: number; m: boolean }[]; next: number | null }>(this.getRuntimeContext(), name);
    const own = state.get() ?? { rows: [], next: null };
    state.set({ rows: [...own.rows, { f, t: f[1] as number, m: false }], next: own.next === null ? cleanup : Math.min(own.next, cleanup) });
    OldLayoutWriter.written++;
  }
}

/** The rows in sequence (one every 5 ms, read up to `limit()`), `W` entries as watermarks; the join (or the writer) as uid "join", at `parallelism`, on `backend`. */
function start(limit: () => number, join: "writer" | "join", out: string, parallelism: number, backend: "heap" | "disk", fromSavepoint?: string): Promise<JobClient> {
  const env = StreamExecutionEnvironment.create({ parallelism, checkpointInterval: 3_600_000, checkpointDir: tempDir(), fromSavepoint });
  env.setStateBackend(backend);
  const { left, right } = sequencedInputs(env, ROWS, 5, { limit, onRead: () => read++ });
  if (join === "writer") {
    left
      .connect(right)
      .keyBy(rowKeySelector(SPEC.leftKeys), rowKeySelector(SPEC.rightKeys))
      .process(new OldLayoutWriter())
      .uid("join")
      .sinkTo(collectSink(out))
      .uid("out");
  } else intervalJoin(left, right, SPEC, { uid: "join", name: "IntervalJoin" }).sinkTo(collectSink(out)).uid("out");
  return env.executeAsync("interval-join-legacy-state");
}

describe("interval join state restores across layouts and backends", () => {
  it.each([
    ["the old layout", "writer", "heap", 2, "heap"],
    ["the old layout", "writer", "heap", 3, "heap"],
    ["the old layout", "writer", "heap", 3, "disk"],
    ["the join's, rows held in memory,", "join", "heap", 3, "disk"],
    ["the join's, rows in keyed state,", "join", "disk", 3, "heap"],
  ] as const)("%s written by %s on the %s backend at parallelism 2 restores into parallelism %i on the %s backend: restored rows match, and are padded when the watermark passes them", async (_layout, first, firstBackend, parallelism, backend) => {
    OldLayoutWriter.written = 0;
    read = 0;
    let limit = BEFORE.length;
    const before = await start(() => limit, first, "before", 2, firstBackend);
    await waitFor("every row before the savepoint read", () => read === BEFORE.length && (first === "join" || OldLayoutWriter.written === BEFORE.length), 30_000);
    const savepoint = await before.stopWithSavepoint(tempDir());
    limit = ROWS.length;
    const second = await start(() => limit, "join", "after", parallelism, backend, savepoint);
    const result = await second.getJobExecutionResult();
    const side = (s: "L" | "R") => ROWS.filter((r): r is Extract<SideRow, { fields: SqlValue[] }> => r.side === s).map((r) => r.fields);
    const expected = nestedLoopJoin(SPEC, side("L"), side("R"), (l, r) => {
      const tl = l[1] as number;
      const tr = r[1] as number;
      return tr >= tl + SPEC.lowerBound && tr <= tl + SPEC.upperBound && pairMatches(SPEC, l, r);
    });
    // the restored rows took part: (1, 100) and (1, 104) met (1, 103); (3, 100) met (3, 98); (4, 300) met (4, 305)
    expect(expected.map((r) => Row.toString(r))).toContain("+I[1, 104, b, 1, 103, y]");
    expect(folded(result.getCollected<Row>("after"))).toEqual(expected);
  }, 60_000);
});
