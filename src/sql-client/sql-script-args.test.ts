import { describe, expect, it } from "vitest";
import { decodeScriptArgs, encodeScriptArgs, scriptJobName, type ScriptArg } from "./sql-script-args.ts";

describe("the arguments of the SQL script job", () => {
  it("decode what they encode: files, statements, and a file's statements with its name", () => {
    const scripts: ScriptArg[] = [
      { kind: "file", path: "/abs/init.sql" },
      { kind: "text", text: "SET 'a' = 'b';" },
      { kind: "text", text: "SELECT 1;", file: "job.sql" },
    ];
    expect(encodeScriptArgs(scripts)).toEqual(["--file", "/abs/init.sql", "--text", "SET 'a' = 'b';", "--file-text", "job.sql", "SELECT 1;"]);
    expect(decodeScriptArgs(encodeScriptArgs(scripts))).toEqual(scripts);
  });

  it("name the job after the main script's file, wherever its text comes from; statements of -e after their digest", () => {
    expect(scriptJobName([{ kind: "file", path: "/abs/orders.sql" }])).toBe("orders");
    expect(scriptJobName([{ kind: "text", text: "SELECT 1;", file: "orders.sql" }])).toBe("orders");
    expect(scriptJobName([{ kind: "file", path: "/abs/orders.sql" }, { kind: "text", text: "SELECT 1;" }])).toMatch(/^sql-[0-9a-f]{8}$/);
  });
});
