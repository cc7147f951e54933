import { describe, expect, it } from "vitest";
import { jdbcStatement, maskSql, multiRowText, rowsPerStatement } from "./jdbc-statement.ts";
import { leftoverIds, parsePreparedTransactionId, preparedTransactionId, runOf } from "./jdbc-transaction-ids.ts";

describe("jdbcStatement", () => {
  it("turns ? into $n outside quotes, identifiers, dollar quotes and comments; ?? is a literal ?", () => {
    const s = jdbcStatement(`INSERT INTO "we?ird" (a, b, c) VALUES (?, '?''?', E'\\'?' || ?) -- ?\n/* ? /* ? */ */ ON CONFLICT DO NOTHING RETURNING $x$?$x$, d ?? 'k';`);
    expect(s.text).toBe(`INSERT INTO "we?ird" (a, b, c) VALUES ($1, '?''?', E'\\'?' || $2) -- ?\n/* ? /* ? */ */ ON CONFLICT DO NOTHING RETURNING $x$?$x$, d ? 'k'`);
    expect(s.parameterCount).toBe(2);
    expect(s.upsert).toBe(false);
  });

  it("keeps the SQL's own $n when it has no ?", () => {
    const s = jdbcStatement("UPDATE t SET v = $2 WHERE id = $1");
    expect([s.text, s.parameterCount, s.multiRow]).toEqual(["UPDATE t SET v = $2 WHERE id = $1", 2, undefined]);
  });

  it("rewrites a single-row INSERT into multi-row statements, numbering each row's parameters", () => {
    const s = jdbcStatement("insert into t (id, v, w) values (?, upper(?), ?::int) on conflict (id) do update set v = excluded.v");
    expect(s.upsert).toBe(true);
    expect(multiRowText(s, 3)).toBe(
      "insert into t (id, v, w) VALUES ($1, upper($2), $3::int),($4, upper($5), $6::int),($7, upper($8), $9::int) on conflict (id) do update set v = excluded.v",
    );
    expect(rowsPerStatement(s, 50_000)).toBe(21_845);
    expect(rowsPerStatement(s, 100)).toBe(100);
  });

  it("does not rewrite statements with parameters outside the row, several rows, or a SELECT", () => {
    expect(jdbcStatement("INSERT INTO t (a) VALUES (?) ON CONFLICT (a) DO UPDATE SET b = ?").multiRow).toBeUndefined();
    expect(jdbcStatement("INSERT INTO t (a) VALUES (?), (?)").multiRow).toBeUndefined();
    expect(jdbcStatement("INSERT INTO t (a) SELECT ? WHERE true").multiRow).toBeUndefined();
    expect(jdbcStatement("DELETE FROM t WHERE id = ?").multiRow).toBeUndefined();
  });

  it("masks without moving anything", () => {
    const sql = "SELECT 'a?' , \"b?\" -- c?\n, $$d?$$";
    expect(maskSql(sql)).toHaveLength(sql.length);
    expect(maskSql(sql)).not.toContain("?");
  });
});

describe("prepared transaction ids", () => {
  it("are unique per subtask, run, attempt and n, and parse back only with their own prefix", () => {
    const run = runOf("3f2a9c01-d4e5-4f00-8000-000000000000");
    expect(run).toBe("3f2a9c01d4e5");
    const gid = preparedTransactionId("job-a", 2, run, 1, 7);
    expect(gid).toBe("job-a-2-3f2a9c01d4e5-1-7");
    expect(parsePreparedTransactionId("job-a", gid)).toEqual({ subtask: 2 });
    expect(parsePreparedTransactionId("job", gid)).toBeUndefined();
    expect(parsePreparedTransactionId("job-a-2", gid)).toBeUndefined();
  });

  it("leftovers: this prefix, in this subtask's care, not restored", () => {
    const ids = ["p-0-aa-0-1", "p-1-aa-0-1", "p-2-aa-0-1", "p-3-bb-1-0", "p-x-0-aa-0-1", "q-0-aa-0-1"];
    expect(leftoverIds("p", 0, 2, ids, new Set(["p-0-aa-0-1"]))).toEqual(["p-2-aa-0-1"]);
    expect(leftoverIds("p", 1, 2, ids, new Set())).toEqual(["p-1-aa-0-1", "p-3-bb-1-0"]);
  });
});
