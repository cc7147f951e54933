import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { Schema } from "../api/schema.ts";
import { StreamTableEnvironment } from "../api/table-environment.ts";

/** `L(num, id)` and `R(num, id, n2)`: `num` and `id` in both. */
function session(): StreamTableEnvironment {
  const env = StreamExecutionEnvironment.create({ parallelism: 1 });
  const tEnv = StreamTableEnvironment.create(env);
  tEnv.createTemporaryView("L", env.fromCollection<object>([]), Schema.newBuilder().column("num", "INT").column("id", "STRING").build());
  tEnv.createTemporaryView("R", env.fromCollection<object>([]), Schema.newBuilder().column("num", "INT").column("id", "STRING").column("n2", "INT").build());
  return tEnv;
}

describe("a correlated IN subquery selects its own column", () => {
  it("an unqualified column the outer row has too is the subquery's (Flink's window join page: L.num IN (SELECT num FROM … R WHERE …))", () => {
    const plan = session().explainSql("SELECT * FROM L WHERE L.num IN (SELECT num FROM (SELECT * FROM R) R WHERE L.id = R.id)");
    expect(plan).toContain("Join(joinType=[LeftSemiJoin], where=[AND(=(num, $#in), =(id, id))]");
    // the subquery's row keeps its `num` as the hidden `$#in`; what the semi join does not read is pruned (NULL)
    expect(plan).toContain("Calc(select=[null AS num, id, null AS n2, num AS $#in])");
  });

  it("a column only the subquery has needs no hidden column", () => {
    const plan = session().explainSql("SELECT * FROM L WHERE L.num IN (SELECT n2 FROM R WHERE L.id = R.id)");
    expect(plan).toContain("Join(joinType=[LeftSemiJoin], where=[AND(=(num, n2), =(id, id))]");
    expect(plan).not.toContain("$#in");
  });
});
