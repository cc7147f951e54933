import { describe, expect, it } from "vitest";
import { checkpointsToDelete } from "./retention.ts";

const done = (id: number) => ({ id, complete: true });
const partial = (id: number) => ({ id, complete: false });

describe("checkpointsToDelete", () => {
  it("keeps the newest N completed checkpoints", () => {
    expect(checkpointsToDelete([done(1), done(2), done(3), done(4)], 2)).toEqual([1, 2]);
    expect(checkpointsToDelete([done(4), done(1), done(3)], 1)).toEqual([1, 3]);
    expect(checkpointsToDelete([done(1), done(2)], 5)).toEqual([]);
  });

  it("deletes partial checkpoints older than the newest completed one, keeps newer ones (in flight)", () => {
    expect(checkpointsToDelete([partial(1), done(2), partial(3), done(4), partial(5)], 3)).toEqual([1, 3]);
  });

  it("deletes nothing when nothing completed", () => {
    expect(checkpointsToDelete([partial(1), partial(2)], 1)).toEqual([]);
  });

  it("always keeps at least the newest completed checkpoint", () => {
    expect(checkpointsToDelete([done(1), done(2)], 0)).toEqual([1]);
  });
});
