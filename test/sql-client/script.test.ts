/**
 * `weir sql -f job.sql` / `-e` / `-i`: a script runs as one checkpointed job
 * with the flags and behaviour of `weir run`: exit codes, located errors,
 * several INSERTs one after another, resume after a crash (SIGKILL) from the
 * latest checkpoint and from the savepoint of a stop by Ctrl-C (SIGINT), with
 * every row written exactly once.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, startCli, waitFor } from "../support/cli-process.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const tempDir = tempDirs("weir-sql-script-");

const CLICKS = [
  { user: "Mary", url: "./home", cTime: "2020-04-15 08:05:00" },
  { user: "Bob", url: "./cart", cTime: "2020-04-15 08:06:00" },
  { user: "Mary", url: "./prod?id=1", cTime: "2020-04-15 08:07:00" },
];

const DDL = `CREATE TABLE clicks (\`user\` STRING, url STRING, cTime TIMESTAMP(3),
  WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks/', 'format' = 'json');
`;

/** A directory with `clicks/part-0` and the given files. */
function project(files: Record<string, string>): string {
  const dir = tempDir();
  mkdirSync(join(dir, "clicks"));
  writeFileSync(join(dir, "clicks", "part-0"), CLICKS.map((c) => JSON.stringify(c)).join("\n") + "\n");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** The committed lines of the part files under `dir`, oldest file first (by the part counter that ends its name). */
function committedLines(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const counter = (f: string) => Number(/-(\d+)$/.exec(f)?.[1] ?? 0);
  return readdirSync(dir)
    .filter((f) => !f.startsWith(".") && !f.startsWith("_"))
    .sort((a, b) => counter(a) - counter(b))
    .flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n").filter((l) => l.length > 0));
}

/** The table a debezium-json changelog under `dir` folds to, as "key=value" sorted. */
function foldedCounts(dir: string): string[] {
  const table = new Map<string, number>();
  for (const line of committedLines(dir)) {
    const e = JSON.parse(line) as { before: { user: string } | null; after: { user: string; cnt: number } | null };
    if (e.before) table.delete(e.before.user);
    if (e.after) table.set(e.after.user, e.after.cnt);
  }
  return [...table].map(([k, v]) => `${k}=${v}`).sort();
}

describe("weir sql -f", () => {
  it("sql --help shows the options of sql; a stray argument or a missing script is a clear error", async () => {
    const help = await runCli(["sql", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Options of sql");
    expect(help.stdout).toContain("-f, --file FILE");
    const stray = await runCli(["sql", "job.sql"]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain("unexpected argument 'job.sql': give a script with -f FILE");
    const missing = await runCli(["sql", "-f", "no-such.sql"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no such SQL script: no-such.sql");
  }, 120_000);

  it("runs a script of SET, CREATE and INSERT on bounded input as one job: exit 0, the right files, the summary line", async () => {
    const dir = project({
      "job.sql": `-- clicks per user
SET 'parallelism.default' = '2';
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '1 s';
SET 'table.exec.mini-batch.size' = '1000';
${DDL}CREATE TABLE counts (\`user\` STRING, cnt BIGINT)
WITH ('connector' = 'filesystem', 'path' = 'counts/', 'format' = 'debezium-json');
INSERT INTO counts SELECT \`user\`, COUNT(url) AS cnt FROM clicks GROUP BY \`user\`;
`,
    });
    const run = await runCli(["sql", "-f", "job.sql"], 120_000, {}, { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\[INFO\] Submitting SQL update statement \(the job runs in this process\)...\nJob ID: [0-9a-f-]+\n/);
    // mini-batch: Mary's two clicks fold into one +I unless a batch ends between them
    expect(run.stderr).toMatch(/job 'job' finished in .*: 3 records in, [234] out, .*exit 0/);
    expect(foldedCounts(join(dir, "counts"))).toEqual(["Bob=1", "Mary=2"]);
    expect(existsSync(join(dir, ".weir", "checkpoints", "job"))).toBe(true); // named after the script
  }, 120_000);

  it("a syntax error: exit 1 with the script's line and column and a caret, and no job", async () => {
    const dir = project({
      "bad.sql": `${DDL}SELECT \`user\`,\n  COUNT(url) FORM clicks GROUP BY \`user\`;\n`,
    });
    const run = await runCli(["sql", "-f", "bad.sql"], 120_000, {}, { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("bad.sql:5:19: expected ';' or end of input but found 'clicks'\n  COUNT(url) FORM clicks GROUP BY `user`;\n                  ^");
    expect(run.stderr).not.toContain("finished");
  }, 120_000);

  it("a bad SET value, an unknown table and a client-only command are located errors naming the choices", async () => {
    const dir = project({ "set.sql": "SET 'sql-client.execution.result-mode' = 'grid';\n", "unknown.sql": "INSERT INTO nowhere\nSELECT 1;\n", "jobs.sql": "SHOW JOBS;\n" });
    const set = await runCli(["sql", "-f", "set.sql"], 120_000, {}, { cwd: dir });
    expect(set.code).toBe(1);
    expect(set.stderr).toContain("set.sql:1:1: Invalid value 'grid' for 'sql-client.execution.result-mode': expected table, changelog or tableau");
    const unknown = await runCli(["sql", "-f", "unknown.sql"], 120_000, {}, { cwd: dir });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/unknown\.sql:1:13: .*'nowhere'.*\nINSERT INTO nowhere\n {12}\^/);
    const jobs = await runCli(["sql", "-f", "jobs.sql"], 120_000, {}, { cwd: dir });
    expect(jobs.code).toBe(1);
    expect(jobs.stderr).toContain("jobs.sql:1:1: SHOW JOBS works in the interactive client only, not in a script");
  }, 120_000);

  it("runs several INSERTs one after another, each a job of its own (the second reads what the first wrote)", async () => {
    const dir = project({
      "two.sql": `${DDL}CREATE TABLE copy (\`user\` STRING, url STRING) WITH ('connector' = 'filesystem', 'path' = 'copy/', 'format' = 'json');
CREATE TABLE counts (\`user\` STRING, cnt BIGINT) WITH ('connector' = 'filesystem', 'path' = 'counts/', 'format' = 'debezium-json');
INSERT INTO copy SELECT \`user\`, url FROM clicks;
INSERT INTO counts SELECT \`user\`, COUNT(*) FROM copy GROUP BY \`user\`;
`,
    });
    const run = await runCli(["sql", "-f", "two.sql", "--workers", "2"], 120_000, {}, { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.match(/Job ID: /g)).toHaveLength(2);
    expect(committedLines(join(dir, "copy"))).toHaveLength(3);
    expect(foldedCounts(join(dir, "counts"))).toEqual(["Bob=1", "Mary=2"]);
    expect(readdirSync(join(dir, ".weir", "checkpoints")).sort()).toEqual(["two", "two-2"]);
  }, 120_000);

  it("-i runs an init script first; -e runs statements and prints a query's changelog in tableau form", async () => {
    const dir = project({ "init.sql": DDL, "insert.sql": "CREATE TABLE shown (`user` STRING, n BIGINT) WITH ('connector' = 'print');\nINSERT INTO shown SELECT `user`, COUNT(*) FROM clicks GROUP BY `user`;\n" });
    const withInit = await runCli(["sql", "-i", "init.sql", "-f", "insert.sql"], 120_000, {}, { cwd: dir });
    expect(withInit.code, withInit.stderr).toBe(0);
    expect(withInit.stdout).toContain("+U[Mary, 2]");
    const query = await runCli(["sql", "-i", "init.sql", "-e", "SELECT `user`, COUNT(*) AS cnt FROM clicks GROUP BY `user`; SHOW TABLES; EXPLAIN SELECT url FROM clicks"], 120_000, {}, { cwd: dir });
    expect(query.code, query.stderr).toBe(0);
    expect(query.stdout).toMatch(/\| op \|\s+user \|\s+cnt \|\n\+[-+]+\n\| \+I \|\s+Mary \|\s+1 \|\n\| \+I \|\s+Bob \|\s+1 \|\n\| -U \|\s+Mary \|\s+1 \|\n\| \+U \|\s+Mary \|\s+2 \|\n\+[-+]+\n4 rows in set\n/);
    expect(query.stdout).toMatch(/\|\s+table name \|\n\+[-+]+\n\|\s+clicks \|/);
    expect(query.stdout).toMatch(/\n== Optimized Physical Plan ==\n.*TableSourceScan\(table=\[\[default_catalog, default_database, clicks\]\]/s); // the plan as text, not in a box
    const set = await runCli(
      ["sql", "-i", "init.sql", "-e", "CREATE TABLE shown (`user` STRING, url STRING) WITH ('connector' = 'print', 'print-identifier' = 'out');\nBEGIN STATEMENT SET;\nINSERT INTO shown SELECT `user`, url FROM clicks WHERE `user` = 'Bob';\nINSERT INTO shown SELECT `user`, 'again' FROM clicks WHERE `user` = 'Bob';\nEND;"],
      120_000, {}, { cwd: dir },
    );
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout.match(/Job ID: /g)).toHaveLength(1); // one job for both INSERTs
    expect(set.stdout).toContain("out> +I[Bob, ./cart]");
    expect(set.stdout).toContain("out> +I[Bob, again]");
    const badSet = await runCli(["sql", "-i", "init.sql", "-e", "BEGIN STATEMENT SET;\nSELECT 1;\nEND;"], 120_000, {}, { cwd: dir });
    expect(badSet.code).toBe(1);
    expect(badSet.stderr).toContain("-e:2:1: Only INSERT statements can be added to a statement set, not QUERY; END; runs the set");
    const bad = await runCli(["sql", "-e", "SELEC 1"], 120_000, {}, { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("-e:1:1:");
  }, 120_000);

  it("a statement set resumes after a crash from the latest checkpoint, and after Ctrl-C from its savepoint with --from-savepoint: every row once, counts equal the batch result", async () => {
    const dir = project({
      "copy.sql": `SET 'execution.checkpointing.interval' = '200 ms';
CREATE TABLE clicks (\`user\` STRING, url STRING) WITH ('connector' = 'filesystem', 'path' = 'clicks/', 'format' = 'json', 'source.monitor-interval' = '100 ms');
CREATE TABLE copy (\`user\` STRING, url STRING) WITH ('connector' = 'filesystem', 'path' = 'copy/', 'format' = 'json');
CREATE TABLE counts (\`user\` STRING, cnt BIGINT) WITH ('connector' = 'filesystem', 'path' = 'counts/', 'format' = 'debezium-json');
EXECUTE STATEMENT SET BEGIN
  INSERT INTO copy SELECT \`user\`, url FROM clicks;
  INSERT INTO counts SELECT \`user\`, COUNT(*) FROM clicks GROUP BY \`user\`;
END;
`,
    });
    const input = (n: number) => JSON.stringify({ user: n === 3 ? "Mary" : `u${n}`, url: `/p${n}` });
    const copy = join(dir, "copy");
    // 1. runs until killed
    const first = startCli(["sql", "-f", "copy.sql"], {}, { cwd: dir });
    await waitFor("the first rows committed", () => committedLines(copy).length === 3, 60_000);
    first.child.kill("SIGKILL");
    await first.done;
    appendFileSync(join(dir, "clicks", "part-1"), [1, 2].map(input).join("\n") + "\n");
    // 2. the same command resumes from the latest checkpoint; Ctrl-C stops it with a savepoint
    const second = startCli(["sql", "-f", "copy.sql"], {}, { cwd: dir });
    await waitFor("the rows after the crash committed", () => committedLines(copy).length >= 5, 60_000);
    second.child.kill("SIGINT");
    const stopped = await second.done;
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stderr).toContain("restored from checkpoint");
    const savepoint = /resume with --from-savepoint (\S+)/.exec(stopped.stderr)?.[1];
    expect(savepoint, stopped.stderr).toBeDefined();
    appendFileSync(join(dir, "clicks", "part-2"), [3].map(input).join("\n") + "\n");
    // 3. from the savepoint
    const third = startCli(["sql", "-f", "copy.sql", "--from-savepoint", savepoint!], {}, { cwd: dir });
    await waitFor("the rows after the savepoint committed", () => committedLines(copy).length >= 6 && foldedCounts(join(dir, "counts")).includes("Mary=3"), 60_000).catch((e: Error) => {
      third.child.kill("SIGKILL");
      throw new Error(`${e.message}\n${third.stderr()}\ncopy: ${committedLines(copy).join("\n")}\ncounts: ${foldedCounts(join(dir, "counts")).join(" ")}`);
    });
    third.child.kill("SIGINT");
    expect((await third.done).code).toBe(0);
    const expected = [...CLICKS.map((c) => JSON.stringify({ user: c.user, url: c.url })), ...[1, 2, 3].map(input)];
    expect(committedLines(copy).sort()).toEqual(expected.sort());
    expect(foldedCounts(join(dir, "counts"))).toEqual(["Bob=1", "Mary=3", "u1=1", "u2=1"]);
  }, 180_000);
});
