/**
 * Golden changelogs: the exact `+I/-U/+U/-D` sequence a continuous query
 * emits for a small input at parallelism 1, one per kind of changelog
 * operator, as Flink's operators emit them (group aggregation with
 * retraction, Top-N, deduplication keeping the last row, a regular left
 * join, window aggregation), and the clicks example with the
 * materialized table after every input row.
 *
 * Where the order of two inputs matters (a right row that arrives after the
 * left row it joins, a row that arrives after its window fired) the later
 * input comes from `fromAsyncIterable` and waits for a gate the test opens
 * once it has read the output that must come first: the order is forced by
 * the data, not by timing.
 */
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../src/api/environment.ts";
import { Schema } from "../../src/table/api/schema.ts";
import type { Table } from "../../src/table/api/table.ts";
import { StreamTableEnvironment } from "../../src/table/api/table-environment.ts";
import { MultisetTable } from "../../src/table/data/changelog.ts";
import { Row } from "../../src/table/data/row.ts";
import { valueFormatOf } from "../../src/table/data/value-format-of.ts";
import { parseTimestamp } from "../../src/table/types/temporal.ts";

/** A promise the test resolves to let a waiting input go on. */
function gate(): { readonly opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * The changelog of `table` as `Row.toString` prints each row (values in
 * their column's format: TIMESTAMP as `2020-04-15T08:00`); `onRow` sees
 * the lines so far after each one.
 */
async function changelogOf(table: Table, onRow: (lines: readonly string[]) => void = () => {}): Promise<string[]> {
  const formats = table.getResolvedSchema().columns.map((c) => valueFormatOf(c.type));
  const lines: string[] = [];
  for await (const row of table.execute().collect()) {
    lines.push(Row.toString(row, formats));
    onRow(lines);
  }
  return lines;
}

function environments(autoWatermarkInterval = 0): { env: StreamExecutionEnvironment; tEnv: StreamTableEnvironment } {
  const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval });
  return { env, tEnv: StreamTableEnvironment.create(env) };
}

describe("the issue's clicks example: SELECT user, COUNT(url) FROM clicks GROUP BY user", () => {
  // the clicks of Flink's "Dynamic Tables" page
  const clicks = [
    { user: "Mary", url: "./home", cTime: "2020-04-15 12:00:00" },
    { user: "Bob", url: "./cart", cTime: "2020-04-15 12:00:00" },
    { user: "Mary", url: "./prod?id=1", cTime: "2020-04-15 12:00:05" },
    { user: "Liz", url: "./home", cTime: "2020-04-15 12:01:00" },
    { user: "Bob", url: "./prod?id=3", cTime: "2020-04-15 12:01:30" },
    { user: "Mary", url: "./prod?id=7", cTime: "2020-04-15 12:01:45" },
  ];

  async function run(): Promise<string[]> {
    const { env, tEnv } = environments();
    tEnv.createTemporaryView(
      "clicks",
      env.fromCollection(clicks.map((c) => ({ ...c, cTime: parseTimestamp(c.cTime) }))),
      Schema.newBuilder().column("user", "STRING").column("url", "STRING").column("cTime", "TIMESTAMP(3)").watermark("cTime", "cTime - INTERVAL '1' SECOND").build(),
    );
    return changelogOf(tEnv.sqlQuery("SELECT user, COUNT(url) FROM clicks GROUP BY user"));
  }

  it("emits the golden changelog", async () => {
    expect(await run()).toEqual([
      "+I[Mary, 1]",
      "+I[Bob, 1]",
      "-U[Mary, 1]",
      "+U[Mary, 2]",
      "+I[Liz, 1]",
      "-U[Bob, 1]",
      "+U[Bob, 2]",
      "-U[Mary, 2]",
      "+U[Mary, 3]",
    ]);
  });

  it("materializes, after every input row, the batch result over the rows so far", async () => {
    const lines = await run();
    // every click changes one count: the table after input row k is the fold up to the k-th +I/+U
    const folded: string[][] = [];
    const table = new MultisetTable();
    for (const line of lines) {
      const [, kind, user, count] = /^([-+][IUD])\[(\w+), (\d+)\]$/.exec(line)!;
      table.apply(Row.ofKind(kind as Row["kind"], user!, BigInt(count!)));
      if (kind === "+I" || kind === "+U") folded.push(table.sortedRows().map((r) => Row.toString(r)));
    }
    const batch = clicks.map((_, k) => {
      const counts = new Map<string, number>();
      for (const c of clicks.slice(0, k + 1)) counts.set(c.user, (counts.get(c.user) ?? 0) + 1);
      return [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([user, n]) => `+I[${user}, ${n}]`);
    });
    expect(folded).toEqual(batch);
    expect(folded).toEqual([
      ["+I[Mary, 1]"],
      ["+I[Bob, 1]", "+I[Mary, 1]"],
      ["+I[Bob, 1]", "+I[Mary, 2]"],
      ["+I[Bob, 1]", "+I[Liz, 1]", "+I[Mary, 2]"],
      ["+I[Bob, 2]", "+I[Liz, 1]", "+I[Mary, 2]"],
      ["+I[Bob, 2]", "+I[Liz, 1]", "+I[Mary, 3]"],
    ]);
  });
});

