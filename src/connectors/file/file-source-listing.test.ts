import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDirs } from "../../../test/support/temp-dirs.ts";
import { parseInputPath } from "./file-source-glob.ts";
import { listInputFiles } from "./file-source-listing.ts";

const newDir = tempDirs("weir-listing-");

describe("listInputFiles", () => {
  it("sorts by path, or by modification time (ties by path), never listing hidden files", async () => {
    const dir = newDir();
    const times: [string, number][] = [["part-b-10", 3], ["part-b-2", 2], ["part-a-0", 1], ["part-c-0", 3], [".part-d-0.inprogress", 0], ["_SUCCESS", 0]];
    for (const [name, t] of times) {
      writeFileSync(join(dir, name), name);
      utimesSync(join(dir, name), t, t);
    }
    const names = (paths: string[]) => paths.map((p) => p.slice(dir.length + 1));
    expect(names(await listInputFiles(parseInputPath(dir)))).toEqual(["part-a-0", "part-b-10", "part-b-2", "part-c-0"]);
    expect(names(await listInputFiles(parseInputPath(dir), "modification-time"))).toEqual(["part-a-0", "part-b-2", "part-b-10", "part-c-0"]);
  });
});
