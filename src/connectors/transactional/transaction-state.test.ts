import { describe, expect, it } from "vitest";
import { caresFor, idsToCommit } from "./transaction-state.ts";
import { faultRequested } from "./fault-injection.ts";

describe("transaction state decisions", () => {
  it("commits every pending id up to the completed one, ascending", () => {
    expect(idsToCommit([5, 2, 3, 1], 3)).toEqual([1, 2, 3]);
    expect(idsToCommit([4], 3)).toEqual([]);
  });

  it("gives every old subtask exactly one caretaker", () => {
    for (const p of [1, 2, 3]) {
      for (let old = 0; old < 7; old++) {
        const caretakers = Array.from({ length: p }, (_, s) => s).filter((s) => caresFor(s, p, old));
        expect(caretakers).toEqual([old % p]);
      }
    }
  });

  it("reads the fault only from WEIR_FAULT", () => {
    expect(faultRequested("kill-before-commit", { WEIR_FAULT: "kill-before-commit" })).toBe(true);
    expect(faultRequested("kill-before-commit", {})).toBe(false);
  });
});
