import { describe, expect, it } from "vitest";
import type { SqlValue } from "../types/sql-value.ts";
import { keepRanked, rankNumbers, type RankType } from "./ranked-rows.ts";

const byFirst = (a: readonly SqlValue[], b: readonly SqlValue[]) => (a[0] as number) - (b[0] as number);

/** `values` kept one after another with keepRanked, against sorting them all and ranking (the kept rows and the count). */
function keptVersusAll(values: readonly number[], rankType: RankType, maxRank: number): [number[], number[]] {
  const kept: SqlValue[][] = [];
  let count = 0;
  for (const v of values) count += keepRanked(kept, [v], byFirst, rankType, maxRank);
  expect(count).toBe(kept.length);
  const all = values.map((v) => [v]).sort(byFirst);
  return [kept.map((r) => r[0] as number), all.slice(0, rankNumbers(all, byFirst, rankType, maxRank).length).map((r) => r[0] as number)];
}

describe("keepRanked", () => {
  it("keeps exactly the rows ranked up to maxRank among all, ties at the boundary included", () => {
    const values = [5, 3, 3, 9, 1, 3, 7, 1, 2, 2, 8, 0, 3];
    for (const rankType of ["ROW_NUMBER", "RANK", "DENSE_RANK"] as const) {
      for (const maxRank of [1, 2, 3, 5]) {
        const [kept, all] = keptVersusAll(values, rankType, maxRank);
        expect(kept, `${rankType} ${maxRank}`).toEqual(all);
      }
    }
  });

  it("does not add a row ranked past maxRank, and drops the rows a better one pushes out", () => {
    const rows: SqlValue[][] = [[1], [3]];
    expect(keepRanked(rows, [4], byFirst, "RANK", 2)).toBe(0);
    expect(rows).toEqual([[1], [3]]);
    expect(keepRanked(rows, [2], byFirst, "ROW_NUMBER", 2)).toBe(0);
    expect(rows).toEqual([[1], [2]]);
    expect(keepRanked(rows, [1], byFirst, "RANK", 2)).toBe(0); // [1], [1] rank 1; [2] rank 3
    expect(rows).toEqual([[1], [1]]);
    expect(keepRanked(rows, [2], byFirst, "DENSE_RANK", 2)).toBe(1); // dense rank 2
    expect(rows).toEqual([[1], [1], [2]]);
  });
});
