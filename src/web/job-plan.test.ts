import { describe, expect, it } from "vitest";
import { layoutGraph } from "./graph-layout.ts";
import { descriptionLines, jobPlan, splitChangelogMode } from "./job-plan.ts";
import type { JobDetails } from "./rest-types.ts";

const A = "a".repeat(32);
const B = "b".repeat(32);
const details: JobDetails = {
  jid: "f".repeat(32),
  name: "job",
  state: "RUNNING",
  "start-time": 1,
  vertices: [
    { id: A, name: "Source: numbers -> Map", parallelism: 2 },
    { id: B, name: "GroupAggregate -> Sink: out", parallelism: 1 },
  ],
  plan: {
    nodes: [
      { id: A, description: "Source: numbers<br/>+- Map" },
      { id: B, description: "GroupAggregate(groupBy=[k]) &lt;changelog: [I,UB,UA]&gt;<br/>+- Sink: out", inputs: [{ id: A, ship_strategy: "HASH" }] },
    ],
  },
};

describe("the job graph as drawn", () => {
  it("has a box per vertex with the plan's operators (entities decoded, tags dropped), and an arrow per input", () => {
    const { vertices, arrows } = jobPlan(details);
    expect(vertices.map((v) => v.operators)).toEqual([
      ["Source: numbers", "+- Map"],
      ["GroupAggregate(groupBy=[k]) <changelog: [I,UB,UA]>", "+- Sink: out"],
    ]);
    expect(vertices.map((v) => v.hasOutputs)).toEqual([true, false]);
    expect(arrows).toEqual([{ from: A, to: B, label: "HASH" }]);
  });

  it("falls back to the chained vertex name without a plan description, and reads a plan sent as a JSON string", () => {
    const { vertices, arrows } = jobPlan({ ...details, plan: JSON.stringify({ nodes: [{ id: B, inputs: [{ id: A, ship_strategy: "FORWARD" }] }] }) });
    expect(vertices[0]!.operators).toEqual(["Source: numbers", "Map"]);
    expect(arrows[0]!.label).toBe("FORWARD");
  });

  it("keeps lines of plain text from a description", () => {
    expect(descriptionLines("a<br>b <b>c</b>\n\n<br/>d &amp; e")).toEqual(["a", "b c", "d & e"]);
  });

  it("lays 30 boxes out left to right without overlaps, every arrow routed", () => {
    const boxes = Array.from({ length: 30 }, (_, i) => ({ id: `v${i}`, width: 300, height: 120 }));
    const arrows = Array.from({ length: 25 }, (_, i) => ({ from: `v${i}`, to: `v${i + 5}`, label: "HASH" }));
    const layout = layoutGraph(boxes, [...arrows, { from: "v0", to: "unknown", label: "" }]);
    expect(layout.nodes).toHaveLength(30);
    expect(layout.edges).toHaveLength(25);
    for (const e of layout.edges) expect(e.points.length).toBeGreaterThanOrEqual(2);
    const v0 = layout.nodes.find((n) => n.id === "v0")!;
    const v5 = layout.nodes.find((n) => n.id === "v5")!;
    expect(v5.x).toBeGreaterThan(v0.x + v0.width);
    for (const a of layout.nodes)
      for (const b of layout.nodes)
        if (a !== b) expect(a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y).toBe(true);
    expect(Math.max(...layout.nodes.map((n) => n.x + n.width))).toBeLessThanOrEqual(layout.width);
  });
});

describe("a SQL operator's changelog mode", () => {
  it("is split from its description, and other lines are left whole", () => {
    expect(splitChangelogMode("GroupAggregate(groupBy=[k], select=[k, COUNT(*) AS c]), changelogMode=[I,UB,UA]")).toEqual({ operator: "GroupAggregate(groupBy=[k], select=[k, COUNT(*) AS c])", mode: "I,UB,UA" });
    expect(splitChangelogMode("Source: numbers")).toEqual({ operator: "Source: numbers" });
  });
});
