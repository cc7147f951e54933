import { describe, expect, it } from "vitest";
import { csvField, rowEncoder } from "./file-sink-encoder.ts";
import { FileSinkOptionError } from "./file-sink-errors.ts";

describe("row encoders", () => {
  it("encodes lines and JSON lines", () => {
    expect(rowEncoder<number>("/o", "lines").encode(42)).toBe("42\n");
    expect(rowEncoder<object>("/o", "jsonl").encode({ a: [1, "x"] })).toBe('{"a":[1,"x"]}\n');
  });

  it("encodes csv from arrays, objects (columns or own keys) and scalars, with a header from the first record", () => {
    const e = rowEncoder<unknown>("/o", "csv", { header: true });
    expect(e.encode(["a", null, 3])).toBe("a,,3\n");
    expect(e.encode({ x: 1, y: "two" })).toBe("1,two\n");
    expect(e.header({ x: 1, y: "two" })).toBe("x,y\n");
    expect(rowEncoder<unknown>("/o", "csv", { columns: ["y"] }).encode({ x: 1, y: "line\nbreak" })).toBe('"line\nbreak"\n');
    expect(rowEncoder<unknown>("/o", "csv").header({ x: 1 })).toBeNull();
    expect(rowEncoder<unknown>("/o", "csv").encode([""])).toBe('""\n'); // not an empty line, which a reader skips
    expect(rowEncoder<unknown>("/o", "csv").encode(["", ""])).toBe(",\n");
  });

  it("quotes only when needed", () => {
    expect(csvField("plain", ",")).toBe("plain");
    expect(csvField("a,b", ",")).toBe('"a,b"');
    expect(csvField("a,b", "\t")).toBe("a,b");
    expect(csvField({ k: 1 }, ",")).toBe('"{""k"":1}"');
  });

  it("rejects a bad delimiter and an unknown format, naming the path", () => {
    expect(() => rowEncoder("/o", "csv", { delimiter: ";;" })).toThrow(FileSinkOptionError);
    expect(() => rowEncoder("/o", "parquet" as "csv")).toThrow(/file sink '\/o': unknown format 'parquet'/);
  });
});
