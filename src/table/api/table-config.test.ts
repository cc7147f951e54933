import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { TableConfig } from "./table-config.ts";
import { StreamTableEnvironment } from "./table-environment.ts";

function session(): StreamTableEnvironment {
  return StreamTableEnvironment.create(StreamExecutionEnvironment.create({ parallelism: 1 }));
}

async function printed(tEnv: StreamTableEnvironment, sql: string): Promise<string[]> {
  const lines: string[] = [];
  await tEnv.executeSql(sql).print((l) => lines.push(l));
  return lines;
}

describe("SET keys", () => {
  it("a misspelt known key is refused at the key's place, naming the key meant; nothing is set", () => {
    const tEnv = session();
    let error: unknown;
    try {
      tEnv.executeSql("SET  'execution.checkpointing.intervall' = '1 s'");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SqlValidationError);
    expect((error as SqlValidationError).message).toBe(
      "line 1, column 6: Unknown configuration key 'execution.checkpointing.intervall'. Did you mean 'execution.checkpointing.interval'?",
    );
    expect(tEnv.getConfig().entries()).toEqual([]);
    expect(() => new TableConfig().set("Parallelism.Default", "2")).toThrow("Did you mean 'parallelism.default'?");
    expect(() => new TableConfig().set("execution.checkpointing.inetrval", "1 s")).toThrow("Did you mean 'execution.checkpointing.interval'?");
    expect(new TableConfig().set("pipeline.jars", "file:///a.jar").get("pipeline.jars")).toBe("file:///a.jar"); // Flink's key, 3 letters from pipeline.name
  });

  it("a key unlike any Weir reads is kept, as in Flink, with a warning that it changes nothing", async () => {
    const tEnv = session();
    expect(await printed(tEnv, "SET 'table.exec.sink.not-null-enforcer' = 'DROP'")).toEqual([
      "[WARNING] Weir does not read 'table.exec.sink.not-null-enforcer': it is kept (SET lists it) but changes nothing (the keys Weir reads are listed under Configuration in docs/sql.md).",
      "[INFO] Execute statement succeeded.",
    ]);
    expect(tEnv.getConfig().get("table.exec.sink.not-null-enforcer")).toBe("DROP");
    expect(await printed(tEnv, "SET 'execution.checkpointing.interval' = '1 s'")).toEqual(["[INFO] Execute statement succeeded."]);
    expect(new TableConfig().get("toString")).toBe("");
  });
});
