import { describe, expect, it } from "vitest";
import { csvFormat } from "./csv-format.ts";

describe("csvFormat", () => {
  it("refuses a delimiter that is empty, holds a quote or a line break, or could match invalid UTF-8 (U+FFFD, a lone surrogate)", () => {
    for (const delimiter of ["", '"', "a\nb", "\r", "\uFFFD", "x\uD800"]) {
      expect(() => csvFormat({ delimiter }), JSON.stringify(delimiter)).toThrow(RangeError);
    }
    for (const delimiter of [",", ";", "\t", "||", "é", "🎉"]) expect(() => csvFormat({ delimiter })).not.toThrow();
  });
});
