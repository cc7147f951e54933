import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fsyncDir, writeFileAtomic } from "./fs-atomic.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "weir-fs-atomic-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("writeFileAtomic", () => {
  it("creates a file with exactly the bytes and leaves no temp file", async () => {
    const path = join(dir, "a.bin");
    await writeFileAtomic(path, new Uint8Array([1, 2, 3, 250]));
    expect([...(await readFile(path))]).toEqual([1, 2, 3, 250]);
    expect(await readdir(dir)).toEqual(["a.bin"]);
  });

  it("replaces an existing file", async () => {
    const path = join(dir, "a.txt");
    await writeFile(path, "old content that is longer");
    await writeFileAtomic(path, "new");
    expect(await readFile(path, "utf8")).toBe("new");
    expect(await readdir(dir)).toEqual(["a.txt"]);
  });

  it("fails without touching anything when the directory does not exist", async () => {
    await expect(writeFileAtomic(join(dir, "missing", "a.txt"), "x")).rejects.toMatchObject({ code: "ENOENT" });
    expect(await readdir(dir)).toEqual([]);
  });

  it("removes the temp file when the rename fails", async () => {
    // A non-empty directory cannot be replaced by a file: the rename fails.
    const target = join(dir, "target");
    await mkdir(target);
    await writeFile(join(target, "inner"), "");
    await expect(writeFileAtomic(target, "data")).rejects.toThrow();
    expect(await readdir(dir)).toEqual(["target"]);
  });
});

describe("fsyncDir", () => {
  it("syncs an existing directory and rejects a missing one", async () => {
    await expect(fsyncDir(dir)).resolves.toBeUndefined();
    await expect(fsyncDir(join(dir, "nope"))).rejects.toMatchObject({ code: "ENOENT" });
  });
});
