import { describe, expect, it } from "vitest";
import { randomInt, seededRandom, testSeed } from "../../util/seeded-random.ts";
import { parseDecimal } from "../types/decimal.ts";
import { ChangelogRetractionError, formatChangelog, MultisetTable, sortRows, UpsertTable } from "./changelog.ts";
import { Row } from "./row.ts";

/** The clicks example: SELECT user, COUNT(url) FROM clicks GROUP BY user. */
const clicks = [Row.of("Mary", 1n), Row.of("Bob", 1n), Row.ofKind("-U", "Mary", 1n), Row.ofKind("+U", "Mary", 2n)];

const show = (rows: Row[]): string[] => rows.map((r) => Row.toString(r));

describe("changelog print format", () => {
  it("prints the clicks changelog as Flink does", () => {
    expect(formatChangelog(clicks)).toBe("+I[Mary, 1]\n+I[Bob, 1]\n-U[Mary, 1]\n+U[Mary, 2]");
    expect(formatChangelog(clicks.slice(0, 1), { identifier: "counts" })).toBe("counts> +I[Mary, 1]");
    expect(formatChangelog([Row.of(2.0)], { formats: [{ kind: "DOUBLE" }] })).toBe("+I[2.0]");
    expect(formatChangelog([])).toBe("");
  });
});

describe("MultisetTable (retract mode)", () => {
  it("materializes the clicks changelog after every row", () => {
    const table = new MultisetTable();
    const after = clicks.map((r) => show(table.applyAll([r]).rows()));
    expect(after).toEqual([
      ["+I[Mary, 1]"],
      ["+I[Mary, 1]", "+I[Bob, 1]"],
      ["+I[Bob, 1]"],
      ["+I[Bob, 1]", "+I[Mary, 2]"],
    ]);
    expect(show(table.sortedRows())).toEqual(["+I[Bob, 1]", "+I[Mary, 2]"]);
    expect(table.size).toBe(2);
  });

  it("keeps duplicates as a multiset, and retracts one copy at a time", () => {
    const t = new MultisetTable().applyAll([Row.of("a", null), Row.of("a", null), Row.ofKind("+U", "b", 1)]);
    expect(show(t.rows())).toEqual(["+I[a, null]", "+I[a, null]", "+I[b, 1]"]);
    t.apply(Row.ofKind("-D", "a", null));
    expect(show(t.rows())).toEqual(["+I[a, null]", "+I[b, 1]"]);
    expect(t.size).toBe(2);
  });

  it("matches retractions by value: 1 and 1n, 1.50 and 1.5 are the same field", () => {
    const t = new MultisetTable().applyAll([Row.of("x", 1, parseDecimal("1.50"))]);
    t.apply(Row.ofKind("-U", "x", 1n, parseDecimal("1.5")));
    expect(t.size).toBe(0);
  });

  it("names a retraction of a row that is not there", () => {
    const t = new MultisetTable().applyAll([Row.of("Mary", 1n)]);
    expect(() => t.apply(Row.ofKind("-U", "Mary", 2n))).toThrow(
      new ChangelogRetractionError(Row.ofKind("-U", "Mary", 2n), 1, "retracts a row that is not in the table"),
    );
    expect(() => new MultisetTable().apply(Row.ofKind("-D", "Bob", null))).toThrow(
      "changelog entry #0 -D[Bob, null] retracts a row that is not in the table",
    );
  });

  it("holds its own copies of the rows", () => {
    const row = Row.of("a", [1]);
    const t = new MultisetTable().applyAll([row]);
    (row.fields[1] as number[]).push(2);
    expect(show(t.rows())).toEqual(["+I[a, [1]]"]);
    (t.rows()[0]!.fields[1] as number[]).push(3);
    expect(show(t.rows())).toEqual(["+I[a, [1]]"]);
  });

  it("equals a naive list model over random retract changelogs", () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const t = new MultisetTable();
    const model: Row[] = [];
    for (let i = 0; i < 1_000; i++) {
      if (model.length > 0 && random() < 0.45) {
        const victim = model.splice(randomInt(random, 0, model.length - 1), 1)[0]!;
        t.apply(Row.ofKind(random() < 0.5 ? "-U" : "-D", ...victim.fields));
      } else {
        const row = Row.ofKind(random() < 0.5 ? "+I" : "+U", `k${randomInt(random, 0, 5)}`, randomInt(random, 0, 3) === 0 ? null : BigInt(randomInt(random, 0, 3)));
        model.push({ kind: "+I", fields: row.fields });
        t.apply(row);
      }
      expect(show(t.sortedRows()), `seed ${seed}`).toEqual(show(sortRows(model)));
    }
  });
});

describe("UpsertTable (upsert mode by key)", () => {
  it("materializes the clicks changelog by user", () => {
    const t = new UpsertTable([0]);
    const after = clicks.map((r) => show(t.applyAll([r]).rows()));
    expect(after).toEqual([["+I[Mary, 1]"], ["+I[Mary, 1]", "+I[Bob, 1]"], ["+I[Mary, 1]", "+I[Bob, 1]"], ["+I[Mary, 2]", "+I[Bob, 1]"]]);
    expect(show(t.sortedRows())).toEqual(["+I[Bob, 1]", "+I[Mary, 2]"]);
  });

  it("deletes by key, with composite and NULL keys, and names a delete of an absent key", () => {
    const t = new UpsertTable([0, 1]).applyAll([Row.of("a", null, 1), Row.of("a", 1n, 2), Row.ofKind("+U", "a", null, 3)]);
    expect(show(t.rows())).toEqual(["+I[a, null, 3]", "+I[a, 1, 2]"]);
    t.apply(Row.ofKind("-D", "a", 1, 2)); // the key (a, 1) whatever the other fields
    expect(t.size).toBe(1);
    expect(() => t.apply(Row.ofKind("-D", "b", null, 0))).toThrow("changelog entry #4 -D[b, null, 0] deletes a key that is not in the table");
    expect(() => new UpsertTable([])).toThrow(/at least one key field/);
  });
});
