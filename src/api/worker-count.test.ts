import { describe, expect, it } from "vitest";
import { workerCount } from "./worker-count.ts";

describe("workerCount", () => {
  it("keeps a count that fits", () => {
    expect(workerCount(2, 6, 2)).toEqual({ workers: 2 });
    expect(workerCount(0, 6, 2)).toEqual({ workers: 0 });
  });

  it("caps at the number of subtasks", () => {
    expect(workerCount(64, 1, 2)).toEqual({ workers: 1, note: "--workers 64 capped at 1: the job has 1 subtask" });
    expect(workerCount(3, 2, 8).workers).toBe(2);
  });

  it("caps at two workers per core", () => {
    expect(workerCount(64, 100, 2)).toEqual({ workers: 4, note: "--workers 64 capped at 4: 2 per CPU core on 2 cores" });
  });
});
