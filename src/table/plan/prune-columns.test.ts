import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { Schema } from "../api/schema.ts";
import { StreamTableEnvironment } from "../api/table-environment.ts";

/** `clicks(user, url, n, ts)` and `users(name, region, ts)`, both with a rowtime `ts`. */
function session(): { env: StreamExecutionEnvironment; tEnv: StreamTableEnvironment } {
  const env = StreamExecutionEnvironment.create({ parallelism: 1 });
  const tEnv = StreamTableEnvironment.create(env);
  const schema = (...cols: [string, string][]) => {
    const b = Schema.newBuilder();
    for (const [name, type] of cols) b.column(name, type);
    return b.watermark("ts", "ts - INTERVAL '1' SECOND").build();
  };
  tEnv.createTemporaryView("clicks", env.fromCollection<object>([]), schema(["user", "STRING"], ["url", "STRING"], ["n", "BIGINT"], ["ts", "TIMESTAMP(3)"]));
  tEnv.createTemporaryView("users", env.fromCollection<object>([]), schema(["name", "STRING"], ["region", "STRING"], ["ts", "TIMESTAMP(3)"]));
  return { env, tEnv };
}

/** The lines of a plan that describe the inputs of its first join (the lines right under it). */
function joinInputs(plan: string): string[] {
  const lines = plan.split("\n");
  const j = lines.findIndex((l) => /Join\(/.test(l));
  const depth = lines[j]!.search(/[A-Z]/);
  return lines.slice(j + 1).filter((l) => l.search(/[A-Z]/) === depth + 3);
}

describe("column pruning: a stateful operator's input carries only what something reads", () => {
  it("a join over subqueries: the fields nothing above reads are NULL in the projections under it", () => {
    const { tEnv } = session();
    const plan = tEnv.explainSql("SELECT c.user, u.region FROM (SELECT user, url, n * 2 AS n2, ts FROM clicks) c JOIN (SELECT name, region, ts FROM users) u ON c.user = u.name WHERE c.n2 > 4");
    // n2 is read by the filter under the join, not by the join or above: the projection under the filter computes
    // it, the one over the filter (the join's input, one operator with the filter) leaves it NULL
    expect(plan).toContain("Calc(select=[user, null AS url, n * 2 AS n2, null AS ts])");
    expect(joinInputs(plan)).toEqual([
      expect.stringContaining("Calc(select=[user, null AS url, null AS n2, null AS ts])"),
      expect.stringContaining("Calc(select=[name, region, null AS ts])"),
    ]);
  });

  it("a join over tables gets a projection of what is read (a source need not leave the other columns NULL)", () => {
    const { tEnv } = session();
    const plan = tEnv.explainSql("SELECT c.url FROM clicks c JOIN users u ON c.user = u.name");
    expect(joinInputs(plan)).toEqual([
      expect.stringContaining("Calc(select=[user, url, null AS n, null AS ts])"),
      expect.stringContaining("Calc(select=[name, null AS region, null AS ts])"),
    ]);
  });

  it("SELECT * above a join reads every field: nothing is pruned", () => {
    const { tEnv } = session();
    const plan = tEnv.explainSql("SELECT * FROM (SELECT user, url, ts FROM clicks) c JOIN (SELECT name, region FROM users) u ON c.user = u.name");
    expect(plan).not.toContain("null AS");
  });

  it("an interval join keeps the time attributes it reads even when nothing above reads them", () => {
    const { tEnv } = session();
    const plan = tEnv.explainSql("SELECT c.url FROM clicks c, users u WHERE c.user = u.name AND u.ts BETWEEN c.ts - INTERVAL '1' SECOND AND c.ts");
    expect(plan).toContain("IntervalJoin(");
    expect(joinInputs(plan)).toEqual([
      expect.stringContaining("Calc(select=[user, url, null AS n, ts])"),
      expect.stringContaining("Calc(select=[name, null AS region, ts])"),
    ]);
  });

  it("a sub-plan that two consumers share keeps the fields either reads, and stays shared", () => {
    const { tEnv } = session();
    tEnv.executeSql("CREATE VIEW v AS SELECT user, url, n, ts FROM clicks WHERE n > 0");
    const plan = tEnv.explainSql("SELECT a.url, b.n FROM v a JOIN v b ON a.user = b.user");
    expect(plan).toContain("Calc(select=[user, url, n, null AS ts], reuse_id=[1])");
    expect(plan).toContain("Reused(reference_id=[1])");
  });

  it("a projection that pruning adds takes no uid: the Calc of the filter under it keeps the filter's uid (a savepoint from before pruning has no state it would orphan)", () => {
    const { env, tEnv } = session();
    tEnv.toChangelogStream(tEnv.sqlQuery("SELECT c.url FROM clicks c, users u WHERE c.user = u.name AND c.n > 1 AND u.ts BETWEEN c.ts - INTERVAL '1' SECOND AND c.ts"));
    const calc = env.graph.nodes.find((n) => n.name.includes("null AS n"));
    expect(calc?.uid).toBe("filter");
    expect(env.graph.nodes.filter((n) => /^(calc|filter)/.test(n.uid)).map((n) => n.uid).sort()).toEqual(["calc", "calc-1", "filter"]);
  });

  it("a regular join whose rows lost fields to pruning names the fields it keeps in its uid (a savepoint with other rows is refused)", () => {
    const uids = (sql: string) => {
      const { env, tEnv } = session();
      tEnv.toChangelogStream(tEnv.sqlQuery(sql));
      return env.graph.nodes.map((n) => n.uid).filter((u) => u.startsWith("join"));
    };
    const pruned = uids("SELECT c.user, c.url FROM clicks c JOIN users u ON c.user = u.name");
    expect(pruned).toHaveLength(1);
    expect(pruned[0]).toMatch(/^join-pruned-[0-9a-z]+$/);
    // other fields kept: another uid
    expect(uids("SELECT c.user, u.region FROM clicks c JOIN users u ON c.user = u.name")[0]).not.toBe(pruned[0]);
    // nothing pruned: the uid of a plan without pruning
    expect(uids("SELECT * FROM clicks c JOIN users u ON c.user = u.name")).toEqual(["join"]);
  });
});
