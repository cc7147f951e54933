import { describe, expect, it } from "vitest";
import { lingeringIds, parseTransactionalId, transactionalId } from "./kafka-transactional-ids.ts";

describe("Kafka transactional ids", () => {
  it("round-trip, and an id of another prefix (even one that starts with this one) is not this sink's", () => {
    expect(transactionalId("job-a", 3, 12)).toBe("job-a-3-12");
    expect(parseTransactionalId("job-a", "job-a-3-12")).toEqual({ subtask: 3, n: 12 });
    expect(parseTransactionalId("job-a", "job-a-1-3-12")).toBeUndefined();
    expect(parseTransactionalId("job-a-1", "job-a-3-12")).toBeUndefined();
    expect(parseTransactionalId("job", "jobs-0-1")).toBeUndefined();
    expect(parseTransactionalId("job", "job-0-x")).toBeUndefined();
  });

  it("lingering: this prefix, old subtasks in this subtask's care (modulo the parallelism), not the restored ones", () => {
    const ongoing = ["p-0-4", "p-1-4", "p-2-4", "p-3-9", "p-0-2", "q-0-1", "p-x-0"];
    expect(lingeringIds("p", 0, 2, ongoing, new Set(["p-0-2"]))).toEqual(["p-0-4", "p-2-4"]);
    expect(lingeringIds("p", 1, 2, ongoing, new Set())).toEqual(["p-1-4", "p-3-9"]);
    // every listed id of the prefix is aborted by exactly one subtask
    const all = [0, 1, 2].flatMap((s) => lingeringIds("p", s, 3, ongoing, new Set()));
    expect(all.sort()).toEqual(["p-0-2", "p-0-4", "p-1-4", "p-2-4", "p-3-9"]);
  });
});