describe("group aggregation over a changelog input (fromChangelogStream)", () => {
  // a team's scores: alice's 10 becomes 30, bob's row is deleted
  const scores = [
    Row.ofKind("+I", "x", "alice", 10),
    Row.ofKind("+I", "y", "bob", 20),
    Row.ofKind("+I", "x", "carol", 5),
    Row.ofKind("-U", "x", "alice", 10),
    Row.ofKind("+U", "x", "alice", 30),
    Row.ofKind("-D", "y", "bob", 20),
    Row.ofKind("+I", "y", "dave", 7),
  ];

  function scoresTable(query: string): Table {
    const { env, tEnv } = environments();
    const schema = Schema.newBuilder().column("team", "STRING").column("name", "STRING").column("score", "INT").build();
    tEnv.createTemporaryView("scores", tEnv.fromChangelogStream(env.fromCollection(scores), schema));
    return tEnv.sqlQuery(query);
  }

  it("retracts its previous row on every change and deletes a group whose rows are all retracted", async () => {
    const lines = await changelogOf(scoresTable("SELECT team, COUNT(*) AS cnt, SUM(score) AS total, MAX(score) AS best FROM scores GROUP BY team"));
    expect(lines).toEqual([
      "+I[x, 1, 10, 10]",
      "+I[y, 1, 20, 20]",
      "-U[x, 1, 10, 10]",
      "+U[x, 2, 15, 10]",
      // -U[x, alice, 10]: MAX retracts its maximum
      "-U[x, 2, 15, 10]",
      "+U[x, 1, 5, 5]",
      "-U[x, 1, 5, 5]",
      "+U[x, 2, 35, 30]",
      // -D[y, bob, 20]: the group is empty
      "-D[y, 1, 20, 20]",
      "+I[y, 1, 7, 7]",
    ]);
  });

  it("emits nothing when a change leaves the group's row as it was", async () => {
    const lines = await changelogOf(scoresTable("SELECT team, MAX(score) AS best FROM scores GROUP BY team"));
    expect(lines).toEqual([
      "+I[x, 10]",
      "+I[y, 20]",
      // +I[x, carol, 5] leaves MAX at 10
      "-U[x, 10]",
      "+U[x, 5]",
      "-U[x, 5]",
      "+U[x, 30]",
      "-D[y, 20]",
      "+I[y, 7]",
    ]);
  });
});

