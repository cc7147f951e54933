/**
 * The examples of Flink's SQL documentation pages (Windowing TVF, Window
 * Aggregation, Window Top-N, Window Join, Window Deduplication, Group
 * Aggregation, Set Operations), run on Weir: each input is the table the
 * page prints, each query is the page's query as the page writes it, and
 * the folded changelog must hold exactly the rows the page prints.
 *
 * The input tables become views over `fromCollection` with the page's
 * columns and watermark (`… - INTERVAL '1' SECOND`). Without periodic
 * watermarks (`autoWatermarkInterval: 0`) the only watermark is the one at
 * the end of the input, as on the pages, where every row arrives before the
 * SQL client's periodic watermark passes any window (the window-join and
 * session inputs are out of order by minutes).
 *
 * Where the page's printed output is at odds with its own query, the test
 * says so where it deviates (a header the page got wrong, a column it left
 * out); every such place is commented.
 */
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { Schema } from "../../src/table/api/schema.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import type { ResultColumn } from "../../src/table/api/table-result.ts";
import { MultisetTable } from "../../src/table/data/changelog.ts";
import type { Row } from "../../src/table/data/row.ts";
import { parsePrintedTable, printedRecords, resultLines, sideBySide, type MatchOptions } from "../support/printed-table.ts";

/** An input table as a page shows it: `desc` (columns and watermark) and `SELECT *` (rows). */
interface PageTable {
  readonly name: string;
  readonly columns: readonly (readonly [name: string, type: string])[];
  readonly watermark?: readonly [column: string, expr: string];
  readonly printed: string;
}

interface QueryResult {
  readonly columns: readonly ResultColumn[];
  readonly changelog: readonly Row[];
  readonly rows: readonly Row[];
}

const PARALLELISMS = [1, 2] as const;

/** Runs `statements` (DDL such as CREATE VIEW) and then `query` over `tables`; its changelog and the table it folds to. */
async function runQuery(parallelism: number, tables: readonly PageTable[], query: string, statements: readonly string[] = []): Promise<QueryResult> {
  const env = StreamExecutionEnvironment.create({ parallelism, autoWatermarkInterval: 0 });
  const tEnv = StreamTableEnvironment.create(env);
  for (const t of tables) {
    const schema = Schema.newBuilder();
    for (const [name, type] of t.columns) schema.column(name, type);
    if (t.watermark !== undefined) schema.watermark(t.watermark[0], t.watermark[1]);
    const records = printedRecords(t.printed, Object.fromEntries(t.columns));
    tEnv.createTemporaryView(t.name, env.fromCollection(records), schema.build());
  }
  for (const s of statements) tEnv.executeSql(s);
  // as the SQL client runs a query
  const result = tEnv.executeSql(query);
  const changelog: Row[] = [];
  for await (const row of result.collect()) changelog.push(row);
  return { columns: result.getResolvedSchema().columns, changelog, rows: new MultisetTable().applyAll(changelog).rows() };
}

/** The folded result holds exactly the printed rows. */
function expectPrinted(result: QueryResult, printed: string, options?: MatchOptions): void {
  const { actual, expected } = sideBySide(result, printed, options);
  expect(actual).toEqual(expected);
}

/** Window operators emit final rows only: an insert-only changelog. */
function expectInsertOnly(result: QueryResult): void {
  expect(result.changelog.filter((r) => r.kind !== "+I")).toEqual([]);
}

// ---------------------------------------------------------------- inputs

const TIMESTAMP = "TIMESTAMP(3)";
const BID_WATERMARK = ["bidtime", "bidtime - INTERVAL '1' SECOND"] as const;

/** Windowing TVF page: `Bid` without supplier. */
const TVF_BID: PageTable = {
  name: "Bid",
  columns: [["bidtime", TIMESTAMP], ["price", "DECIMAL(10, 2)"], ["item", "STRING"]],
  watermark: BID_WATERMARK,
  printed: `
    +------------------+-------+------+
    |          bidtime | price | item |
    +------------------+-------+------+
    | 2020-04-15 08:05 |  4.00 | C    |
    | 2020-04-15 08:07 |  2.00 | A    |
    | 2020-04-15 08:09 |  5.00 | D    |
    | 2020-04-15 08:11 |  3.00 | B    |
    | 2020-04-15 08:13 |  1.00 | E    |
    | 2020-04-15 08:17 |  6.00 | F    |
    +------------------+-------+------+`,
};

/** Windowing TVF page, SESSION section: `Bid` out of order, two items. */
const SESSION_BID: PageTable = {
  ...TVF_BID,
  printed: `
    +------------------+-------+------+
    |          bidtime | price | item |
    +------------------+-------+------+
    | 2020-04-15 08:07 |  4.00 | A    |
    | 2020-04-15 08:06 |  2.00 | A    |
    | 2020-04-15 08:09 |  5.00 | B    |
    | 2020-04-15 08:08 |  3.00 | A    |
    | 2020-04-15 08:17 |  1.00 | B    |
    +------------------+-------+------+`,
};

/** Window Aggregation page: `Bid` with suppliers. */
const AGG_BID: PageTable = {
  name: "Bid",
  columns: [["bidtime", TIMESTAMP], ["price", "DECIMAL(10, 2)"], ["item", "STRING"], ["supplier_id", "STRING"]],
  watermark: BID_WATERMARK,
  printed: `
    +------------------+-------+------+-------------+
    |          bidtime | price | item | supplier_id |
    +------------------+-------+------+-------------+
    | 2020-04-15 08:05 | 4.00  | C    | supplier1   |
    | 2020-04-15 08:07 | 2.00  | A    | supplier1   |
    | 2020-04-15 08:09 | 5.00  | D    | supplier2   |
    | 2020-04-15 08:11 | 3.00  | B    | supplier2   |
    | 2020-04-15 08:13 | 1.00  | E    | supplier1   |
    | 2020-04-15 08:17 | 6.00  | F    | supplier2   |
    +------------------+-------+------+-------------+`,
};

