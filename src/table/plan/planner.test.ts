import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { Schema } from "../api/schema.ts";
import { StreamTableEnvironment } from "../api/table-environment.ts";
import { nexmarkSqlScript, type NexmarkSqlQueryName } from "../../../bench/jobs/nexmark/sql-queries.ts";
import type { RelNodeOf } from "./rel-node.ts";

/** A session with `clicks(user, url, n, cTime rowtime)` and `users(name, region)` views over (empty) streams. */
function session(): StreamTableEnvironment {
  const env = StreamExecutionEnvironment.create({ parallelism: 1 });
  const tEnv = StreamTableEnvironment.create(env);
  tEnv.createTemporaryView(
    "clicks",
    env.fromCollection<object>([]),
    Schema.newBuilder().column("user", "STRING").column("url", "STRING").column("n", "BIGINT").column("cTime", "TIMESTAMP(3)").watermark("cTime", "cTime - INTERVAL '1' SECOND").build(),
  );
  tEnv.createTemporaryView("users", env.fromCollection<object>([]), Schema.newBuilder().column("name", "STRING").column("region", "STRING").build());
  return tEnv;
}

/** The plan's lines without the header, each reduced to its node name and changelog mode. */
function modes(sql: string): string[] {
  return session()
    .explainSql(sql, "CHANGELOG_MODE")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => {
      const name = /^[\s:+-]*(\w+)\(/.exec(l)![1];
      const mode = l.includes("Reused(") ? "" : /changelogMode=\[([^\]]*)\](, reuse_id=\[\d+\])?\)$/.exec(l)![1];
      return `${l.match(/^[\s:+|-]*/)![0]}${name} ${mode}`;
    });
}

describe("changelog-mode inference", () => {
  it("a group aggregation over inserts emits updates without deletes", () => {
    expect(modes("SELECT user, COUNT(url) AS cnt FROM clicks GROUP BY user")).toEqual([
      "Calc I,UB,UA",
      "+- GroupAggregate I,UB,UA",
      "   +- Calc I",
      "      +- WatermarkAssigner I",
      "         +- DataStreamScan I",
    ]);
  });

  it("an aggregation of an aggregation also deletes (its groups can empty)", () => {
    const m = modes("SELECT cnt, COUNT(*) AS users FROM (SELECT user, COUNT(*) AS cnt FROM clicks GROUP BY user) GROUP BY cnt");
    expect(m[1]).toBe("+- GroupAggregate I,UB,UA,D");
  });

  it("a window aggregation is insert-only", () => {
    const m = modes("SELECT window_start, user, COUNT(*) FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(cTime), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, user");
    expect(m.find((l) => l.includes("GlobalWindowAggregate"))).toMatch(/GlobalWindowAggregate I$/);
    expect(m.find((l) => l.includes("LocalWindowAggregate"))).toMatch(/LocalWindowAggregate I$/);
  });

  it("joins, Top-N and deduplication", () => {
    expect(modes("SELECT * FROM clicks JOIN users ON user = name").find((l) => l.includes("Join"))).toMatch(/Join I$/);
    expect(modes("SELECT * FROM clicks LEFT JOIN users ON user = name").find((l) => l.includes("Join"))).toMatch(/Join I,D$/);
    const topN = modes("SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY user ORDER BY n DESC) AS rn FROM clicks) WHERE rn <= 2");
    expect(topN.find((l) => l.includes("Rank"))).toMatch(/Rank I,UB,UA,D$/);
    const dedup = modes("SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY user ORDER BY cTime ASC) AS rn FROM clicks) WHERE rn = 1");
    expect(dedup.find((l) => l.includes("Deduplicate"))).toMatch(/Deduplicate I,UB,UA$/);
  });

  it("interval joins and window joins are recognized from their conditions", () => {
    expect(modes("SELECT * FROM clicks a, clicks b WHERE a.user = b.user AND a.cTime BETWEEN b.cTime - INTERVAL '5' SECOND AND b.cTime").some((l) => l.includes("IntervalJoin"))).toBe(true);
    const wj = `SELECT * FROM (SELECT * FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(cTime), INTERVAL '5' SECOND))) L
      JOIN (SELECT * FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(cTime), INTERVAL '5' SECOND))) R
      ON L.user = R.user AND L.window_start = R.window_start AND L.window_end = R.window_end`;
    expect(modes(wj).some((l) => l.includes("WindowJoin"))).toBe(true);
  });
});

