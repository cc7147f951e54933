import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../index.ts";
import type { Row } from "../data/row.ts";
import { intervalJoin } from "./interval-join.ts";
import { hasNullKey, joinedFields, JoinSpecError, type JoinSpec } from "./join-spec.ts";
import { regularJoin } from "./regular-join.ts";
import { temporalJoin } from "./temporal-join.ts";
import { windowJoin } from "./window-join.ts";

const base: JoinSpec = { joinType: "INNER", leftKeys: [0], rightKeys: [0], leftArity: 2, rightArity: 2 };
const naming = { uid: "j", name: "j" };

describe("join specs", () => {
  const env = StreamExecutionEnvironment.create({ parallelism: 1 });
  const l = env.fromCollection<Row>([]);
  const r = env.fromCollection<Row>([]);

  it("are checked when the join is translated", () => {
    expect(() => regularJoin(l, r, { ...base, rightKeys: [0, 1] }, naming)).toThrow(new JoinSpecError("regular join: 1 left keys but 2 right keys"));
    expect(() => regularJoin(l, r, { ...base, leftKeys: [2] }, naming)).toThrow(/left key position 2 is not within the arity 2/);
    expect(() => regularJoin(l, r, { ...base, nullSafeKeys: [true, false] }, naming)).toThrow(/2 null-safe flags for 1 keys/);
    expect(() => regularJoin(l, r, { ...base, stateTtlMs: 0 }, naming)).toThrow(/state TTL must be positive/);
    const interval = { ...base, leftTimeField: 1, rightTimeField: 1, lowerBound: 0, upperBound: 1 };
    expect(() => intervalJoin(l, r, { ...interval, joinType: "SEMI" }, naming)).toThrow(/interval join does not support SEMI joins/);
    expect(() => intervalJoin(l, r, { ...interval, rightTimeField: 5 }, naming)).toThrow(/right time position 5/);
    expect(() => temporalJoin(l, r, { ...base, joinType: "FULL", leftTimeField: 1, rightTimeField: 1 }, naming)).toThrow(/temporal join does not support FULL/);
    expect(() => windowJoin(l, r, { ...base, leftWindowStart: 0, leftWindowEnd: 1, rightWindowStart: 0, rightWindowEnd: 2 }, naming)).toThrow(/right window position 2/);
  });

  it("a NULL key never matches unless the key is null-safe", () => {
    expect(hasNullKey([null, 1], [0])).toBe(true);
    expect(hasNullKey([null, 1], [1])).toBe(false);
    expect(hasNullKey([null, 1], [0, 1], [true, false])).toBe(false);
    expect(hasNullKey([null, null], [0, 1], [true, false])).toBe(true);
  });

  it("joined fields share no object with the inputs", () => {
    const left = [1, [1, 2]];
    const out = joinedFields(left, 2, null, 1);
    expect(out).toEqual([1, [1, 2], null]);
    (out[1] as number[]).push(3);
    expect(left[1]).toEqual([1, 2]);
  });
});
