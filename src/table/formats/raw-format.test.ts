import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment } from "../../api/environment.ts";
import { collectSink } from "../../connectors/builtin/collect-sink.ts";
import { tempDirs } from "../../../test/support/temp-dirs.ts";
import { FILESYSTEM_TABLE_FACTORY } from "../connectors/filesystem-table-factory.ts";
import { tableContext } from "../connectors/test-table-context.ts";
import { Row } from "../data/row.ts";
import { RowKind } from "../data/row-kind.ts";
import { decodeText, formatOfTable } from "./test-format-util.ts";

const newDir = tempDirs("weir-raw-");
const ddl = (columns: string, path = "p", options = "") =>
  `CREATE TABLE logs (${columns}) WITH ('connector' = 'filesystem', 'path' = '${path}', 'format' = 'raw'${options})`;

async function readRows(createTable: string): Promise<Row[]> {
  const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
  FILESYSTEM_TABLE_FACTORY.createSource!(tableContext(env, createTable, "src")).produce().sinkTo(collectSink("rows"));
  return (await env.execute("read-raw")).getCollected<Row>("rows");
}

describe("raw format", () => {
  it("reads each line as the value, blank lines included; BYTES as the line's bytes", () => {
    const { format } = formatOfTable(ddl("line STRING"));
    expect(decodeText(format, "GET /a ü\r\n\n{not json}\n")).toEqual([Row.of("GET /a ü"), Row.of(""), Row.of("{not json}")]);
    const bytes = formatOfTable(ddl("b BYTES")).format;
    expect(decodeText(bytes, "\u00ff\n")).toEqual([Row.of(Uint8Array.from([0xc3, 0xbf]))]);
  });

  it("reads a latin-1 file with raw.charset", async () => {
    const file = join(newDir(), "latin1.txt");
    writeFileSync(file, Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x78, 0x0a]));
    expect(await readRows(ddl("line STRING", file, ", 'raw.charset' = 'ISO-8859-1'"))).toEqual([Row.of("café"), Row.of("x")]);
    expect(await readRows(ddl("line STRING", file))).toEqual([Row.of("caf\ufffd"), Row.of("x")]);
  });

  it("round trips through the filesystem connector; NULL is an empty line; a line break in a value fails naming the table", async () => {
    const dir = newDir();
    const env = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    env.enableCheckpointing(20, "exactly-once");
    FILESYSTEM_TABLE_FACTORY.createSink!(tableContext(env, ddl("line STRING", dir), "sink")).consume(env.fromElements(Row.of("a b"), Row.of(null), Row.of("{x}")));
    await env.execute("write-raw");
    const parts = readdirSync(dir);
    expect(parts.map((p) => readFileSync(join(dir, p), "utf8")).join("")).toBe("a b\n\n{x}\n");
    expect(await readRows(ddl("line STRING", dir))).toEqual([Row.of("a b"), Row.of(""), Row.of("{x}")]);

    const failing = StreamExecutionEnvironment.create({ parallelism: 1, autoWatermarkInterval: 0 });
    FILESYSTEM_TABLE_FACTORY.createSink!(tableContext(failing, ddl("line STRING", newDir()), "sink")).consume(failing.fromElements(Row.of("two\nlines")));
    await expect(failing.execute("bad-raw")).rejects.toThrow("Table sink 'default_catalog.default_database.logs' cannot write a row: a 'raw' value holding a line break");
    const { format } = formatOfTable(ddl("line STRING"));
    expect(() => format.encode(Row.ofKind(RowKind.DELETE, "x"))).toThrow("the 'raw' format writes only inserts (+I), got -D[x]");
  }, 30_000);

  it("refuses tables it cannot hold and unknown charsets, naming the option", () => {
    expect(() => formatOfTable(ddl("a STRING, b STRING"))).toThrow("The 'raw' format supports only a single physical column; the table has 2: a, b.");
    expect(() => formatOfTable(ddl("n INT"))).toThrow("The 'raw' format in files supports a STRING, CHAR, VARCHAR, BYTES, BINARY or VARBINARY column; 'n' is INT.");
    expect(() => formatOfTable(ddl("s STRING", "p", ", 'raw.charset' = 'klingon'"))).toThrow("Invalid value for option 'raw.charset': 'klingon' is not a charset");
    expect(() => formatOfTable(ddl("s STRING", "p", ", 'raw.charset' = 'UTF-16'"))).toThrow("is not ASCII-compatible");
    expect(() => formatOfTable(ddl("s STRING", "p", ", 'raw.endianness' = 'middle'"))).toThrow(
      "Invalid value for option 'raw.endianness': 'middle' (expected one of 'big-endian', 'little-endian').",
    );
    const env = StreamExecutionEnvironment.create({ parallelism: 1 });
    expect(() => FILESYSTEM_TABLE_FACTORY.createSink!(tableContext(env, ddl("b BYTES")))).toThrow("the 'raw' format's BYTES column can be read but not written");
    expect(() => FILESYSTEM_TABLE_FACTORY.createSink!(tableContext(env, ddl("s STRING", "p", ", 'raw.charset' = 'latin1'")))).toThrow(
      "The 'filesystem' sink writes the 'raw' format in UTF-8 only; 'raw.charset' is 'latin1'.",
    );
  });
});
