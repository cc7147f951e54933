/**
 * A chain whose members feed several consumers (a tree): every branch gets every
 * record; without object reuse each branch has its own record (a branch that
 * mutates it changes nothing for the others, whether they are chained or behind
 * an edge); with object reuse the branches share one object; the operators'
 * record counters follow the tree.
 */
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import { MetricRegistry } from "../../metrics/metric-registry.ts";
import { TaskMetrics } from "./task-metrics.ts";
import type { JobGraph, JobVertex } from "../../graph/job-graph.ts";

interface Rec {
  n: number;
  tags: number[];
}

/** source → map (records) → three branches; `keyed` adds a fourth behind a keyBy edge of the same member. */
async function fanOut(objectReuse: boolean, keyed: boolean) {
  const env = StreamExecutionEnvironment.create({ parallelism: 2 });
  if (objectReuse) env.getConfig().enableObjectReuse();
  const records = env.fromElements(1, 2, 3, 4, 5, 6).map((n): Rec => ({ n, tags: [n] })).uid("records");
  records
    .map((r) => {
      r.tags.push(-1);
      r.n = -r.n;
      return r.n;
    })
    .uid("mutating")
    .sinkTo(collectSink("mutating"));
  records.map((r) => `${r.n}:${r.tags.join(",")}`).uid("reading").sinkTo(collectSink("reading"));
  if (keyed) records.keyBy((r) => Math.abs(r.n) % 2).map((r) => `${r.n}:${r.tags.join(",")}`).sinkTo(collectSink("keyed"));
  records.filter((r) => r.n > 0).map((r) => r.n).uid("last").sinkTo(collectSink("last"));
  const client = await env.executeAsync("fan-out");
  const graph = client.getJobGraph();
  const result = await client.getJobExecutionResult();
  const sorted = (name: string) => result.getCollected<string | number>(name).map(String).sort();
  return { graph, mutating: sorted("mutating"), reading: sorted("reading"), keyed: keyed ? sorted("keyed") : [], last: sorted("last") };
}

/** The vertex that holds the operator `uid`. */
function chainOf(graph: JobGraph, uid: string): JobVertex {
  return graph.vertices.find((v) => v.nodes.some((n) => n.uid === uid))!;
}

const plain = ["1:1", "2:2", "3:3", "4:4", "5:5", "6:6"];

describe("a chain with a fan-out", () => {
  for (const keyed of [false, true]) {
    it(`gives each branch its own copy: a branch that mutates its record changes nothing for the others${keyed ? " (and for an edge of the same output)" : ""}`, async () => {
      const r = await fanOut(false, keyed);
      // the three branches run in the chain of the map they read
      expect(chainOf(r.graph, "records").nodes.map((n) => n.uid)).toEqual(expect.arrayContaining(["records", "mutating", "reading", "last"]));
      expect(r.mutating).toEqual(["-1", "-2", "-3", "-4", "-5", "-6"]);
      expect(r.reading).toEqual(plain);
      expect(r.last).toEqual(["1", "2", "3", "4", "5", "6"]);
      expect(r.keyed).toEqual(keyed ? plain : []);
    });
  }

  it("shares one record between the branches with object reuse (the first branch's mutation is seen by the next ones)", async () => {
    const r = await fanOut(true, false);
    expect(r.mutating).toEqual(["-1", "-2", "-3", "-4", "-5", "-6"]);
    expect(r.reading).toEqual(["-1:1,-1", "-2:2,-1", "-3:3,-1", "-4:4,-1", "-5:5,-1", "-6:6,-1"]);
    expect(r.last).toEqual([]);
  });

  it("shares one record between branches that all leave records alone (isolatesInput), and copies as soon as one may change it", async () => {
    async function seen(isolating: readonly string[]): Promise<Map<string, Rec[]>> {
      const env = StreamExecutionEnvironment.create({ parallelism: 2 });
      const got = new Map<string, Rec[]>([["chained", []], ["behind-edge", []]]);
      const records = env.fromElements(1, 2, 3, 4, 5, 6).map((n): Rec => ({ n, tags: [n] })).uid("records");
      records.map((r) => (got.get("chained")!.push(r), r.n)).uid("chained").sinkTo(collectSink("chained"));
      records.keyBy((r) => r.n % 2).map((r) => (got.get("behind-edge")!.push(r), r.n)).uid("behind-edge").sinkTo(collectSink("behind-edge"));
      for (const n of env.graph.nodes) if (isolating.includes(n.uid)) n.isolatesInput = true;
      await env.execute("isolating");
      for (const list of got.values()) list.sort((a, b) => a.n - b.n);
      return got;
    }
    const both = await seen(["chained", "behind-edge"]);
    expect(both.get("chained")!.map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6]);
    both.get("chained")!.forEach((r, i) => expect(r).toBe(both.get("behind-edge")![i]));
    for (const one of [["chained"], ["behind-edge"]]) {
      const got = await seen(one);
      got.get("chained")!.forEach((r, i) => {
        expect(r).toEqual(got.get("behind-edge")![i]);
        expect(r, `only ${one[0]} leaves records alone`).not.toBe(got.get("behind-edge")![i]);
      });
    }
  });

  it("counts each operator's input from the operator it is chained to, and the task's output over every member that emits out of it", async () => {
    const r = await fanOut(false, true);
    const vertex = chainOf(r.graph, "records");
    const metrics = new TaskMetrics({ taskId: `${vertex.id}#0`, vertex, subtaskIndex: 0, ordinal: 0, worker: 0 }, { registry: new MetricRegistry(), jobId: "j", jobName: "fan-out", taskManagerId: "in-process" }, () => 0);
    const at = (uid: string) => metrics.operators[vertex.nodes.findIndex((n) => n.uid === uid)]!;
    expect(metrics.outputsCountedApart).toBe(true);
    expect(at("mutating").numRecordsIn).toBe(at("records").numRecordsOut);
    expect(at("reading").numRecordsIn).toBe(at("records").numRecordsOut);
    expect(at("records").numRecordsIn).toBe(metrics.numRecordsIn); // the head
    const filter = metrics.operators[vertex.nodes.findIndex((n) => n.type === "filter")]!;
    expect(filter.numRecordsIn).toBe(at("records").numRecordsOut);
    expect(at("last").numRecordsIn).toBe(filter.numRecordsOut);
    for (const op of metrics.operators) expect(op.numRecordsOut).not.toBe(metrics.numRecordsOut);
  });
});