/** Window Top-N page (and Window Deduplication, which uses the same table without printing it). */
const TOPN_BID: PageTable = {
  ...AGG_BID,
  printed: `
    +------------------+-------+------+-------------+
    |          bidtime | price | item | supplier_id |
    +------------------+-------+------+-------------+
    | 2020-04-15 08:05 |  4.00 |    A |   supplier1 |
    | 2020-04-15 08:06 |  4.00 |    C |   supplier2 |
    | 2020-04-15 08:07 |  2.00 |    G |   supplier1 |
    | 2020-04-15 08:08 |  2.00 |    B |   supplier3 |
    | 2020-04-15 08:09 |  5.00 |    D |   supplier4 |
    | 2020-04-15 08:11 |  2.00 |    B |   supplier3 |
    | 2020-04-15 08:13 |  1.00 |    E |   supplier1 |
    | 2020-04-15 08:15 |  3.00 |    H |   supplier2 |
    | 2020-04-15 08:17 |  6.00 |    F |   supplier5 |
    +------------------+-------+------+-------------+`,
};

const JOIN_COLUMNS = [["row_time", TIMESTAMP], ["num", "INT"], ["id", "STRING"]] as const;
const JOIN_WATERMARK = ["row_time", "row_time - INTERVAL '1' SECOND"] as const;

/** Window Join page: the left input (L3 arrives after L2, minutes out of order). */
const LEFT_TABLE: PageTable = {
  name: "LeftTable",
  columns: JOIN_COLUMNS,
  watermark: JOIN_WATERMARK,
  printed: `
    +------------------+-----+----+
    |         row_time | num | id |
    +------------------+-----+----+
    | 2020-04-15 12:02 |   1 | L1 |
    | 2020-04-15 12:06 |   2 | L2 |
    | 2020-04-15 12:03 |   3 | L3 |
    +------------------+-----+----+`,
};

const RIGHT_TABLE: PageTable = {
  name: "RightTable",
  columns: JOIN_COLUMNS,
  watermark: JOIN_WATERMARK,
  printed: `
    +------------------+-----+----+
    |         row_time | num | id |
    +------------------+-----+----+
    | 2020-04-15 12:01 |   2 | R2 |
    | 2020-04-15 12:04 |   3 | R3 |
    | 2020-04-15 12:05 |   4 | R4 |
    +------------------+-----+----+`,
};

// ---------------------------------------------------------------- pages

