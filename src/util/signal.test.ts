import { describe, expect, it } from "vitest";
import { Signal } from "./signal.ts";

describe("Signal", () => {
  it("wakes a waiter", async () => {
    const s = new Signal();
    let woke = false;
    const w = s.wait().then(() => (woke = true));
    await Promise.resolve();
    expect(woke).toBe(false);
    s.notify();
    await w;
    expect(woke).toBe(true);
  });

  it("remembers a notify that came before the wait (no lost wake-up)", async () => {
    const s = new Signal();
    s.notify();
    let woke = false;
    void s.wait().then(() => (woke = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(woke).toBe(true);
    let again = false;
    void s.wait().then(() => (again = true));
    await Promise.resolve();
    expect(again).toBe(false);
  });
});
