/**
 * SQL values to and from a real PostgreSQL: every mapped type written with `pgParam`, read back as text
 * and converted with `fromPgText`, equals what was written; the declared-type check against the catalog.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeTable } from "../../src/connectors/postgres/postgres-table-schema.ts";
import { checkPgColumns, PostgresSchemaError } from "../../src/table/connectors/postgres-columns.ts";
import { fromPgText, pgParam, pgTypeFits, TEXT_PARSERS } from "../../src/table/connectors/postgres-values.ts";
import { decimal } from "../../src/table/types/decimal.ts";
import type { LogicalType } from "../../src/table/types/logical-type.ts";
import type { SqlValue } from "../../src/table/types/sql-value.ts";
import { startPostgres, type PostgresServer } from "../support/postgres-server.ts";

const t = (kind: string, extra: Record<string, unknown> = {}): LogicalType => ({ kind, nullable: true, ...extra }) as LogicalType;

const COLUMNS: [string, string, LogicalType, SqlValue[]][] = [
  ["b", "boolean", t("boolean"), [true, false]],
  ["s", "smallint", t("smallint"), [-32768, 32767]],
  ["i", "integer", t("int"), [-2147483648, 2147483647]],
  ["l", "bigint", t("bigint"), [-(2n ** 63n), 2n ** 63n - 1n]],
  ["f", "real", t("float"), [Math.fround(1.5), Math.fround(-3.25e10)]],
  ["d", "double precision", t("double"), [0.1, -1e300]],
  ["n", "numeric(12,3)", t("decimal", { precision: 12, scale: 3 }), [decimal(123456789012n, 3), decimal(-5n, 3)]],
  ["v", "character varying(20)", t("varchar", { length: 20 }), ["héllo, \"world\"", ""]],
  ["x", "text", t("varchar", { length: 2147483647 }), ["a\nb\\c", "日本語 😀"]],
  ["y", "bytea", t("varbinary", { length: 2147483647 }), [new Uint8Array([0, 1, 255]), new Uint8Array([])]],
  ["dt", "date", t("date"), [0, 19_000]],
  ["tm", "time without time zone", t("time", { precision: 3 }), [0, 86_399_999]],
  ["ts", "timestamp without time zone", t("timestamp", { precision: 3, withLocalTimeZone: false }), [1_700_000_000_123, -1]],
  ["tz", "timestamp with time zone", t("timestamp", { precision: 3, withLocalTimeZone: true }), [1_700_000_000_123, 0]],
  ["a", "integer[]", t("array", { element: t("int") }), [[1, null, 3], []]],
  ["sa", "text[]", t("array", { element: t("varchar", { length: 2147483647 }) }), [["a b", 'c"d', "NULL", ""], ["x"]]],
];

describe("PostgreSQL values", () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
    await server.query(`CREATE TABLE everything (id int PRIMARY KEY, ${COLUMNS.map(([n, ty]) => `${n} ${ty}`).join(", ")})`);
  });
  afterAll(() => server?.stop());

  it("round-trips every mapped type through pgParam and fromPgText, NULL included", async () => {
    const client = new pg.Client(server.config());
    await client.connect();
    // A session in another time zone: timestamptz text carries an offset that fromPgText applies.
    await client.query("SET TIME ZONE 'Asia/Kolkata'");
    try {
      const names = COLUMNS.map(([n]) => n);
      const insert = `INSERT INTO everything (id, ${names.join(", ")}) VALUES ($1, ${names.map((_, i) => `$${i + 2}`).join(", ")})`;
      for (let row = 0; row < 3; row++) {
        const values = COLUMNS.map(([, , type, vs]) => (row < 2 ? pgParam(vs[row]!, type) : null));
        await client.query(insert, [row, ...values]);
      }
      const read = await client.query({ text: `SELECT ${names.join(", ")} FROM everything ORDER BY id`, types: TEXT_PARSERS, rowMode: "array" });
      read.rows.forEach((fields: (string | null)[], row: number) => {
        COLUMNS.forEach(([name, , type, vs], c) => {
          expect(fromPgText(fields[c]!, type), `${name} row ${row}`).toEqual(row < 2 ? vs[row] : null);
        });
      });
    } finally {
      await client.end();
    }
  });

  it("describes a table and checks declared columns for reading and writing", async () => {
    const client = new pg.Client(server.config());
    await client.connect();
    try {
      const schema = (await describeTable(client, "everything"))!;
      expect(schema.primaryKey).toEqual(["id"]);
      expect(schema.columns.find((c) => c.name === "n")?.type).toBe("numeric(12,3)");
      expect(await describeTable(client, "public.nothing_here")).toBeUndefined();
      checkPgColumns("t", schema, { names: ["l", "i", "tz"], types: [t("bigint"), t("bigint"), t("timestamp", { precision: 3, withLocalTimeZone: true })] }, "read");
      expect(() => checkPgColumns("t", schema, { names: ["i"], types: [t("bigint")] }, "write")).toThrow(/column 'i': BIGINT values do not fit in integer/);
      expect(() => checkPgColumns("t", schema, { names: ["nope", "b"], types: [t("int"), t("varchar", { length: 5 })] }, "read")).toThrow(PostgresSchemaError);
      expect(() => checkPgColumns("t", schema, { names: ["nope"], types: [t("int")] }, "read")).toThrow(/column 'nope' does not exist in public.everything/);
    } finally {
      await client.end();
    }
  });

  it("decides which types fit", () => {
    expect(pgTypeFits("numeric(10,2)", t("decimal", { precision: 12, scale: 2 }), "read")).toBeUndefined();
    expect(pgTypeFits("numeric(10,2)", t("decimal", { precision: 12, scale: 2 }), "write")).toMatch(/do not fit/);
    expect(pgTypeFits("numeric", t("decimal", { precision: 38, scale: 6 }), "write")).toBeUndefined();
    expect(pgTypeFits("numeric(12,2)", t("int"), "write")).toBeUndefined();
    expect(pgTypeFits("numeric(10,4)", t("bigint"), "write")).toMatch(/BIGINT values do not fit in numeric\(10,4\)/);
    expect(pgTypeFits("uuid", t("varchar", { length: 100 }), "read")).toBeUndefined();
    expect(pgTypeFits("my_enum", t("varchar", { length: 100 }), "write")).toBeUndefined();
    expect(pgTypeFits("integer", t("varchar", { length: 100 }), "write")).toMatch(/STRING|VARCHAR/);
    expect(pgTypeFits("timestamp without time zone", t("timestamp", { precision: 3, withLocalTimeZone: true }), "read")).toMatch(/cannot be read/);
  });

  it("refuses text that is not a value of the declared type", () => {
    expect(() => fromPgText("70000", t("smallint"))).toThrow(/out of range/);
    expect(() => fromPgText("abc", t("bigint"))).toThrow(/cannot read PostgreSQL value "abc" as BIGINT/);
  });
});
