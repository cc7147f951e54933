/**
 * The `nexmark` connector with the nexmark project's DDL: the generator's
 * events as rows (the same at any parallelism), bounded by 'events.num',
 * resumed exactly from checkpointed event numbers after a failure, and
 * clear errors for unknown options and columns.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { RichFunction } from "../../core/rich-function.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import { NexmarkGenerator } from "../../connectors/nexmark/nexmark-generator.ts";
import type { CheckpointListener } from "../../core/checkpointed-function.ts";
import { RestartStrategies } from "../../runtime/execution/restart-strategy.ts";
import { StreamTableEnvironment } from "../api/table-environment.ts";
import { Row } from "../data/row.ts";

/** The nexmark project's `ddl_gen.sql` with its variables set. */
function ddl(vars: Record<string, string>, extraOptions = ""): string {
  const text = readFileSync(new URL("../../../bench/jobs/nexmark/sql/ddl_gen.sql", import.meta.url), "utf8").replace(/\$\{(\w+)\}/g, (_, k: string) => vars[k]!);
  return extraOptions === "" ? text : text.replace(/\n\);\s*$/, `,\n${extraOptions}\n)`);
}

const VARS = { TPS: "1000", EVENTS_NUM: "3000", PERSON_PROPORTION: "1", AUCTION_PROPORTION: "3", BID_PROPORTION: "46" };

function session(parallelism = 2, vars: Record<string, string> = VARS, extraOptions = ""): StreamTableEnvironment {
  const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.create({ parallelism, log: () => {} }));
  tEnv.executeSql(ddl(vars, extraOptions));
  return tEnv;
}

async function rows(tEnv: StreamTableEnvironment, sql: string): Promise<string[]> {
  const out: string[] = [];
  for await (const r of tEnv.executeSql(sql).collect()) out.push(Row.toString(r));
  return out.sort();
}

/** What the query below gives for event n of the generator. */
function expectedRow(g: NexmarkGenerator, n: number): string {
  const e = g.event(n);
  if (e.type === 0) return `+I[0, ${e.person.id}, ${e.person.name}, null, null, null, null, ${e.person.dateTime}]`;
  if (e.type === 1) return `+I[1, ${e.auction.id}, null, ${e.auction.seller}, ${e.auction.expires}, null, null, ${e.auction.dateTime}]`;
  return `+I[2, ${e.bid.auction}, null, null, null, ${e.bid.price}, ${e.bid.url}, ${e.bid.dateTime}]`;
}

const QUERY = "SELECT event_type, COALESCE(person.id, auction.id, bid.auction), person.name, auction.seller, auction.expires, bid.price, bid.url, `dateTime` FROM datagen";