describe("Top-N (ROW_NUMBER() … WHERE row_num <= 2) over an insert-only input", () => {
  const sales = [
    { product_id: "p1", category: "A", sales: 10 },
    { product_id: "p2", category: "A", sales: 30 },
    { product_id: "p3", category: "A", sales: 20 },
    { product_id: "p4", category: "A", sales: 5 },
    { product_id: "p5", category: "B", sales: 7 },
    { product_id: "p6", category: "A", sales: 40 },
  ];

  function topTwo(columns: string): Table {
    const { env, tEnv } = environments();
    tEnv.createTemporaryView(
      "ShopSales",
      env.fromCollection(sales),
      Schema.newBuilder().column("product_id", "STRING").column("category", "STRING").column("sales", "INT").build(),
    );
    return tEnv.sqlQuery(`SELECT ${columns} FROM (
        SELECT *, ROW_NUMBER() OVER (PARTITION BY category ORDER BY sales DESC) AS row_num
        FROM ShopSales)
      WHERE row_num <= 2`);
  }

  it("without the row number: deletes the row that leaves the top 2, then inserts the one that enters", async () => {
    expect(await changelogOf(topTwo("product_id, category, sales"))).toEqual([
      "+I[p1, A, 10]",
      "+I[p2, A, 30]",
      "-D[p1, A, 10]",
      "+I[p3, A, 20]",
      // p4 (5) is not in the top 2: nothing
      "+I[p5, B, 7]",
      "-D[p3, A, 20]",
      "+I[p6, A, 40]",
    ]);
  });

  it("with the row number: updates every rank the new row moves down", async () => {
    expect(await changelogOf(topTwo("product_id, category, sales, row_num"))).toEqual([
      "+I[p1, A, 10, 1]",
      "-U[p1, A, 10, 1]",
      "+U[p2, A, 30, 1]",
      "+I[p1, A, 10, 2]",
      "-U[p1, A, 10, 2]",
      "+U[p3, A, 20, 2]",
      "+I[p5, B, 7, 1]",
      "-U[p2, A, 30, 1]",
      "+U[p6, A, 40, 1]",
      "-U[p3, A, 20, 2]",
      "+U[p2, A, 30, 2]",
    ]);
  });
});

describe("deduplication keeping the last row (ORDER BY rowtime DESC … row_num = 1)", () => {
  it("replaces the kept row with each later one and ignores an older one", async () => {
    const { env, tEnv } = environments();
    const orders = [
      { order_id: 1, user: "Mary", product: "apple", num: 1, rowtime: "2020-04-15 10:00:00" },
      { order_id: 2, user: "Bob", product: "pear", num: 2, rowtime: "2020-04-15 10:01:00" },
      { order_id: 1, user: "Mary", product: "apple", num: 3, rowtime: "2020-04-15 10:02:00" },
      { order_id: 1, user: "Mary", product: "apple", num: 2, rowtime: "2020-04-15 10:01:30" },
      { order_id: 2, user: "Bob", product: "pear", num: 5, rowtime: "2020-04-15 10:03:00" },
    ];
    tEnv.createTemporaryView(
      "Orders",
      env.fromCollection(orders.map((o) => ({ ...o, rowtime: parseTimestamp(o.rowtime) }))),
      Schema.newBuilder()
        .column("order_id", "INT")
        .column("user", "STRING")
        .column("product", "STRING")
        .column("num", "INT")
        .column("rowtime", "TIMESTAMP(3)")
        .watermark("rowtime", "rowtime - INTERVAL '1' SECOND")
        .build(),
    );
    const table = tEnv.sqlQuery(`SELECT order_id, user, product, num FROM (
        SELECT *, ROW_NUMBER() OVER (PARTITION BY order_id ORDER BY rowtime DESC) AS row_num
        FROM Orders)
      WHERE row_num = 1`);
    expect(await changelogOf(table)).toEqual([
      "+I[1, Mary, apple, 1]",
      "+I[2, Bob, pear, 2]",
      "-U[1, Mary, apple, 1]",
      "+U[1, Mary, apple, 3]",
      // num 2 at 10:01:30 is older than the kept 10:02 row: nothing
      "-U[2, Bob, pear, 2]",
      "+U[2, Bob, pear, 5]",
    ]);
  });
});

