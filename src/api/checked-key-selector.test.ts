import { describe, expect, it } from "vitest";
import { checkedKeySelector, NullKeyError } from "./checked-key-selector.ts";
import { callSite } from "../util/call-site.ts";

describe("keyBy's key selector check", () => {
  it("a null or undefined key: NullKeyError naming the selector and the record (the keyBy call site: test/cli-input-errors.test.ts)", () => {
    const byUser = checkedKeySelector((o: { user?: string | null; n: number }) => o.user);
    expect(byUser({ user: "a", n: 1 })).toBe("a");
    expect(() => byUser({ n: 2 })).toThrow(NullKeyError);
    // called from inside src/ (as here, under the test runner in node_modules) there is no user frame to name
    expect(() => byUser({ n: 2 })).toThrow(/^keyBy\(\(?o\)? ?=> ?o\.user\) returned undefined for the record \{ n: 2 \}; keys must be strings/);
    expect(() => byUser({ user: null, n: 3 })).toThrow(/returned null for the record \{ user: null, n: 3 \}/);
  });

  it("other keys pass unchanged (bad ones are refused by the key-group hashing)", () => {
    const identity = checkedKeySelector((v: unknown) => v);
    expect(identity(0)).toBe(0);
    expect(identity("")).toBe("");
    expect(identity(false)).toBe(false);
  });

  it("callSite skips frames in the library folder and Node's own", () => {
    const stack = ["Error", "    at keyBy (/lib/src/api/data-stream.ts:140:5)", "    at node:internal/x:1:1", `    at file://${process.cwd()}/jobs/orders.ts:14:6`].join("\n");
    expect(callSite("/lib/src/", stack)).toBe("jobs/orders.ts:14:6");
    expect(callSite("/lib/src/", "Error\n    at /lib/src/a.ts:1:1\n    at /app/node_modules/tsx/x.js:2:2")).toBeUndefined();
  });
});
