import { describe, expect, it } from "vitest";
import { clientCommand } from "./client-command.ts";

describe("clientCommand", () => {
  it("recognises the client's own commands in any case and spacing; SQL is left to the table environment", () => {
    expect(clientCommand(" help ")).toEqual({ kind: "help" });
    expect(clientCommand("Exit")).toEqual({ kind: "quit" });
    expect(clientCommand("QUIT")).toEqual({ kind: "quit" });
    expect(clientCommand("show\n  jobs")).toEqual({ kind: "showJobs" });
    expect(clientCommand("STOP JOB 'ab-12'")).toEqual({ kind: "stopJob", jobId: "ab-12", savepoint: false, drain: false });
    expect(clientCommand("stop job 'ab' with savepoint")).toEqual({ kind: "stopJob", jobId: "ab", savepoint: true, drain: false });
    expect(clientCommand("begin  statement set")).toEqual({ kind: "beginStatementSet" });
    expect(clientCommand("END")).toEqual({ kind: "endStatementSet" });
    expect(clientCommand("SHOW TABLES")).toBeUndefined();
    expect(clientCommand("SELECT 'help'")).toBeUndefined();
  });
});