describe.each(PARALLELISMS)("Flink's documentation examples, parallelism %i", (parallelism) => {
  describe("Windowing TVF (window-tvf.md)", () => {
    const tumbleAssigned = `
      +------------------+-------+------+------------------+------------------+-------------------------+
      |          bidtime | price | item |     window_start |       window_end |            window_time  |
      +------------------+-------+------+------------------+------------------+-------------------------+
      | 2020-04-15 08:05 |  4.00 | C    | 2020-04-15 08:00 | 2020-04-15 08:10 | 2020-04-15 08:09:59.999 |
      | 2020-04-15 08:07 |  2.00 | A    | 2020-04-15 08:00 | 2020-04-15 08:10 | 2020-04-15 08:09:59.999 |
      | 2020-04-15 08:09 |  5.00 | D    | 2020-04-15 08:00 | 2020-04-15 08:10 | 2020-04-15 08:09:59.999 |
      | 2020-04-15 08:11 |  3.00 | B    | 2020-04-15 08:10 | 2020-04-15 08:20 | 2020-04-15 08:19:59.999 |
      | 2020-04-15 08:13 |  1.00 | E    | 2020-04-15 08:10 | 2020-04-15 08:20 | 2020-04-15 08:19:59.999 |
      | 2020-04-15 08:17 |  6.00 | F    | 2020-04-15 08:10 | 2020-04-15 08:20 | 2020-04-15 08:19:59.999 |
      +------------------+-------+------+------------------+------------------+-------------------------+`;

    it("TUMBLE assigns each row its window", async () => {
      const r = await runQuery(parallelism, [TVF_BID], `SELECT * FROM TABLE(
   TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))`);
      expectPrinted(r, tumbleAssigned);
      expectInsertOnly(r);
    });

    it("TUMBLE with named parameters", async () => {
      const r = await runQuery(parallelism, [TVF_BID], `SELECT * FROM TABLE(
   TUMBLE(
     DATA => TABLE Bid,
     TIMECOL => DESCRIPTOR(bidtime),
     SIZE => INTERVAL '10' MINUTES))`);
      expectPrinted(r, tumbleAssigned);
    });

    it("TUMBLE aggregation", async () => {
      const r = await runQuery(parallelism, [TVF_BID], `SELECT window_start, window_end, SUM(price) AS total_price
  FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end`);
      expectPrinted(r, `
        +------------------+------------------+-------------+
        |     window_start |       window_end | total_price |
        +------------------+------------------+-------------+
        | 2020-04-15 08:00 | 2020-04-15 08:10 |       11.00 |
        | 2020-04-15 08:10 | 2020-04-15 08:20 |       10.00 |
        +------------------+------------------+-------------+`);
      expectInsertOnly(r);
    });

    const hopAssigned = `
      +------------------+-------+------+------------------+------------------+-------------------------+
      |          bidtime | price | item |     window_start |       window_end |           window_time   |
      +------------------+-------+------+------------------+------------------+-------------------------+
      | 2020-04-15 08:05 |  4.00 | C    | 2020-04-15 08:00 | 2020-04-15 08:10 | 2020-04-15 08:09:59.999 |
      | 2020-04-15 08:05 |  4.00 | C    | 2020-04-15 08:05 | 2020-04-15 08:15 | 2020-04-15 08:14:59.999 |
      | 2020-04-15 08:07 |  2.00 | A    | 2020-04-15 08:00 | 2020-04-15 08:10 | 2020-04-15 08:09:59.999 |
      | 2020-04-15 08:07 |  2.00 | A    | 2020-04-15 08:05 | 2020-04-15 08:15 | 2020-04-15 08:14:59.999 |
      | 2020-04-15 08:09 |  5.00 | D    | 2020-04-15 08:00 | 2020-04-15 08:10 | 2020-04-15 08:09:59.999 |
      | 2020-04-15 08:09 |  5.00 | D    | 2020-04-15 08:05 | 2020-04-15 08:15 | 2020-04-15 08:14:59.999 |
      | 2020-04-15 08:11 |  3.00 | B    | 2020-04-15 08:05 | 2020-04-15 08:15 | 2020-04-15 08:14:59.999 |
      | 2020-04-15 08:11 |  3.00 | B    | 2020-04-15 08:10 | 2020-04-15 08:20 | 2020-04-15 08:19:59.999 |
      | 2020-04-15 08:13 |  1.00 | E    | 2020-04-15 08:05 | 2020-04-15 08:15 | 2020-04-15 08:14:59.999 |
      | 2020-04-15 08:13 |  1.00 | E    | 2020-04-15 08:10 | 2020-04-15 08:20 | 2020-04-15 08:19:59.999 |
      | 2020-04-15 08:17 |  6.00 | F    | 2020-04-15 08:10 | 2020-04-15 08:20 | 2020-04-15 08:19:59.999 |
      | 2020-04-15 08:17 |  6.00 | F    | 2020-04-15 08:15 | 2020-04-15 08:25 | 2020-04-15 08:24:59.999 |
      +------------------+-------+------+------------------+------------------+-------------------------+`;

    it("HOP assigns each row its windows", async () => {
      const r = await runQuery(parallelism, [TVF_BID], `SELECT * FROM TABLE(
    HOP(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES))`);
      expectPrinted(r, hopAssigned);
      expectInsertOnly(r);
    });

    it("HOP with named parameters", async () => {
      const r = await runQuery(parallelism, [TVF_BID], `SELECT * FROM TABLE(
    HOP(
      DATA => TABLE Bid,
      TIMECOL => DESCRIPTOR(bidtime),
      SLIDE => INTERVAL '5' MINUTES,
      SIZE => INTERVAL '10' MINUTES))`);
      expectPrinted(r, hopAssigned);
    });

    it("HOP aggregation", async () => {
      const r = await runQuery(parallelism, [TVF_BID], `SELECT window_start, window_end, SUM(price) AS total_price
    FROM TABLE(
      HOP(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES))
    GROUP BY window_start, window_end`);
      expectPrinted(r, `
        +------------------+------------------+-------------+
        |     window_start |       window_end | total_price |
        +------------------+------------------+-------------+
        | 2020-04-15 08:00 | 2020-04-15 08:10 |       11.00 |
        | 2020-04-15 08:05 | 2020-04-15 08:15 |       15.00 |
        | 2020-04-15 08:10 | 2020-04-15 08:20 |       10.00 |
        | 2020-04-15 08:15 | 2020-04-15 08:25 |        6.00 |
        +------------------+------------------+-------------+`);
      expectInsertOnly(r);
    });

    const cumulateAssigned = `
      +------------------+-------+------+------------------+------------------+-------------------------+
      |          bidtime | price | item |     window_start |       window_end |            window_time  |
      +------------------+-------+------+------------------+------------------+-------------------------+
      | 2020-04-15 08:05 |  4.00 | C    | 2020-04-15 08:00 | 2020-04-15 08:06 | 2020-04-15 08:05:59.999 |
      | 2020-04-15 08:05 |  4.00 | C    | 2020-04-15 08:00 | 2020-04-15 08:08 | 2020-04-15 08:07:59.999 |
      | 2020-04-15 08:05 |  4.00 | C    | 2020-04-15 08:00 | 2020-04-15 08:10 | 2020-04-15 08:09:59.999 |
      | 2020-04-15 08:07 |  2.00 | A    | 2020-04-15 08:00 | 2020-04-15 08:08 | 2020-04-15 08:07:59.999 |
      | 2020-04-15 08:07 |  2.00 | A    | 2020-04-15 08:00 | 2020-04-15 08:10 | 2020-04-15 08:09:59.999 |
      | 2020-04-15 08:09 |  5.00 | D    | 2020-04-15 08:00 | 2020-04-15 08:10 | 2020-04-15 08:09:59.999 |
      | 2020-04-15 08:11 |  3.00 | B    | 2020-04-15 08:10 | 2020-04-15 08:12 | 2020-04-15 08:11:59.999 |
      | 2020-04-15 08:11 |  3.00 | B    | 2020-04-15 08:10 | 2020-04-15 08:14 | 2020-04-15 08:13:59.999 |
      | 2020-04-15 08:11 |  3.00 | B    | 2020-04-15 08:10 | 2020-04-15 08:16 | 2020-04-15 08:15:59.999 |
      | 2020-04-15 08:11 |  3.00 | B    | 2020-04-15 08:10 | 2020-04-15 08:18 | 2020-04-15 08:17:59.999 |
      | 2020-04-15 08:11 |  3.00 | B    | 2020-04-15 08:10 | 2020-04-15 08:20 | 2020-04-15 08:19:59.999 |
      | 2020-04-15 08:13 |  1.00 | E    | 2020-04-15 08:10 | 2020-04-15 08:14 | 2020-04-15 08:13:59.999 |
      | 2020-04-15 08:13 |  1.00 | E    | 2020-04-15 08:10 | 2020-04-15 08:16 | 2020-04-15 08:15:59.999 |
      | 2020-04-15 08:13 |  1.00 | E    | 2020-04-15 08:10 | 2020-04-15 08:18 | 2020-04-15 08:17:59.999 |
      | 2020-04-15 08:13 |  1.00 | E    | 2020-04-15 08:10 | 2020-04-15 08:20 | 2020-04-15 08:19:59.999 |
      | 2020-04-15 08:17 |  6.00 | F    | 2020-04-15 08:10 | 2020-04-15 08:18 | 2020-04-15 08:17:59.999 |
      | 2020-04-15 08:17 |  6.00 | F    | 2020-04-15 08:10 | 2020-04-15 08:20 | 2020-04-15 08:19:59.999 |
      +------------------+-------+------+------------------+------------------+-------------------------+`;

    it("CUMULATE assigns each row its windows", async () => {
      const r = await runQuery(parallelism, [TVF_BID], `SELECT * FROM TABLE(
    CUMULATE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '2' MINUTES, INTERVAL '10' MINUTES))`);
      expectPrinted(r, cumulateAssigned);
      expectInsertOnly(r);
    });

    it("CUMULATE with named parameters", async () => {
      const r = await runQuery(parallelism, [TVF_BID], `SELECT * FROM TABLE(
    CUMULATE(
      DATA => TABLE Bid,
      TIMECOL => DESCRIPTOR(bidtime),
      STEP => INTERVAL '2' MINUTES,
      SIZE => INTERVAL '10' MINUTES))`);
      expectPrinted(r, cumulateAssigned);
    });

    it("CUMULATE aggregation", async () => {
      const r = await runQuery(parallelism, [TVF_BID], `SELECT window_start, window_end, SUM(price) AS total_price
  FROM TABLE(
    CUMULATE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '2' MINUTES, INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end`);
      expectPrinted(r, CUMULATE_TOTALS);
      expectInsertOnly(r);
    });

    const sessionAssigned = `
      +------------------+-------+------+------------------+------------------+-------------------------+
      |          bidtime | price | item |     window_start |       window_end |             window_time |
      +------------------+-------+------+------------------+------------------+-------------------------+
      | 2020-04-15 08:07 |  4.00 | A    | 2020-04-15 08:06 | 2020-04-15 08:13 | 2020-04-15 08:12:59.999 |
      | 2020-04-15 08:06 |  2.00 | A    | 2020-04-15 08:06 | 2020-04-15 08:13 | 2020-04-15 08:12:59.999 |
      | 2020-04-15 08:08 |  3.00 | A    | 2020-04-15 08:06 | 2020-04-15 08:13 | 2020-04-15 08:12:59.999 |
      | 2020-04-15 08:09 |  5.00 | B    | 2020-04-15 08:09 | 2020-04-15 08:14 | 2020-04-15 08:13:59.999 |
      | 2020-04-15 08:17 |  1.00 | B    | 2020-04-15 08:17 | 2020-04-15 08:22 | 2020-04-15 08:21:59.999 |
      +------------------+-------+------+------------------+------------------+-------------------------+`;

    it("SESSION with partition keys assigns each row its session", async () => {
      const r = await runQuery(parallelism, [SESSION_BID], `SELECT * FROM TABLE(
      SESSION(TABLE Bid PARTITION BY item, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES))`);
      expectPrinted(r, sessionAssigned);
      expectInsertOnly(r);
    });

    it("SESSION with partition keys, named parameters", async () => {
      // the page's statement misses the closing parenthesis of TABLE(…); it is added here
      const r = await runQuery(parallelism, [SESSION_BID], `SELECT * FROM TABLE(
      SESSION(
        DATA => TABLE Bid PARTITION BY item,
        TIMECOL => DESCRIPTOR(bidtime),
        GAP => INTERVAL '5' MINUTES))`);
      expectPrinted(r, sessionAssigned);
    });

    it("SESSION aggregation with partition keys", async () => {
      const r = await runQuery(parallelism, [SESSION_BID], `SELECT window_start, window_end, item, SUM(price) AS total_price
    FROM TABLE(
        SESSION(TABLE Bid PARTITION BY item, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES))
    GROUP BY item, window_start, window_end`);
      expectPrinted(r, `
        +------------------+------------------+------+-------------+
        |     window_start |       window_end | item | total_price |
        +------------------+------------------+------+-------------+
        | 2020-04-15 08:06 | 2020-04-15 08:13 | A    |        9.00 |
        | 2020-04-15 08:09 | 2020-04-15 08:14 | B    |        5.00 |
        | 2020-04-15 08:17 | 2020-04-15 08:22 | B    |        1.00 |
        +------------------+------------------+------+-------------+`);
      expectInsertOnly(r);
    });

    it("SESSION without partition keys assigns each row its session", async () => {
      const r = await runQuery(parallelism, [SESSION_BID], `SELECT * FROM TABLE(
      SESSION(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES))`);
      expectPrinted(r, `
        +------------------+-------+------+------------------+------------------+-------------------------+
        |          bidtime | price | item |     window_start |       window_end |             window_time |
        +------------------+-------+------+------------------+------------------+-------------------------+
        | 2020-04-15 08:07 |  4.00 | A    | 2020-04-15 08:06 | 2020-04-15 08:14 | 2020-04-15 08:13:59.999 |
        | 2020-04-15 08:06 |  2.00 | A    | 2020-04-15 08:06 | 2020-04-15 08:14 | 2020-04-15 08:13:59.999 |
        | 2020-04-15 08:08 |  3.00 | A    | 2020-04-15 08:06 | 2020-04-15 08:14 | 2020-04-15 08:13:59.999 |
        | 2020-04-15 08:09 |  5.00 | B    | 2020-04-15 08:06 | 2020-04-15 08:14 | 2020-04-15 08:13:59.999 |
        | 2020-04-15 08:17 |  1.00 | B    | 2020-04-15 08:17 | 2020-04-15 08:22 | 2020-04-15 08:21:59.999 |
        +------------------+-------+------+------------------+------------------+-------------------------+`);
      expectInsertOnly(r);
    });

    it("SESSION aggregation without partition keys", async () => {
      const r = await runQuery(parallelism, [SESSION_BID], `SELECT window_start, window_end, SUM(price) AS total_price
    FROM TABLE(
        SESSION(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES))
    GROUP BY window_start, window_end`);
      expectPrinted(r, `
        +------------------+------------------+-------------+
        |     window_start |       window_end | total_price |
        +------------------+------------------+-------------+
        | 2020-04-15 08:06 | 2020-04-15 08:14 |       14.00 |
        | 2020-04-15 08:17 | 2020-04-15 08:22 |        1.00 |
        +------------------+------------------+-------------+`);
      expectInsertOnly(r);
    });

    const offsetAssigned = `
      +------------------+-------+------+------------------+------------------+-------------------------+
      |          bidtime | price | item |     window_start |       window_end |            window_time  |
      +------------------+-------+------+------------------+------------------+-------------------------+
      | 2020-04-15 08:05 |  4.00 | C    | 2020-04-15 08:01 | 2020-04-15 08:11 | 2020-04-15 08:10:59.999 |
      | 2020-04-15 08:07 |  2.00 | A    | 2020-04-15 08:01 | 2020-04-15 08:11 | 2020-04-15 08:10:59.999 |
      | 2020-04-15 08:09 |  5.00 | D    | 2020-04-15 08:01 | 2020-04-15 08:11 | 2020-04-15 08:10:59.999 |
      | 2020-04-15 08:11 |  3.00 | B    | 2020-04-15 08:11 | 2020-04-15 08:21 | 2020-04-15 08:20:59.999 |
      | 2020-04-15 08:13 |  1.00 | E    | 2020-04-15 08:11 | 2020-04-15 08:21 | 2020-04-15 08:20:59.999 |
      | 2020-04-15 08:17 |  6.00 | F    | 2020-04-15 08:11 | 2020-04-15 08:21 | 2020-04-15 08:20:59.999 |
      +------------------+-------+------+------------------+------------------+-------------------------+`;

    it("TUMBLE with an offset", async () => {
      const r = await runQuery(parallelism, [TVF_BID], `SELECT * FROM TABLE(
   TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES, INTERVAL '1' MINUTES))`);
      expectPrinted(r, offsetAssigned);
    });

    it("TUMBLE with an offset, named parameters", async () => {
      const r = await runQuery(parallelism, [TVF_BID], `SELECT * FROM TABLE(
   TUMBLE(
     DATA => TABLE Bid,
     TIMECOL => DESCRIPTOR(bidtime),
     SIZE => INTERVAL '10' MINUTES,
     OFFSET => INTERVAL '1' MINUTES))`);
      expectPrinted(r, offsetAssigned);
    });

    it.each([
      // the page's list: the window of a row at 2021-06-30 00:00:04 in 10-minute tumbling windows, by offset
      ["-16", "2021-06-29 23:54:00", "2021-06-30 00:04:00"],
      ["-6", "2021-06-29 23:54:00", "2021-06-30 00:04:00"],
      ["-4", "2021-06-29 23:56:00", "2021-06-30 00:06:00"],
      ["0", "2021-06-30 00:00:00", "2021-06-30 00:10:00"],
      ["4", "2021-06-29 23:54:00", "2021-06-30 00:04:00"],
      ["6", "2021-06-29 23:56:00", "2021-06-30 00:06:00"],
      ["16", "2021-06-29 23:56:00", "2021-06-30 00:06:00"],
    ])("an offset of %s minutes assigns 2021-06-30 00:00:04 to [%s, %s)", async (offset, start, end) => {
      const row: PageTable = { ...TVF_BID, printed: "| bidtime | price | item |\n| 2021-06-30 00:00:04 | 1.00 | A |" };
      const r = await runQuery(parallelism, [row], `SELECT window_start, window_end FROM TABLE(
   TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES, INTERVAL '${offset}' MINUTES))`);
      expectPrinted(r, `| window_start | window_end |\n| ${start} | ${end} |`);
    });

    it("TUMBLE aggregation with an offset", async () => {
      const r = await runQuery(parallelism, [TVF_BID], `SELECT window_start, window_end, SUM(price) AS total_price
  FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES, INTERVAL '1' MINUTES))
  GROUP BY window_start, window_end`);
      expectPrinted(r, `
        +------------------+------------------+-------------+
        |     window_start |       window_end | total_price |
        +------------------+------------------+-------------+
        | 2020-04-15 08:01 | 2020-04-15 08:11 |       11.00 |
        | 2020-04-15 08:11 | 2020-04-15 08:21 |       10.00 |
        +------------------+------------------+-------------+`);
      expectInsertOnly(r);
    });
  });

  describe("Window Aggregation (window-agg.md)", () => {
    it("tumbling window aggregation", async () => {
      const r = await runQuery(parallelism, [AGG_BID], `SELECT window_start, window_end, SUM(price) AS total_price
  FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end`);
      expectPrinted(r, TUMBLE_TOTALS);
      expectInsertOnly(r);
    });

    it("hopping window aggregation", async () => {
      const r = await runQuery(parallelism, [AGG_BID], `SELECT window_start, window_end, SUM(price) AS total_price
  FROM TABLE(
    HOP(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end`);
      expectPrinted(r, `
        +------------------+------------------+-------------+
        |     window_start |       window_end | total_price |
        +------------------+------------------+-------------+
        | 2020-04-15 08:00 | 2020-04-15 08:10 |       11.00 |
        | 2020-04-15 08:05 | 2020-04-15 08:15 |       15.00 |
        | 2020-04-15 08:10 | 2020-04-15 08:20 |       10.00 |
        | 2020-04-15 08:15 | 2020-04-15 08:25 |        6.00 |
        +------------------+------------------+-------------+`);
      expectInsertOnly(r);
    });

    it("cumulative window aggregation", async () => {
      const r = await runQuery(parallelism, [AGG_BID], `SELECT window_start, window_end, SUM(price) AS total_price
  FROM TABLE(
    CUMULATE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '2' MINUTES, INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end`);
      expectPrinted(r, CUMULATE_TOTALS);
      expectInsertOnly(r);
    });

    it("session window aggregation with partition keys (sessions 2 minutes apart merge)", async () => {
      const r = await runQuery(parallelism, [AGG_BID], `SELECT window_start, window_end, supplier_id, SUM(price) AS total_price
           FROM TABLE(
               SESSION(TABLE Bid PARTITION BY supplier_id, DESCRIPTOR(bidtime), INTERVAL '2' MINUTES))
           GROUP BY window_start, window_end, supplier_id`);
      expectPrinted(r, `
        +------------------+------------------+-------------+-------------+
        |     window_start |       window_end | supplier_id | total_price |
        +------------------+------------------+-------------+-------------+
        | 2020-04-15 08:05 | 2020-04-15 08:09 | supplier1   |        6.00 |
        | 2020-04-15 08:09 | 2020-04-15 08:13 | supplier2   |        8.00 |
        | 2020-04-15 08:13 | 2020-04-15 08:15 | supplier1   |        1.00 |
        | 2020-04-15 08:17 | 2020-04-15 08:19 | supplier2   |        6.00 |
        +------------------+------------------+-------------+-------------+`);
      expectInsertOnly(r);
    });

    it("session window aggregation without partition keys", async () => {
      const r = await runQuery(parallelism, [AGG_BID], `SELECT window_start, window_end, SUM(price) AS total_price
           FROM TABLE(
               SESSION(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '2' MINUTES))
           GROUP BY window_start, window_end`);
      expectPrinted(r, `
        +------------------+------------------+-------------+
        |     window_start |       window_end | total_price |
        +------------------+------------------+-------------+
        | 2020-04-15 08:05 | 2020-04-15 08:15 |       15.00 |
        | 2020-04-15 08:17 | 2020-04-15 08:19 |        6.00 |
        +------------------+------------------+-------------+`);
      expectInsertOnly(r);
    });

    it("GROUPING SETS", async () => {
      const r = await runQuery(parallelism, [AGG_BID], `SELECT window_start, window_end, supplier_id, SUM(price) AS total_price
  FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end, GROUPING SETS ((supplier_id), ())`);
      expectPrinted(r, SUPPLIER_GROUPING_SETS);
      expectInsertOnly(r);
    });

    it("ROLLUP is the GROUPING SETS query above", async () => {
      const r = await runQuery(parallelism, [AGG_BID], `SELECT window_start, window_end, supplier_id, SUM(price) AS total_price
FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
GROUP BY window_start, window_end, ROLLUP (supplier_id)`);
      expectPrinted(r, SUPPLIER_GROUPING_SETS);
      expectInsertOnly(r);
    });

    it("CUBE equals its GROUPING SETS", async () => {
      const cube = await runQuery(parallelism, [AGG_BID], `SELECT window_start, window_end, item, supplier_id, SUM(price) AS total_price
  FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end, CUBE (supplier_id, item)`);
      const sets = await runQuery(parallelism, [AGG_BID], `SELECT window_start, window_end, item, supplier_id, SUM(price) AS total_price
  FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end, GROUPING SETS (
      (supplier_id, item),
      (supplier_id      ),
      (             item),
      (                 )
)`);
      // the page prints neither result; per window: 3 (supplier, item) pairs, 2 suppliers, 3 items, 1 total
      expect(cube.rows).toHaveLength(2 * (3 + 2 + 3 + 1));
      expect(resultLines(cube)).toEqual(resultLines(sets));
      expectInsertOnly(cube);
    });

    it("cascading window aggregation (window_time as the next window's time attribute) gives the 10-minute totals", async () => {
      // the page prints no result: 5-minute windows nest in 10-minute ones, so the totals are the tumbling ones above
      const r = await runQuery(
        parallelism,
        [AGG_BID],
        `SELECT window_start, window_end, SUM(partial_price) AS total_price
  FROM TABLE(
      TUMBLE(TABLE window1, DESCRIPTOR(rowtime), INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end`,
        [
          `CREATE VIEW window1 AS
-- Note: The window start and window end fields of inner Window TVF are optional in the select clause. However, if they appear in the clause, they need to be aliased to prevent name conflicting with the window start and window end of the outer Window TVF.
SELECT window_start AS window_5mintumble_start, window_end AS window_5mintumble_end, window_time AS rowtime, SUM(price) AS partial_price
  FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES))
  GROUP BY supplier_id, window_start, window_end, window_time`,
        ],
      );
      expectPrinted(r, TUMBLE_TOTALS);
      expectInsertOnly(r);
    });
  });

  describe("Window Top-N (window-topn.md)", () => {
    it("Top-N after window aggregation: the 3 suppliers with the highest sales per window", async () => {
      const r = await runQuery(parallelism, [TOPN_BID], `SELECT *
  FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) as rownum
    FROM (
      SELECT window_start, window_end, supplier_id, SUM(price) as price, COUNT(*) as cnt
      FROM TABLE(
        TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
      GROUP BY window_start, window_end, supplier_id
    )
  ) WHERE rownum <= 3`);
      expectPrinted(r, `
        +------------------+------------------+-------------+-------+-----+--------+
        |     window_start |       window_end | supplier_id | price | cnt | rownum |
        +------------------+------------------+-------------+-------+-----+--------+
        | 2020-04-15 08:00 | 2020-04-15 08:10 |   supplier1 |  6.00 |   2 |      1 |
        | 2020-04-15 08:00 | 2020-04-15 08:10 |   supplier4 |  5.00 |   1 |      2 |
        | 2020-04-15 08:00 | 2020-04-15 08:10 |   supplier2 |  4.00 |   1 |      3 |
        | 2020-04-15 08:10 | 2020-04-15 08:20 |   supplier5 |  6.00 |   1 |      1 |
        | 2020-04-15 08:10 | 2020-04-15 08:20 |   supplier2 |  3.00 |   1 |      2 |
        | 2020-04-15 08:10 | 2020-04-15 08:20 |   supplier3 |  2.00 |   1 |      3 |
        +------------------+------------------+-------------+-------+-----+--------+`);
      expectInsertOnly(r);
    });

    it("Top-N after the windowing TVF: the 3 highest bids per window", async () => {
      const r = await runQuery(parallelism, [TOPN_BID], `SELECT *
  FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) as rownum
    FROM TABLE(
               TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  ) WHERE rownum <= 3`);
      // the page leaves out the window_time column that SELECT * also returns
      expectPrinted(r, `
        +------------------+-------+------+-------------+------------------+------------------+--------+
        |          bidtime | price | item | supplier_id |     window_start |       window_end | rownum |
        +------------------+-------+------+-------------+------------------+------------------+--------+
        | 2020-04-15 08:05 |  4.00 |    A |   supplier1 | 2020-04-15 08:00 | 2020-04-15 08:10 |      2 |
        | 2020-04-15 08:06 |  4.00 |    C |   supplier2 | 2020-04-15 08:00 | 2020-04-15 08:10 |      3 |
        | 2020-04-15 08:09 |  5.00 |    D |   supplier4 | 2020-04-15 08:00 | 2020-04-15 08:10 |      1 |
        | 2020-04-15 08:11 |  2.00 |    B |   supplier3 | 2020-04-15 08:10 | 2020-04-15 08:20 |      3 |
        | 2020-04-15 08:15 |  3.00 |    H |   supplier2 | 2020-04-15 08:10 | 2020-04-15 08:20 |      2 |
        | 2020-04-15 08:17 |  6.00 |    F |   supplier5 | 2020-04-15 08:10 | 2020-04-15 08:20 |      1 |
        +------------------+-------+------+-------------+------------------+------------------+--------+`);
      expect(r.columns.map((c) => c.name)).toEqual(["bidtime", "price", "item", "supplier_id", "window_start", "window_end", "window_time", "rownum"]);
      expectInsertOnly(r);
    });
  });

  describe("Window Deduplication (window-deduplication.md)", () => {
    it("keeps the last bid of every window", async () => {
      const r = await runQuery(parallelism, [TOPN_BID], `SELECT *
  FROM (
    SELECT bidtime, price, item, supplier_id, window_start, window_end, 
      ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY bidtime DESC) as rownum
    FROM TABLE(
               TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  ) WHERE rownum <= 1`);
      expectPrinted(r, `
        +------------------+-------+------+-------------+------------------+------------------+--------+
        |          bidtime | price | item | supplier_id |     window_start |       window_end | rownum |
        +------------------+-------+------+-------------+------------------+------------------+--------+
        | 2020-04-15 08:09 |  5.00 |    D |   supplier4 | 2020-04-15 08:00 | 2020-04-15 08:10 |      1 |
        | 2020-04-15 08:17 |  6.00 |    F |   supplier5 | 2020-04-15 08:10 | 2020-04-15 08:20 |      1 |
        +------------------+-------+------+-------------+------------------+------------------+--------+`);
      expectInsertOnly(r);
    });
  });

  describe("Window Join (window-join.md)", () => {
    const outerJoin = (join: string) => `SELECT L.num as L_Num, L.id as L_Id, R.num as R_Num, R.id as R_Id,
           COALESCE(L.window_start, R.window_start) as window_start,
           COALESCE(L.window_end, R.window_end) as window_end
           FROM (
               SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
           ) L
           ${join} (
               SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
           ) R
           ON L.num = R.num AND L.window_start = R.window_start AND L.window_end = R.window_end`;

    // the page gives the FULL JOIN's result; the INNER, LEFT and RIGHT results are its rows with both sides, a left side, a right side
    const fullJoinResult = `
      +-------+------+-------+------+------------------+------------------+
      | L_Num | L_Id | R_Num | R_Id |     window_start |       window_end |
      +-------+------+-------+------+------------------+------------------+
      |     1 |   L1 |  null | null | 2020-04-15 12:00 | 2020-04-15 12:05 |
      |  null | null |     2 |   R2 | 2020-04-15 12:00 | 2020-04-15 12:05 |
      |     3 |   L3 |     3 |   R3 | 2020-04-15 12:00 | 2020-04-15 12:05 |
      |     2 |   L2 |  null | null | 2020-04-15 12:05 | 2020-04-15 12:10 |
      |  null | null |     4 |   R4 | 2020-04-15 12:05 | 2020-04-15 12:10 |
      +-------+------+-------+------+------------------+------------------+`;
    /** The printed FULL JOIN rows that `keep` accepts, as a printed table. */
    const rowsWhere = (keep: (cells: readonly string[]) => boolean) => {
      const t = parsePrintedTable(fullJoinResult);
      return [t.names, ...t.rows.filter(keep)].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
    };

    it("FULL JOIN", async () => {
      const r = await runQuery(parallelism, [LEFT_TABLE, RIGHT_TABLE], outerJoin("FULL JOIN"));
      expectPrinted(r, fullJoinResult);
      expectInsertOnly(r);
    });

    it("INNER JOIN", async () => {
      const r = await runQuery(parallelism, [LEFT_TABLE, RIGHT_TABLE], outerJoin("JOIN"));
      expectPrinted(r, rowsWhere((c) => c[0] !== "null" && c[2] !== "null"));
      expectInsertOnly(r);
    });

    it("LEFT JOIN", async () => {
      const r = await runQuery(parallelism, [LEFT_TABLE, RIGHT_TABLE], outerJoin("LEFT JOIN"));
      expectPrinted(r, rowsWhere((c) => c[0] !== "null"));
      expectInsertOnly(r);
    });

    it("RIGHT JOIN", async () => {
      const r = await runQuery(parallelism, [LEFT_TABLE, RIGHT_TABLE], outerJoin("RIGHT JOIN"));
      expectPrinted(r, rowsWhere((c) => c[2] !== "null"));
      expectInsertOnly(r);
    });

    const semiResult = `
      +------------------+-----+----+------------------+------------------+-------------------------+
      |         row_time | num | id |     window_start |       window_end |            window_time  |
      +------------------+-----+----+------------------+------------------+-------------------------+
      | 2020-04-15 12:03 |   3 | L3 | 2020-04-15 12:00 | 2020-04-15 12:05 | 2020-04-15 12:04:59.999 |
      +------------------+-----+----+------------------+------------------+-------------------------+`;
    const antiResult = `
      +------------------+-----+----+------------------+------------------+-------------------------+
      |         row_time | num | id |     window_start |       window_end |            window_time  |
      +------------------+-----+----+------------------+------------------+-------------------------+
      | 2020-04-15 12:02 |   1 | L1 | 2020-04-15 12:00 | 2020-04-15 12:05 | 2020-04-15 12:04:59.999 |
      | 2020-04-15 12:06 |   2 | L2 | 2020-04-15 12:05 | 2020-04-15 12:10 | 2020-04-15 12:09:59.999 |
      +------------------+-----+----+------------------+------------------+-------------------------+`;

    it("SEMI JOIN with IN", async () => {
      const r = await runQuery(parallelism, [LEFT_TABLE, RIGHT_TABLE], `SELECT *
           FROM (
               SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
           ) L WHERE L.num IN (
             SELECT num FROM (   
               SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
             ) R WHERE L.window_start = R.window_start AND L.window_end = R.window_end)`);
      expectPrinted(r, semiResult);
      expectInsertOnly(r);
    });

    it("SEMI JOIN with EXISTS", async () => {
      const r = await runQuery(parallelism, [LEFT_TABLE, RIGHT_TABLE], `SELECT *
           FROM (
               SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
           ) L WHERE EXISTS (
             SELECT * FROM (
               SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
             ) R WHERE L.num = R.num AND L.window_start = R.window_start AND L.window_end = R.window_end)`);
      expectPrinted(r, semiResult);
      expectInsertOnly(r);
    });

    it("ANTI JOIN with NOT IN", async () => {
      const r = await runQuery(parallelism, [LEFT_TABLE, RIGHT_TABLE], `SELECT *
           FROM (
               SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
           ) L WHERE L.num NOT IN (
             SELECT num FROM (   
               SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
             ) R WHERE L.window_start = R.window_start AND L.window_end = R.window_end)`);
      expectPrinted(r, antiResult);
      expectInsertOnly(r);
    });

    it("ANTI JOIN with NOT EXISTS", async () => {
      const r = await runQuery(parallelism, [LEFT_TABLE, RIGHT_TABLE], `SELECT *
           FROM (
               SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
           ) L WHERE NOT EXISTS (
             SELECT * FROM (
               SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
             ) R WHERE L.num = R.num AND L.window_start = R.window_start AND L.window_end = R.window_end)`);
      expectPrinted(r, antiResult);
      expectInsertOnly(r);
    });
  });

  describe("Group Aggregation (group-agg.md)", () => {
    const products = `FROM (VALUES
    ('supplier1', 'product1', 4),
    ('supplier1', 'product2', 3),
    ('supplier2', 'product3', 3),
    ('supplier2', 'product4', 4))
AS Products(supplier_id, product_id, rating)`;
    const groupingSetsResult = `
      +-------------+--------+-------+
      | supplier_id | rating | total |
      +-------------+--------+-------+
      |   supplier1 |      4 |     1 |
      |   supplier1 | (NULL) |     2 |
      |      (NULL) | (NULL) |     4 |
      |   supplier1 |      3 |     1 |
      |   supplier2 |      3 |     1 |
      |   supplier2 | (NULL) |     2 |
      |   supplier2 |      4 |     1 |
      +-------------+--------+-------+`;

    it("GROUPING SETS", async () => {
      const r = await runQuery(parallelism, [], `SELECT supplier_id, rating, COUNT(*) AS total
${products}
GROUP BY GROUPING SETS ((supplier_id, rating), (supplier_id), ())`);
      expectPrinted(r, groupingSetsResult);
    });

    it("ROLLUP is the GROUPING SETS query above", async () => {
      const r = await runQuery(parallelism, [], `SELECT supplier_id, rating, COUNT(*)
${products}
GROUP BY ROLLUP (supplier_id, rating)`);
      // COUNT(*) has no alias here: the page's header names it for the query above
      expectPrinted(r, groupingSetsResult, { columns: r.columns.map((c) => c.name) });
    });

    it("CUBE equals its GROUPING SETS", async () => {
      const cube = await runQuery(parallelism, [], `SELECT supplier_id, rating, product_id, COUNT(*)
${products}
GROUP BY CUBE (supplier_id, rating, product_id)`);
      // the page writes GROUPING SET (a typo Flink rejects too); GROUPING SETS here
      const sets = await runQuery(parallelism, [], `SELECT supplier_id, rating, product_id, COUNT(*)
${products}
GROUP BY GROUPING SETS (
    ( supplier_id, product_id, rating ),
    ( supplier_id, product_id         ),
    ( supplier_id,             rating ),
    ( supplier_id                     ),
    (              product_id, rating ),
    (              product_id         ),
    (                          rating ),
    (                                 )
)`);
      // the page prints neither: 4 + 4 + 4 + 2 + 4 + 4 + 2 + 1 groups
      expect(cube.rows).toHaveLength(25);
      expect(resultLines(cube)).toEqual(resultLines(sets));
    });
  });

  describe("Set Operations (set-ops.md)", () => {
    const views = [`create view t1(s) as values ('c'), ('a'), ('b'), ('b'), ('c')`, `create view t2(s) as values ('d'), ('e'), ('a'), ('b'), ('b')`];
    const cases: [query: string, printed: string, options?: MatchOptions][] = [
      ["(SELECT s FROM t1) UNION (SELECT s FROM t2)", "|  s|\n|  c|\n|  a|\n|  b|\n|  d|\n|  e|"],
      // the page's header reads `c` where the column is `s`
      ["(SELECT s FROM t1) UNION ALL (SELECT s FROM t2)", "|  c|\n|  c|\n|  a|\n|  b|\n|  b|\n|  c|\n|  d|\n|  e|\n|  a|\n|  b|\n|  b|", { columns: ["s"] }],
      ["(SELECT s FROM t1) INTERSECT (SELECT s FROM t2)", "|  s|\n|  a|\n|  b|"],
      ["(SELECT s FROM t1) INTERSECT ALL (SELECT s FROM t2)", "|  s|\n|  a|\n|  b|\n|  b|"],
      ["(SELECT s FROM t1) EXCEPT (SELECT s FROM t2)", "| s |\n| c |"],
      ["(SELECT s FROM t1) EXCEPT ALL (SELECT s FROM t2)", "| s |\n| c |\n| c |"],
    ];
    for (const [query, printed, options] of cases) {
      it(query, async () => {
        const r = await runQuery(parallelism, [], query, views);
        expectPrinted(r, printed, options);
      });
    }
  });
});

