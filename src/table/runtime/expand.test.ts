import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import { formatChangelog } from "../data/changelog.ts";
import { Row } from "../data/row.ts";
import { expand, expandId, type ExpandSpec } from "./expand.ts";

async function runExpand(input: readonly Row[], spec: ExpandSpec): Promise<Row[]> {
  const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
  expand(env.fromCollection(input), spec, { uid: "expand", name: "Expand" }).sinkTo(collectSink("out"));
  return (await env.execute("expand")).getCollected<Row>("out");
}

describe("expand for GROUPING SETS / ROLLUP / CUBE", () => {
  it("ROLLUP (supplier, product): one copy per grouping set with the rolled-up keys NULL and $e, kinds kept", async () => {
    const input = [Row.of("s1", "p1", 10), Row.ofKind("-U", "s1", "p1", 10), Row.ofKind("+U", "s1", null, 12)];
    const out = await runExpand(input, { groupingSets: [[0, 1], [0], []], groupKeys: [0, 1] });
    expect(formatChangelog(out)).toBe(
      [
        "+I[s1, p1, 10, 0]",
        "+I[s1, null, 10, 1]",
        "+I[null, null, 10, 3]",
        "-U[s1, p1, 10, 0]",
        "-U[s1, null, 10, 1]",
        "-U[null, null, 10, 3]",
        // a NULL of the data (product) and a rolled-up product differ by $e
        "+U[s1, null, 12, 0]",
        "+U[s1, null, 12, 1]",
        "+U[null, null, 12, 3]",
      ].join("\n"),
    );
  });

  it("CUBE over keys that are not the leading fields", async () => {
    const out = await runExpand([Row.of(1, "a", "b")], { groupingSets: [[1, 2], [1], [2], []], groupKeys: [1, 2] });
    expect(formatChangelog(out)).toBe(["+I[1, a, b, 0]", "+I[1, a, null, 1]", "+I[1, null, b, 2]", "+I[1, null, null, 3]"].join("\n"));
  });

  it("the expand id has a bit per group key, the first key the most significant", () => {
    expect(expandId([4, 2, 7], [4, 2, 7])).toBe(0);
    expect(expandId([4, 2, 7], [2])).toBe(5);
    expect(expandId([4, 2, 7], [])).toBe(7);
  });
});