describe("an event-time temporal join over a versioned view (a deduplication keeping the last row)", () => {
  it("finds a version that arrived after a later one of its key (out of order within the watermark's delay)", async () => {
    const { env, tEnv } = environments();
    const at = (t: string) => parseTimestamp(`2020-04-15 ${t}`);
    // Bob's APAC row (10:00:05) arrives after his US row (10:00:08): the view's changelog never holds it,
    // yet it is Bob's version at 10:00:06.
    const users = [
      { name: "Bob", region: "EU", ts: at("10:00:00") },
      { name: "Bob", region: "US", ts: at("10:00:08") },
      { name: "Bob", region: "APAC", ts: at("10:00:05") },
    ];
    const orders = [
      { order_id: 1, user: "Bob", ts: at("10:00:02") },
      { order_id: 2, user: "Bob", ts: at("10:00:06") },
      { order_id: 3, user: "Bob", ts: at("10:00:09") },
    ];
    const watermarked = (columns: [string, string][]) =>
      columns.reduce((b, [n, t]) => b.column(n, t), Schema.newBuilder()).column("ts", "TIMESTAMP(3)").watermark("ts", "ts - INTERVAL '10' SECOND").build();
    tEnv.createTemporaryView("users", env.fromCollection(users), watermarked([["name", "STRING"], ["region", "STRING"]]));
    tEnv.createTemporaryView("orders", env.fromCollection(orders), watermarked([["order_id", "INT"], ["user", "STRING"]]));
    const table = tEnv.sqlQuery(`WITH versions AS (
        SELECT name, region, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY name ORDER BY ts DESC) AS rn FROM users) WHERE rn = 1)
      SELECT o.order_id, r.region FROM orders o LEFT JOIN versions FOR SYSTEM_TIME AS OF o.ts AS r ON o.user = r.name`);
    expect((await changelogOf(table)).sort()).toEqual(["+I[1, EU]", "+I[2, APAC]", "+I[3, US]"]);
  });
});

describe("deduplication keeping the first row (ORDER BY rowtime ASC … row_num = 1)", () => {
  it("keeps the earliest row by event time: a row older than the kept one replaces it", async () => {
    const { env, tEnv } = environments();
    const orders = [
      { order_id: 1, num: 1, rowtime: "2020-04-15 10:01:00" },
      { order_id: 1, num: 2, rowtime: "2020-04-15 10:02:00" },
      { order_id: 1, num: 3, rowtime: "2020-04-15 10:00:00" },
    ];
    tEnv.createTemporaryView(
      "Orders",
      env.fromCollection(orders.map((o) => ({ ...o, rowtime: parseTimestamp(o.rowtime) }))),
      Schema.newBuilder().column("order_id", "INT").column("num", "INT").column("rowtime", "TIMESTAMP(3)").watermark("rowtime", "rowtime - INTERVAL '1' SECOND").build(),
    );
    const table = tEnv.sqlQuery(`SELECT order_id, num FROM (
        SELECT *, ROW_NUMBER() OVER (PARTITION BY order_id ORDER BY rowtime ASC) AS row_num
        FROM Orders)
      WHERE row_num = 1`);
    expect(await changelogOf(table)).toEqual([
      "+I[1, 1]",
      // num 2 is later than the kept row: nothing; num 3 is earlier: it is the first row now
      "-U[1, 1]",
      "+U[1, 3]",
    ]);
  });
});