describe("the nexmark connector", () => {
  it("the published DDL reads the generator's events, bounded by 'events.num', the same at parallelism 1 and 3", async () => {
    const g = new NexmarkGenerator({ events: 3_000, eventsPerSecond: 1_000 });
    const expected = Array.from({ length: 3_000 }, (_, n) => expectedRow(g, n)).sort();
    const one = await rows(session(1), QUERY);
    expect(one.length).toBe(3_000);
    expect(one.slice(0, 3)).toEqual(expected.slice(0, 3));
    expect(one).toEqual(expected);
    expect(await rows(session(3), QUERY)).toEqual(one);
  });

  it("the proportions and Weir's out-of-orderness and seed options shape the stream", async () => {
    const tEnv = session(2, { ...VARS, PERSON_PROPORTION: "2", AUCTION_PROPORTION: "2", BID_PROPORTION: "6" }, "'events.max-out-of-orderness' = '2 s', 'events.seed' = '7'");
    const counts = await rows(tEnv, "SELECT event_type, COUNT(*) FROM datagen GROUP BY event_type");
    const final = counts.filter((r) => r.startsWith("+I") || r.startsWith("+U"));
    expect(final).toContain("+U[0, 600]");
    expect(final).toContain("+U[1, 600]");
    expect(final).toContain("+U[2, 1800]");
    const g = new NexmarkGenerator({ events: 3_000, eventsPerSecond: 1_000, maxOutOfOrdernessMs: 2_000, seed: 7, proportions: { person: 2, auction: 2, bid: 6 } });
    const times = await rows(tEnv, "SELECT `dateTime` FROM datagen");
    expect(times).toEqual(Array.from({ length: 3_000 }, (_, n) => `+I[${g.timestamp(n)}]`).sort());
    expect(new Set(Array.from({ length: 3_000 }, (_, n) => g.inOrderTimestamp(n) - g.timestamp(n))).size).toBeGreaterThan(100);
  });

  it("after a failure, the job resumes from the checkpointed event numbers: every event once", async () => {
    class FailAfterCheckpoint extends RichFunction implements CheckpointListener {
      private completed = false;
      notifyCheckpointComplete(): void {
        this.completed = true;
      }
      map(r: Row): string {
        if (this.completed && this.getRuntimeContext().getAttemptNumber() === 0) throw new Error("injected failure");
        return Row.toString(r);
      }
    }
    const env = StreamExecutionEnvironment.create({ parallelism: 2, checkpointInterval: 50, log: () => {} });
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1, 0));
    const tEnv = StreamTableEnvironment.create(env);
    // 40 000 events/s on the wall clock: half a second of input, several checkpoints before the failure
    tEnv.executeSql(ddl({ ...VARS, TPS: "40000", EVENTS_NUM: "20000" }, "'rate.limited' = 'true'"));
    tEnv.toDataStream(tEnv.sqlQuery("SELECT event_type, COALESCE(person.id, auction.id, bid.auction), `dateTime` FROM datagen")).map(new FailAfterCheckpoint()).uid("fail").sinkTo(collectSink("rows")).uid("sink");
    const result = await env.execute("nexmark-table-restore");
    expect(result.restarts).toBe(1);
    const got = result.getCollected<string>("rows").sort();
    const g = new NexmarkGenerator({ events: 20_000, eventsPerSecond: 40_000 });
    const expected = Array.from({ length: 20_000 }, (_, n) => {
      const e = g.event(n);
      const id = e.type === 0 ? e.person.id : e.type === 1 ? e.auction.id : e.bid.auction;
      return `+I[${e.type}, ${id}, ${g.timestamp(n)}]`;
    }).sort();
    expect(got).toEqual(expected);
  });

  it("'events.base-time' sets the time of event 0; a text that is no timestamp is refused", async () => {
    const tEnv = session(1, { ...VARS, EVENTS_NUM: "3" }, "'events.base-time' = '2020-04-15 08:05:00'");
    expect(await rows(tEnv, "SELECT CAST(`dateTime` AS STRING) FROM datagen")).toEqual(["+I[2020-04-15 08:05:00.000]", "+I[2020-04-15 08:05:00.001]", "+I[2020-04-15 08:05:00.002]"]);
    expect(() => session(1, VARS, "'events.base-time' = 'yesterday'").sqlQuery("SELECT event_type FROM datagen")).toThrow(
      /Invalid value for option 'events.base-time': 'yesterday' \(expected a timestamp such as '2026-01-01 00:00:00'\)/,
    );
  });

  it("an unknown option is refused with the valid ones listed", () => {
    expect(() => session(1, VARS, "'events.number' = '5'").sqlQuery("SELECT event_type FROM datagen")).toThrow(
      /Unsupported options found for 'nexmark'.*events\.number \(did you mean 'events\.num'\?\).*Supported options:.*first-event\.rate/s,
    );
  });

  it("options out of range and a second rate are refused, named", () => {
    expect(() => session(1, { ...VARS, BID_PROPORTION: "0" }).sqlQuery("SELECT event_type FROM datagen")).toThrow(/Invalid value for option 'bid\.proportion': '0' \(expected an integer ≥ 1\)/);
    const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.create({ parallelism: 1 }));
    tEnv.executeSql(ddl(VARS).replace("'next-event.rate' = '1000'", "'next-event.rate' = '5000'"));
    expect(() => tEnv.sqlQuery("SELECT event_type FROM datagen")).toThrow(/'next-event\.rate' must equal 'first-event\.rate'/);
  });

  it("a Calc over the table reads the events themselves, its other readers their rows, in one job and in either order", async () => {
    /** The rows of `sql` and the names of its job's operators, and how many sources it has. */
    const run = async (sql: string) => {
      const env = StreamExecutionEnvironment.create({ parallelism: 2, log: () => {} });
      const tEnv = StreamTableEnvironment.create(env);
      tEnv.executeSql(
        "CREATE TABLE plain (bid ROW<url VARCHAR, price BIGINT>, event_type INT) WITH ('connector' = 'nexmark', 'events.num' = '600', 'first-event.rate' = '1000', 'next-event.rate' = '1000')",
      );
      const out = await rows(tEnv, sql);
      return { rows: out, names: env.graph.nodes.map((n) => n.name), sources: env.graph.nodes.filter((n) => n.isSource).length };
    };
    const g = new NexmarkGenerator({ events: 600, eventsPerSecond: 1_000 });
    const events = Array.from({ length: 600 }, (_, n) => g.event(n));
    const whole = events.map((e) => `+I[${e.type === 2 ? `[${e.bid.url}, ${e.bid.price}]` : "null"}, ${e.type}]`);
    const bids = events.filter((e) => e.type === 2);
    // a Calc alone: no row is made of an event (no map to rows after the source)
    const calc = await run("SELECT bid.url, bid.price FROM plain WHERE event_type = 2");
    expect(calc.rows).toEqual(bids.map((e) => `+I[${e.bid.url}, ${e.bid.price}]`).sort());
    expect(calc.names).not.toContain("ToRow");
    // the table read whole (no Calc): its rows
    expect((await run("SELECT * FROM plain")).rows).toEqual([...whole].sort());
    // both in one job, one source: the rows are made of the events when the Calc read the source first
    const both = [...whole, ...bids.map((e) => `+I[[${e.bid.url}, ${e.bid.price}], 2]`)].sort();
    const calcFirst = await run("SELECT bid, event_type FROM plain WHERE event_type = 2 UNION ALL SELECT * FROM plain");
    expect(calcFirst.rows).toEqual(both);
    expect(calcFirst.sources).toBe(1);
    expect(calcFirst.names).toContain("ToRow");
    const rowsFirst = await run("SELECT * FROM plain UNION ALL SELECT bid, event_type FROM plain WHERE event_type = 2");
    expect(rowsFirst.rows).toEqual(both);
    expect(rowsFirst.sources).toBe(1);
  });

  it("a column or field the generator does not make is refused, with the nearest name", () => {
    const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.create({ parallelism: 1 }));
    tEnv.executeSql("CREATE TABLE a (event_typ INT) WITH ('connector' = 'nexmark')");
    expect(() => tEnv.sqlQuery("SELECT * FROM a")).toThrow(/no column 'event_typ'. Did you mean 'event_type'\? Its columns are: event_type, person, auction, bid/);
    tEnv.executeSql("CREATE TABLE b (bid ROW<auction BIGINT, prize BIGINT>) WITH ('connector' = 'nexmark')");
    expect(() => tEnv.sqlQuery("SELECT * FROM b")).toThrow(/no field 'prize' in 'bid'. Did you mean 'price'\?/);
    tEnv.executeSql("CREATE TABLE c (bid ROW<price DOUBLE>) WITH ('connector' = 'nexmark')");
    expect(() => tEnv.sqlQuery("SELECT * FROM c")).toThrow(/cannot give 'bid.price' the type DOUBLE: it must be BIGINT or INT/);
  });
});
