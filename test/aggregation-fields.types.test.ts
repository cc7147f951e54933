/**
 * Type-level tests (checked by `tsc --noEmit`, which covers test/): `sum`,
 * `min`, `max`, `minBy` and `maxBy` take only the numeric fields of the record
 * type (numbers or bigints, required ones), a tuple's numeric positions, or
 * nothing when the records are numbers. At run time the tests only build the job graphs.
 */
import { describe, expectTypeOf, it } from "vitest";
import { StreamExecutionEnvironment, TumblingEventTimeWindows, type NumericField, type SingleOutputStreamOperator } from "../src/index.ts";

type Visit = { page: string; ms: number; bytes: bigint; retries?: number; tags: string[] };

describe("numeric fields of built-in aggregations (types)", () => {
  it("NumericField: number and bigint keys, required ones; numeric tuple positions", () => {
    expectTypeOf<NumericField<Visit>>().toEqualTypeOf<"ms" | "bytes">();
    expectTypeOf<NumericField<[string, number, bigint]>>().toEqualTypeOf<1 | "1" | 2 | "2">();
  });

  it("keyed, windowed and all-windowed streams accept only numeric fields", () => {
    const env = StreamExecutionEnvironment.create();
    const visits = env.fromElements<Visit>({ page: "home", ms: 5, bytes: 10n, tags: [] });
    const byPage = visits.keyBy((v) => v.page);
    expectTypeOf(byPage.sum("ms")).toEqualTypeOf<SingleOutputStreamOperator<Visit>>();
    byPage.max("bytes");
    byPage.minBy("ms");
    // @ts-expect-error "page" holds strings
    byPage.sum("page");
    // @ts-expect-error no such field
    byPage.sum("nosuchfield");
    // @ts-expect-error an optional field may be missing
    byPage.max("retries");
    // @ts-expect-error an array is not a number
    byPage.maxBy("tags");
    // @ts-expect-error records that are objects need a field
    byPage.sum();

    const windowed = byPage.window(TumblingEventTimeWindows.of(1_000));
    windowed.sum("ms");
    windowed.maxBy("bytes");
    // @ts-expect-error "page" holds strings
    windowed.minBy("page");
    const all = visits.windowAll(TumblingEventTimeWindows.of(1_000));
    all.max("ms");
    // @ts-expect-error "page" holds strings
    all.max("page");

    const pairs = env.fromElements<[string, number]>(["a", 1]).keyBy(([word]) => word);
    pairs.sum(1);
    pairs.sum("1");
    // @ts-expect-error position 0 holds strings
    pairs.sum(0);
    // @ts-expect-error "length" is no position
    pairs.sum("length");

    const numbers = env.fromSequence(1, 10).keyBy((n) => n % 2);
    expectTypeOf(numbers.sum()).toEqualTypeOf<SingleOutputStreamOperator<number>>();
    numbers.window(TumblingEventTimeWindows.of(1_000)).max();
    // @ts-expect-error numbers have no fields
    numbers.sum("value");
    env.fromElements(1n, 2n).keyBy((n) => n % 2n).sum();
  });
});
