import { describe, expect, it } from "vitest";
import { HaKeys } from "./ha-keys.ts";

describe("HaKeys", () => {
  const keys = new HaKeys("prod-1");
  const job = "0123456789abcdef0123456789abcdef";

  it("puts every key of a cluster under /weir/<cluster-id>/", () => {
    expect(keys.leader("jobmanager")).toBe("/weir/prod-1/leader/jobmanager");
    expect(keys.jobGraph(job)).toBe(`/weir/prod-1/jobgraphs/${job}`);
    expect(keys.checkpointCounter(job)).toBe(`/weir/prod-1/jobs/${job}/checkpoint-counter`);
    expect(keys.checkpoint(job, 7)).toBe(`/weir/prod-1/jobs/${job}/checkpoints/0000000000000007`);
    for (const k of [keys.jobGraph(job), keys.checkpoint(job, 1)]) expect(k.startsWith(keys.root)).toBe(true);
    expect(keys.checkpoint(job, 1).startsWith(keys.checkpoints(job))).toBe(true);
  });

  it("orders checkpoint keys as their ids, up to the largest safe integer", () => {
    const ids = [1, 9, 10, 99, 100, 123_456_789, Number.MAX_SAFE_INTEGER];
    const sorted = ids.map((id) => keys.checkpoint(job, id)).sort();
    expect(sorted).toEqual(ids.map((id) => keys.checkpoint(job, id)));
  });

  it("refuses names that would leave their segment, and ids that are no checkpoint ids", () => {
    expect(() => new HaKeys("a/b")).toThrow("a cluster id in etcd keys is letters, digits, '.', '_' or '-', not 'a/b'");
    expect(() => keys.leader("")).toThrow(/component/);
    expect(() => keys.jobGraph("../x")).toThrow(/job id/);
    expect(() => keys.checkpoint(job, 0)).toThrow("a checkpoint id is a whole number ≥ 1, not 0");
    expect(() => keys.checkpoint(job, 1.5)).toThrow(RangeError);
  });
});
