import { describe, expect, it } from "vitest";
import { runInChildProcess } from "./child-process-run.ts";

const FIXTURE = new URL("./child-process-run.fixture.ts", import.meta.url).href;

describe("runInChildProcess", () => {
  it("runs the function in another process, passes its progress lines and its value back", async () => {
    const lines: string[] = [];
    const result = await runInChildProcess<{ pid: number; value: { n: number }; missing: undefined }>({ module: FIXTURE, name: "echo", args: [{ n: 42 }] }, (line) => lines.push(line));
    expect(result.value).toEqual({ n: 42 });
    expect("missing" in result && result.missing === undefined).toBe(true);
    expect(result.pid).not.toBe(process.pid);
    expect(lines).toEqual(["got 42", "done"]);
  });

  it("rejects with the name and message of the function's error", async () => {
    const failure = runInChildProcess({ module: FIXTURE, name: "fail", args: [] });
    await expect(failure).rejects.toThrow("bench run 'q5 in the child': rows 9, expected 10");
    await expect(failure).rejects.toMatchObject({ name: "BenchIntegrityError" });
  });

  it("rejects when the process ends without a value, or the module has no such function", async () => {
    await expect(runInChildProcess({ module: FIXTURE, name: "exit", args: [] })).rejects.toThrow(/exit of .*child-process-run\.fixture\.ts: its process exited with code 3 before giving a value/);
    await expect(runInChildProcess({ module: FIXTURE, name: "nothing", args: [] })).rejects.toThrow(/exports no function 'nothing'/);
  });
});
