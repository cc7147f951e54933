/**
 * `weir sql` at a terminal (a pty): DDL, a query in each result mode, Ctrl-C
 * cancelling a running query without ending the session, located errors,
 * HELP, history, INSERT jobs in the background with SHOW JOBS, STOP JOB WITH
 * SAVEPOINT and a new INSERT resumed from `execution.savepoint.path`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { waitFor } from "../support/cli-process.ts";
import { startPtyCli } from "../support/pty-cli.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const tempDir = tempDirs("weir-sql-client-");

const CLICKS = [
  { user: "Mary", url: "./home" },
  { user: "Bob", url: "./cart" },
  { user: "Mary", url: "./prod?id=1" },
];

function writeClicks(dir: string, file: string, rows: readonly { user: string; url: string }[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
}

/** The lines of every committed part file under `dir` (hidden in-progress files skipped). */
function committedLines(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => !f.startsWith(".") && !f.startsWith("_"))
    .flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n").filter((l) => l.length > 0));
}

describe("weir sql, interactive", () => {
  it("runs DDL and queries in the table, changelog and tableau modes; Ctrl-C cancels a running query; errors are located; Ctrl-D exits", async () => {
    const dir = tempDir();
    writeClicks(join(dir, "clicks"), "part-0", CLICKS);
    writeClicks(join(dir, "stream"), "part-0", CLICKS);
    const history = join(dir, "history");
    const cli = startPtyCli(["sql"], dir, { WEIR_SQL_HISTORY: history });
    try {
      let at = (await cli.expect("weir> ")).end;
      cli.type("CREATE TABLE clicks (`user` STRING, url STRING)\n");
      at = (await cli.expect("   -> ", at)).end;
      cli.type("WITH ('connector' = 'filesystem', 'path' = 'clicks/', 'format' = 'json');\n");
      at = (await cli.expect("[INFO] Execute statement succeeded.", at)).end;

      cli.type("SET 'sql-client.execution.result-mode' = 'tableau';\n");
      at = (await cli.expect("[INFO] Execute statement succeeded.", at)).end;
      cli.type("SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`;\n");
      const tableau = await cli.expect("4 rows in set", at);
      expect(tableau.text).toMatch(/\| op \|\s+user \|\s+cnt \|/);
      expect(tableau.text).toMatch(/\| \+I \|\s+Mary \|\s+1 \|\n\| \+I \|\s+Bob \|\s+1 \|\n\| -U \|\s+Mary \|\s+1 \|\n\| \+U \|\s+Mary \|\s+2 \|/);
      at = tableau.end;

      cli.type("SET 'sql-client.execution.result-mode' = 'changelog';\n");
      at = (await cli.expect("[INFO] Execute statement succeeded.", at)).end;
      cli.type("SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`;\n");
      const changelog = await cli.expect("Received a total of 4 changes", at);
      expect(changelog.text).toContain("+I[Mary, 1]\n+I[Bob, 1]\n-U[Mary, 1]\n+U[Mary, 2]\n");
      at = changelog.end;

      cli.type("SET 'sql-client.execution.result-mode' = 'table';\n");
      at = (await cli.expect("[INFO] Execute statement succeeded.", at)).end;
      cli.type("SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`;\n");
      const table = await cli.expect("Query finished: showing rows 1-2 of 2, 4 changes", at);
      const finalDrawing = table.text.slice(table.text.lastIndexOf("|                           user |"));
      expect(finalDrawing).toMatch(/\|\s+Bob \|\s+1 \|\n\|\s+Mary \|\s+2 \|/);
      at = table.end;

      // a client-side statement set: the INSERTs up to END run as one background job
      cli.type("CREATE TABLE shown (`user` STRING, url STRING) WITH ('connector' = 'print', 'print-identifier' = 'out');\n");
      at = (await cli.expect("[INFO] Execute statement succeeded.", at)).end;
      cli.type("BEGIN STATEMENT SET;\n");
      at = (await cli.expect("[INFO] Begin a statement set.", at)).end;
      cli.type("INSERT INTO shown SELECT `user`, url FROM clicks WHERE `user` = 'Bob';\n");
      at = (await cli.expect("[INFO] Add SQL update statement to the statement set.", at)).end;
      cli.type("INSERT INTO shown SELECT `user`, 'again' FROM clicks WHERE `user` = 'Bob';\n");
      at = (await cli.expect("[INFO] Add SQL update statement to the statement set.", at)).end;
      cli.type("END;\n");
      const set = await cli.expect(/Job ID: [0-9a-f-]+\n[\s\S]*\(insert-into_default_catalog.default_database.shown,default_catalog.default_database.shown\) finished\./, at);
      expect(set.text).toContain("out> +I[Bob, ./cart]");
      expect(set.text).toContain("out> +I[Bob, again]");
      at = set.end;

      // a continuous source: the query runs until Ctrl-C cancels it
      cli.type("CREATE TABLE stream (`user` STRING, url STRING) WITH ('connector' = 'filesystem', 'path' = 'stream/', 'format' = 'json', 'source.monitor-interval' = '100 ms');\n");
      at = (await cli.expect("[INFO] Execute statement succeeded.", at)).end;
      cli.type("SELECT `user`, COUNT(url) AS cnt FROM stream GROUP BY `user`;\n");
      at = (await cli.expect("Query running (Ctrl-C cancels it): showing rows 1-2 of 2, 4 changes", at)).end;
      cli.type("\x03");
      at = (await cli.expect(/Query cancelled: showing rows 1-2 of 2[^\n]*\nweir> /, at)).end;

      // the session goes on: a located error with a caret, then HELP
      cli.type("SELECT usr\n");
      at = (await cli.expect("   -> ", at)).end;
      cli.type("FROM clicks;\n");
      const error = await cli.expect(/\[ERROR\] Could not execute SQL statement. Reason:\nline 1, column 8: Column 'usr' not found in any table; did you mean 'user'\?\nSELECT usr\n {7}\^/, at);
      at = error.end;
      cli.type("SHOW TABLES;\n");
      const tables = await cli.expect("3 rows in set", at);
      expect(tables.text).toMatch(/clicks \|\n\|\s+shown \|\n\|\s+stream \|/);
      at = tables.end;
      cli.type("help;\n");
      at = (await cli.expect("SHOW JOBS", at)).end;
      // Ctrl-C at the prompt drops a half-typed statement
      cli.type("SELECT broken");
      cli.type("\x03");
      cli.type("SHOW VIEWS;\n");
      at = (await cli.expect("Empty set", at)).end;
      cli.type("\x04");
      await cli.expect("Goodbye!", at);
      const end = await cli.done;
      expect(end.code).toBe(0);
      expect(readFileSync(history, "utf8")).toContain("SELECT `user`, COUNT(url) AS cnt FROM stream GROUP BY `user`;");
    } finally {
      cli.kill();
    }
  }, 120_000);

  it("INSERT runs in the background: SHOW JOBS lists it, STOP JOB WITH SAVEPOINT prints the path, and an INSERT after SET 'execution.savepoint.path' resumes from it", async () => {
    const dir = tempDir();
    writeClicks(join(dir, "clicks"), "part-0", CLICKS);
    // a registry of its own: SHOW JOBS also lists the jobs of other weir processes of this machine
    const cli = startPtyCli(["sql", "--savepoint-dir", "savepoints"], dir, { WEIR_SQL_HISTORY: join(dir, "history"), WEIR_HOME: join(dir, "weir-home") });
    try {
      let at = (await cli.expect("weir> ")).end;
      cli.type("CREATE TABLE clicks (`user` STRING, url STRING) WITH ('connector' = 'filesystem', 'path' = 'clicks/', 'format' = 'json', 'source.monitor-interval' = '100 ms');\n");
      at = (await cli.expect("[INFO] Execute statement succeeded.", at)).end;
      cli.type("CREATE TABLE copy (`user` STRING, url STRING) WITH ('connector' = 'filesystem', 'path' = 'copy/', 'format' = 'json');\n");
      at = (await cli.expect("[INFO] Execute statement succeeded.", at)).end;
      cli.type("SET 'execution.checkpointing.interval' = '200 ms';\n");
      at = (await cli.expect("[INFO] Execute statement succeeded.", at)).end;
      cli.type("INSERT INTO copy SELECT * FROM clicks;\n");
      const submitted = await cli.expect(/\[INFO\] Submitting SQL update statement \(the job runs in this process\)...\n[^\n]*\nJob ID: ([0-9a-f-]+)\n/, at);
      const jobId = /Job ID: ([0-9a-f-]+)/.exec(submitted.text)![1]!;
      at = submitted.end;
      await waitFor("the first rows committed", () => committedLines(join(dir, "copy")).length === 3, 60_000);

      cli.type("SHOW JOBS;\n");
      const jobs = await cli.expect("1 row in set", at);
      expect(jobs.text).toMatch(new RegExp(`\\| ${jobId} \\| insert-into_default_catalog.default_database.copy \\|\\s+RUNNING \\| \\d{4}-\\d\\d-\\d\\dT`));
      at = jobs.end;

      cli.type(`STOP JOB '${jobId}' WITH SAVEPOINT;\n`);
      const stopped = await cli.expect(/Savepoint path: (\S+)\n/, at);
      const savepoint = /Savepoint path: (\S+)\n/.exec(stopped.text)![1]!;
      at = stopped.end;
      cli.type("SHOW JOBS;\n");
      at = (await cli.expect(/\|\s+STOPPED \|/, at)).end;

      // more input while no job runs; the next INSERT starts from the savepoint: each row once
      writeClicks(join(dir, "clicks"), "part-1", [{ user: "Bob", url: "./later" }]);
      cli.type(`SET 'execution.savepoint.path' = '${savepoint}';\n`);
      at = (await cli.expect("[INFO] Execute statement succeeded.", at)).end;
      cli.type("INSERT INTO copy SELECT * FROM clicks;\n");
      const second = await cli.expect(/Job ID: ([0-9a-f-]+)\n/, at);
      const secondId = /Job ID: ([0-9a-f-]+)/.exec(second.text)![1]!;
      at = second.end;
      await waitFor("the new row committed", () => committedLines(join(dir, "copy")).length >= 4, 60_000).catch((e: Error) => {
        throw new Error(`${e.message}\n${cli.screen().slice(at)}`);
      });
      cli.type(`STOP JOB '${secondId}' WITH SAVEPOINT;\n`);
      at = (await cli.expect("Savepoint path: ", at)).end;
      expect(committedLines(join(dir, "copy")).map((l) => JSON.parse(l)).sort((a, b) => a.url.localeCompare(b.url))).toEqual(
        [...CLICKS, { user: "Bob", url: "./later" }].sort((a, b) => a.url.localeCompare(b.url)),
      );

      cli.type("STOP JOB 'nope';\n");
      at = (await cli.expect("No job 'nope' in this session; SHOW JOBS lists them", at)).end;
      cli.type("QUIT;\n");
      await cli.expect("Goodbye!", at);
      expect((await cli.done).code).toBe(0);
    } finally {
      cli.kill();
    }
  }, 120_000);

  it("-i runs an init script before the session, Tab completes a table name; a failing init script ends the client with its place", async () => {
    const dir = tempDir();
    writeClicks(join(dir, "clicks"), "part-0", CLICKS);
    writeFileSync(join(dir, "init.sql"), "CREATE TABLE clicks (`user` STRING, url STRING) WITH ('connector' = 'filesystem', 'path' = 'clicks/', 'format' = 'json');\nSET 'sql-client.execution.result-mode' = 'tableau';\n");
    writeFileSync(join(dir, "bad-init.sql"), "SHOW TABLES;\nSELEC 1;\nSHOW VIEWS;\n");
    const cli = startPtyCli(["sql", "-i", "init.sql"], dir, { WEIR_SQL_HISTORY: join(dir, "history") });
    try {
      let at = (await cli.expect("weir> ")).end;
      cli.type("SELECT COUNT(*) AS n FROM cli\t"); // Tab completes the table name
      await cli.expect("FROM clicks", at);
      cli.type(";\n");
      const result = await cli.expect("rows in set", at);
      expect(result.text).toMatch(/\| \+U \|\s+3 \|/);
      at = result.end;
      cli.type("\x04");
      expect((await cli.done).code).toBe(0);
    } finally {
      cli.kill();
    }
    const bad = startPtyCli(["sql", "-i", "bad-init.sql"], dir, { WEIR_SQL_HISTORY: join(dir, "history") });
    try {
      const error = await bad.expect(/\[ERROR\] Could not execute SQL statement. Reason:\nbad-init.sql:2:1: [^\n]*\nSELEC 1;\n\^\n/);
      expect(error.text).not.toContain("weir> ");
      expect((await bad.done).code).toBe(1);
    } finally {
      bad.kill();
    }
  }, 120_000);

  it("table mode pages a result larger than the terminal with n and p while the query runs", async () => {
    const dir = tempDir();
    const rows = Array.from({ length: 40 }, (_, i) => ({ user: `user${String(i).padStart(2, "0")}`, url: `/p${i}` }));
    writeClicks(join(dir, "stream"), "part-0", rows);
    const cli = startPtyCli(["sql"], dir, { WEIR_SQL_HISTORY: join(dir, "history") });
    try {
      let at = (await cli.expect("weir> ")).end;
      cli.type("CREATE TABLE stream (`user` STRING, url STRING) WITH ('connector' = 'filesystem', 'path' = 'stream/', 'format' = 'json', 'source.monitor-interval' = '100 ms');\n");
      at = (await cli.expect("[INFO] Execute statement succeeded.", at)).end;
      cli.type("SELECT `user` FROM stream;\n");
      // a 40-line terminal shows 33 rows a page
      const first = await cli.expect("Query running (Ctrl-C cancels it): showing rows 1-33 of 40, page 1/2 (n: next page, p: previous page), 40 changes", at);
      expect(first.text).toContain("user32 |");
      at = first.end;
      cli.type("n");
      const second = await cli.expect("showing rows 34-40 of 40, page 2/2", at);
      expect(second.text.slice(second.text.lastIndexOf("|                           user |"))).toMatch(/\|\s+user33 \|[\s\S]*\|\s+user39 \|/);
      at = second.end;
      cli.type("p");
      at = (await cli.expect("showing rows 1-33 of 40, page 1/2", at)).end;
      cli.type("\x03");
      at = (await cli.expect(/Query cancelled: showing rows 1-33 of 40[^\n]*\nweir> /, at)).end;
      cli.type("\x04");
      expect((await cli.done).code).toBe(0);
    } finally {
      cli.kill();
    }
  }, 120_000);
});