describe("planner errors name the problem and its place", () => {
  const error = (sql: string) => {
    try {
      session().explainSql(sql);
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error("no error");
  };

  it("unknown tables and columns suggest the nearest name", () => {
    expect(error("SELECT * FROM click")).toBe("line 1, column 15: Object 'click' not found within 'default_catalog.default_database'. Did you mean 'clicks'?");
    expect(error("SELECT usr FROM clicks")).toBe("line 1, column 8: Column 'usr' not found in any table; did you mean 'user'?");
  });

  it("ambiguous and ungrouped columns", () => {
    expect(error("SELECT user FROM clicks a JOIN clicks b ON a.n = b.n")).toBe("line 1, column 8: Column 'user' is ambiguous");
    expect(error("SELECT user, url FROM clicks GROUP BY user")).toBe("line 1, column 14: Expression 'url' is not being grouped");
  });

  it("a window on a column that is not a time attribute", () => {
    expect(error("SELECT * FROM TABLE(TUMBLE(TABLE users, DESCRIPTOR(name), INTERVAL '1' MINUTE))")).toMatch(/requires the timecol is a time attribute type, but is STRING/);
  });

  it("a legacy group window: its auxiliary functions must name it, its column must be a time attribute", () => {
    expect(error("SELECT TUMBLE_END(cTime, INTERVAL '2' SECOND) FROM clicks GROUP BY TUMBLE(cTime, INTERVAL '1' SECOND)")).toBe(
      "line 1, column 8: TUMBLE_END must name the GROUP BY's window: TUMBLE(`cTime`, INTERVAL '1' SECOND)",
    );
    expect(error("SELECT COUNT(*) FROM clicks GROUP BY TUMBLE(n, INTERVAL '1' SECOND)")).toMatch(/^line 1, column 45: The window function requires the timecol is a time attribute type, but is BIGINT/);
    expect(error("SELECT COUNT(*) FROM clicks GROUP BY SESSION(cTime, INTERVAL '1' SECOND), TUMBLE(cTime, INTERVAL '1' SECOND)")).toMatch(/only one group window/);
    expect(error("SELECT COUNT(*) FROM (SELECT *, PROCTIME() AS pt FROM clicks) GROUP BY TUMBLE(pt, INTERVAL '1' SECOND)")).toMatch(/Processing-time windows are not supported: TUMBLE needs an event-time attribute/);
  });

  it("ROW_NUMBER without a Top-N bound, and OVER not ordered by time", () => {
    expect(error("SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY user ORDER BY n) AS rn FROM clicks)")).toMatch(/Top-N only: bound 'rn'/);
    expect(error("SELECT SUM(n) OVER (PARTITION BY user ORDER BY n) FROM clicks")).toMatch(/ordering in stream mode must be defined on a time attribute/);
  });

  it("an updating table cannot become an insert-only stream", () => {
    const tEnv = session();
    expect(() => tEnv.toDataStream(tEnv.sqlQuery("SELECT user, COUNT(*) AS cnt FROM clicks GROUP BY user"))).toThrow(
      "Table sink 'toDataStream' doesn't support consuming update and delete changes which is produced by node GroupAggregate(groupBy=[user], select=[user, COUNT(*) AS cnt])",
    );
  });
});

describe("Nexmark's SQL plans as Flink plans them", () => {
  /** The plan nodes of the published query's SELECT, after its script's DDL (the `nexmark` connector, the views). */
  function nodes(query: NexmarkSqlQueryName): (string | undefined)[] {
    const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.create({ parallelism: 1 }));
    const script = nexmarkSqlScript(query, { events: 1_000, eventsPerSecond: 1_000, dir: "unused" });
    for (const statement of script.setup) tEnv.executeSql(statement);
    return tEnv.explainSql(script.select).split("\n").slice(1).map((l) => /^[\s:+|-]*(\w+)\(/.exec(l)?.[1]).filter(Boolean);
  }

  it("q5: a window aggregation of a window aggregation, window-joined with it (the counts computed once for both)", () => {
    const n = nodes("q5");
    expect(n.filter((x) => x === "GlobalWindowAggregate")).toHaveLength(2);
    expect(n.filter((x) => x === "LocalWindowAggregate")).toHaveLength(2);
    expect(n).toContain("Reused");
    expect(n).toContain("WindowJoin");
    expect(n).not.toContain("GroupAggregate");
  });

  it("q7: the highest bid of each window, a regular join on the maximum price", () => {
    expect(nodes("q7")).toEqual(expect.arrayContaining(["Join", "GlobalWindowAggregate", "LocalWindowAggregate"]));
  });

  it("q7: the join bounds the bids' rowtime by the window end, so its bids can expire while the window maxima stay", () => {
    const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.create({ parallelism: 1 }));
    const script = nexmarkSqlScript("q7", { events: 1_000, eventsPerSecond: 1_000, dir: "unused" });
    for (const statement of script.setup) tEnv.executeSql(statement);
    const join = (tEnv.sqlQuery(script.select).node() as RelNodeOf<"project">).input as RelNodeOf<"join">;
    expect(join.kind).toBe("join");
    // B.dateTime BETWEEN B1.dateTime - INTERVAL '10' SECOND AND B1.dateTime: B1.dateTime - B.dateTime in [0, 10 s]
    expect(join.timeBounds).toEqual({ leftTimeField: 5, rightTimeField: 1, lowerBound: 0, upperBound: 10_000, retained: "right" });
    expect(join.rowType.timeAttributes.every((t) => t === undefined)).toBe(true);
  });
});

