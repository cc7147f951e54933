import { afterEach, describe, expect, it } from "vitest";
import { setLaunch } from "../deploy/launch-context.ts";
import { SqlSession } from "./sql-session.ts";
import { splitStatements } from "./statement-splitter.ts";

/** A session whose output is collected: what it wrote, and the messages it showed above the prompt. */
function session(): { s: SqlSession; written: string[]; notified: string[] } {
  const written: string[] = [];
  const notified: string[] = [];
  const s = new SqlSession({}, {
    write: (t) => written.push(t),
    notify: (t) => notified.push(t),
    tty: false,
    size: () => ({ rows: 24, columns: 80 }),
    onKey: () => () => {},
  });
  return { s, written, notified };
}

async function run(s: SqlSession, sql: string): Promise<void> {
  for (const statement of splitStatements(sql).statements) expect(await s.run(statement, sql, new AbortController().signal)).toBeUndefined();
}

async function until(what: string, cond: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

afterEach(() => setLaunch(undefined));

describe("SqlSession", () => {
  it("INSERT says the job runs in this process; STOP JOB reports the stop once, without the end notice as well", async () => {
    const { s, written, notified } = session();
    await run(s, "CREATE TABLE gen (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10');\nCREATE TABLE sink (n BIGINT) WITH ('connector' = 'blackhole');\nINSERT INTO sink SELECT n FROM gen;");
    const text = () => written.join("");
    expect(text()).toContain("[INFO] Submitting SQL update statement (the job runs in this process)...\n[INFO] SQL update statement has been successfully submitted; the job runs in the background:\nJob ID: ");
    expect(text()).not.toContain("cluster");
    const id = /Job ID: (\S+)/.exec(text())![1]!;
    const statement = splitStatements(`STOP JOB '${id}' WITH DRAIN;`).statements[0]!;
    expect(await s.run(statement, statement.text, new AbortController().signal)).toBe("error");
    expect(text()).toContain("WITH DRAIN ends event time before a savepoint: STOP JOB 'id' WITH SAVEPOINT WITH DRAIN");
    await run(s, `STOP JOB '${id}';`);
    expect(text()).toContain(`[INFO] Job '${id}' was cancelled.\n`);
    await until("the job to end", () => s.jobs.running().length === 0);
    // a job that ends by itself is still announced
    await run(s, "CREATE TABLE few (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');\nINSERT INTO sink SELECT n FROM few;");
    await until("the bounded job's end notice", () => notified.length > 0);
    expect(notified).toEqual([expect.stringMatching(/^\[INFO\] Job '[0-9a-f-]+' \(insert-into_default_catalog\.default_database\.sink\) finished\.$/)]);
    expect(text().match(/was cancelled/g)).toHaveLength(1);
  }, 30_000);

  it("the operators of an INSERT of VALUES all have planner-derived uids (no warning asks the user for one)", async () => {
    const { s } = session();
    await run(s, "CREATE TABLE sink (n INT) WITH ('connector' = 'blackhole');\nINSERT INTO sink VALUES (1), (2);");
    await until("the job to end", () => s.jobs.running().length === 0);
    const graph = s.tEnv.getStreamExecutionEnvironment().graph;
    expect(graph.nodes.filter((n) => n.uidGenerated).map((n) => `${n.name} (${n.uid})`)).toEqual([]);
    expect(graph.nodes.map((n) => n.uid)).toContain("source-values");
  }, 30_000);
});
