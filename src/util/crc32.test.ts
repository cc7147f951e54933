import { describe, expect, it } from "vitest";
import { crc32, crc32Hex } from "./crc32.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("crc32", () => {
  it("matches the standard check value", () => {
    expect(crc32(bytes("123456789"))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  it("is incremental over chunks", () => {
    expect(crc32(bytes("56789"), crc32(bytes("1234")))).toBe(crc32(bytes("123456789")));
  });

  it("formats as 8 hex digits", () => {
    expect(crc32Hex(0xcbf43926)).toBe("cbf43926");
    expect(crc32Hex(0x1f)).toBe("0000001f");
  });
});