describe("regular LEFT JOIN", () => {
  it("a right row that arrives after its left row retracts the NULL-padded row (-D, then +I)", async () => {
    const { env, tEnv } = environments();
    const rightMayCome = gate();
    tEnv.createTemporaryView(
      "Orders",
      env.fromCollection([
        { id: 1, item: "apple" },
        { id: 2, item: "pear" },
      ]),
      Schema.newBuilder().column("id", "INT").column("item", "STRING").build(),
    );
    async function* shipments() {
      await rightMayCome.opened;
      yield { order_id: 1, status: "packed" };
      yield { order_id: 1, status: "shipped" };
    }
    tEnv.createTemporaryView("Shipments", env.fromAsyncIterable(() => shipments()), Schema.newBuilder().column("order_id", "INT").column("status", "STRING").build());
    const table = tEnv.sqlQuery("SELECT o.id, o.item, s.status FROM Orders o LEFT JOIN Shipments s ON o.id = s.order_id");
    const lines = await changelogOf(table, (so) => {
      if (so.length === 2) rightMayCome.open();
    });
    expect(lines).toEqual([
      "+I[1, apple, null]",
      "+I[2, pear, null]",
      // the first match of order 1 retracts its NULL-padded row; the second adds a row
      "-D[1, apple, null]",
      "+I[1, apple, packed]",
      "+I[1, apple, shipped]",
    ]);
  });
});

describe("regular LEFT JOIN over a changelog", () => {
  it("retracting the only match brings the NULL-padded row back", async () => {
    const { env, tEnv } = environments();
    const rightMayCome = gate();
    tEnv.createTemporaryView("Orders", env.fromCollection([{ id: 1, item: "apple" }]), Schema.newBuilder().column("id", "INT").column("item", "STRING").build());
    async function* shipments() {
      await rightMayCome.opened;
      yield Row.ofKind("+I", 1, "packed");
      yield Row.ofKind("-D", 1, "packed");
    }
    const schema = Schema.newBuilder().column("order_id", "INT").column("status", "STRING").build();
    tEnv.createTemporaryView("Shipments", tEnv.fromChangelogStream(env.fromAsyncIterable(() => shipments()), schema));
    const table = tEnv.sqlQuery("SELECT o.id, o.item, s.status FROM Orders o LEFT JOIN Shipments s ON o.id = s.order_id");
    const lines = await changelogOf(table, (so) => {
      if (so.length === 1) rightMayCome.open();
    });
    expect(lines).toEqual(["+I[1, apple, null]", "-D[1, apple, null]", "+I[1, apple, packed]", "-D[1, apple, packed]", "+I[1, apple, null]"]);
  });
});

describe("window aggregation (TUMBLE)", () => {
  it("emits each window's final row once when the watermark passes its end, and drops a row for a fired window", async () => {
    // periodic watermarks: the rows up to 08:21 let the watermark (08:20:59) pass the first two windows
    const { env, tEnv } = environments(10);
    const windowsFired = gate();
    async function* bids() {
      yield { bidtime: "2020-04-15 08:05", price: "4.00", item: "C" };
      yield { bidtime: "2020-04-15 08:07", price: "2.00", item: "A" };
      yield { bidtime: "2020-04-15 08:11", price: "3.00", item: "B" };
      yield { bidtime: "2020-04-15 08:21", price: "1.00", item: "E" };
      await windowsFired.opened;
      yield { bidtime: "2020-04-15 08:09", price: "5.00", item: "D" }; // late: [08:00, 08:10) fired
      yield { bidtime: "2020-04-15 08:24", price: "6.00", item: "F" };
    }
    tEnv.createTemporaryView(
      "Bid",
      env.fromAsyncIterable(() => bids()),
      Schema.newBuilder()
        .column("bidtime", "TIMESTAMP(3)")
        .column("price", "DECIMAL(10, 2)")
        .column("item", "STRING")
        .watermark("bidtime", "bidtime - INTERVAL '1' SECOND")
        .build(),
    );
    const table = tEnv.sqlQuery(`SELECT window_start, window_end, SUM(price) AS total_price, COUNT(*) AS cnt
      FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
      GROUP BY window_start, window_end`);
    const lines = await changelogOf(table, (so) => {
      if (so.length === 2) windowsFired.open();
    });
    expect(lines).toEqual([
      "+I[2020-04-15T08:00, 2020-04-15T08:10, 6.00, 2]",
      "+I[2020-04-15T08:10, 2020-04-15T08:20, 3.00, 1]",
      "+I[2020-04-15T08:20, 2020-04-15T08:30, 7.00, 2]",
    ]);
  });
});