describe("rewrites", () => {
  const plan = (sql: string) => session().explainSql(sql);

  it("constant conditions: always true drops the filter, never true reads nothing", () => {
    expect(plan("SELECT user FROM clicks WHERE 1 + 1 = 2")).not.toContain("where=");
    expect(plan("SELECT user FROM clicks WHERE 1 = 0 AND user = 'x'")).toMatch(/Values\(tuples=\[\]/);
  });

  it("a join's one-sided conditions filter that side before the join", () => {
    const p = plan("SELECT * FROM clicks JOIN users ON user = name WHERE region = 'EU' AND n > 3");
    const lines = p.split("\n");
    const join = lines.findIndex((l) => l.includes("Join("));
    expect(lines[join]).toMatch(/where=\[=\(user, name\)\]/);
    expect(lines.slice(join + 1).some((l) => l.includes("where=[n > 3]"))).toBe(true);
    expect(lines.slice(join + 1).some((l) => l.includes("where=[region = 'EU']"))).toBe(true);
  });

  it("the preserved side of an outer join is not filtered by its ON condition", () => {
    const p = plan("SELECT * FROM clicks LEFT JOIN users ON user = name AND n > 3 AND region = 'EU'");
    expect(p).toMatch(/LeftOuterJoin\], where=\[AND\(=\(user, name\), n > 3\)\]/);
    expect(p).toContain("where=[region = 'EU']");
  });
});

describe("WITH", () => {
  it("a common table expression sees the ones before it, not itself", () => {
    expect(session().explainSql("WITH a AS (SELECT user FROM clicks), b AS (SELECT user FROM a) SELECT * FROM b")).toContain("DataStreamScan");
    expect(() => session().explainSql("WITH a AS (SELECT * FROM a) SELECT * FROM a")).toThrow(/Object 'a' not found/);
  });
});
