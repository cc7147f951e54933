import { describe, expect, it } from "vitest";
import { splitStatements } from "./statement-splitter.ts";

describe("splitStatements", () => {
  it("splits at ';' outside quotes, quoted identifiers and comments, with each statement's place", () => {
    const sql = "-- a comment; not a statement\nSET 'a' = 'x;''y';\n  SELECT `b;c`, \"d;\" /* ; */ FROM t;\nSELECT\n  1";
    const { statements, rest, restHasContent } = splitStatements(sql);
    expect(statements.map((s) => [s.text, s.line, s.column])).toEqual([
      ["SET 'a' = 'x;''y'", 2, 1],
      ['SELECT `b;c`, "d;" /* ; */ FROM t', 3, 3],
    ]);
    expect(statements[1]!.offset).toBe(sql.indexOf("SELECT `"));
    expect(restHasContent).toBe(true);
    expect([rest.text, rest.line, rest.column]).toEqual(["SELECT\n  1", 4, 1]);
  });

  it("drops empty statements and sees blanks and comments after the last ';' as no content", () => {
    const { statements, restHasContent } = splitStatements(";;SHOW TABLES; ; -- done\n/* end */ ");
    expect(statements.map((s) => s.text)).toEqual(["SHOW TABLES"]);
    expect(restHasContent).toBe(false);
  });

  it("keeps EXECUTE STATEMENT SET BEGIN … END together, ';'s between its INSERTs included", () => {
    const sql = "execute statement set begin\n  INSERT INTO a SELECT 1;\n  INSERT INTO b SELECT 'end;';\nEND;\nSHOW TABLES;";
    expect(splitStatements(sql).statements.map((s) => s.text)).toEqual([
      "execute statement set begin\n  INSERT INTO a SELECT 1;\n  INSERT INTO b SELECT 'end;';\nEND",
      "SHOW TABLES",
    ]);
    expect(splitStatements("EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1;").restHasContent).toBe(true);
  });

  it("an unterminated quote or comment keeps the statement open", () => {
    expect(splitStatements("SET 'a' = 'x;").statements).toEqual([]);
    expect(splitStatements("SELECT 1 /* ; ").restHasContent).toBe(true);
  });
});
