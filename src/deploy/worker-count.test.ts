import { describe, expect, it } from "vitest";
import { workerCount } from "./worker-count.ts";

/** A plan that spreads `subtasks` subtasks over the workers, one per worker. */
const spread = (subtasks: number) => (w: number) => Math.min(w, subtasks);

describe("workerCount", () => {
  it("keeps a count that fits", () => {
    expect(workerCount(2, spread(6), 6, 2)).toEqual({ workers: 2 });
    expect(workerCount(0, spread(6), 6, 2)).toEqual({ workers: 0 });
  });

  it("caps at the number of subtasks", () => {
    expect(workerCount(64, spread(1), 1, 2)).toEqual({ workers: 1, note: "--workers 64 capped at 1: the job has 1 subtask" });
    expect(workerCount(3, spread(2), 2, 8).workers).toBe(2);
  });

  it("caps at the workers the plan keeps busy", () => {
    // two vertices of parallelism 2 joined by a forward edge: 4 subtasks on 2 workers
    expect(workerCount(4, (w) => Math.min(w, 2), 4, 4)).toEqual({
      workers: 2,
      note: "--workers 4 capped at 2: the job's 4 subtasks keep only 2 workers busy (forward edges keep a pipeline on one worker)",
    });
  });

  it("caps at two workers per core", () => {
    expect(workerCount(64, spread(100), 100, 2)).toEqual({ workers: 4, note: "--workers 64 capped at 4: 2 per CPU core on 2 cores" });
  });
});