const TUMBLE_TOTALS = `
  +------------------+------------------+-------------+
  |     window_start |       window_end | total_price |
  +------------------+------------------+-------------+
  | 2020-04-15 08:00 | 2020-04-15 08:10 |       11.00 |
  | 2020-04-15 08:10 | 2020-04-15 08:20 |       10.00 |
  +------------------+------------------+-------------+`;

const CUMULATE_TOTALS = `
  +------------------+------------------+-------------+
  |     window_start |       window_end | total_price |
  +------------------+------------------+-------------+
  | 2020-04-15 08:00 | 2020-04-15 08:06 |        4.00 |
  | 2020-04-15 08:00 | 2020-04-15 08:08 |        6.00 |
  | 2020-04-15 08:00 | 2020-04-15 08:10 |       11.00 |
  | 2020-04-15 08:10 | 2020-04-15 08:12 |        3.00 |
  | 2020-04-15 08:10 | 2020-04-15 08:14 |        4.00 |
  | 2020-04-15 08:10 | 2020-04-15 08:16 |        4.00 |
  | 2020-04-15 08:10 | 2020-04-15 08:18 |       10.00 |
  | 2020-04-15 08:10 | 2020-04-15 08:20 |       10.00 |
  +------------------+------------------+-------------+`;

const SUPPLIER_GROUPING_SETS = `
  +------------------+------------------+-------------+-------------+
  |     window_start |       window_end | supplier_id | total_price |
  +------------------+------------------+-------------+-------------+
  | 2020-04-15 08:00 | 2020-04-15 08:10 |      (NULL) |       11.00 |
  | 2020-04-15 08:00 | 2020-04-15 08:10 |   supplier2 |        5.00 |
  | 2020-04-15 08:00 | 2020-04-15 08:10 |   supplier1 |        6.00 |
  | 2020-04-15 08:10 | 2020-04-15 08:20 |      (NULL) |       10.00 |
  | 2020-04-15 08:10 | 2020-04-15 08:20 |   supplier2 |        9.00 |
  | 2020-04-15 08:10 | 2020-04-15 08:20 |   supplier1 |        1.00 |
  +------------------+------------------+-------------+-------------+`;
