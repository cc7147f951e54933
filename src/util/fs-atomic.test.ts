import { link, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fsyncDir, fsyncDirSync, moveNoReplace, writeFileAtomic } from "./fs-atomic.ts";

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
    expect(() => fsyncDirSync(dir)).not.toThrow();
    expect(() => fsyncDirSync(join(dir, "nope"))).toThrow(expect.objectContaining({ code: "ENOENT" }));
  });
});

describe("moveNoReplace", () => {
  const [from, to] = [".a.pending", "a"];

  it("moves a file to a free name", async () => {
    await writeFile(join(dir, from), "new");
    expect(await moveNoReplace(join(dir, from), join(dir, to))).toBe("moved");
    expect(await readdir(dir)).toEqual([to]);
    expect(await readFile(join(dir, to), "utf8")).toBe("new");
  });

  it("never replaces another file at the target, and changes nothing", async () => {
    await writeFile(join(dir, from), "new");
    await writeFile(join(dir, to), "old");
    expect(await moveNoReplace(join(dir, from), join(dir, to))).toBe("target-exists");
    expect((await readdir(dir)).sort()).toEqual([from, to]);
    expect(await readFile(join(dir, to), "utf8")).toBe("old");
  });

  it("finishes a move interrupted between its link and its unlink", async () => {
    await writeFile(join(dir, from), "new");
    await link(join(dir, from), join(dir, to));
    expect(await moveNoReplace(join(dir, from), join(dir, to))).toBe("moved");
    expect(await readdir(dir)).toEqual([to]);
    expect((await stat(join(dir, to))).nlink).toBe(1);
  });

  it("finishes an interrupted move whose directory was copied since (two files, the same bytes), and refuses other bytes", async () => {
    await writeFile(join(dir, from), "new");
    await writeFile(join(dir, to), "new");
    expect(await moveNoReplace(join(dir, from), join(dir, to))).toBe("moved");
    expect(await readdir(dir)).toEqual([to]);
    await writeFile(join(dir, ".b.pending"), "newer");
    await writeFile(join(dir, "b"), "new!!");
    expect(await moveNoReplace(join(dir, ".b.pending"), join(dir, "b"))).toBe("target-exists");
  });

  it("reports a move done before, and a source that is gone with no target", async () => {
    await writeFile(join(dir, to), "new");
    expect(await moveNoReplace(join(dir, from), join(dir, to))).toBe("already-moved");
    expect(await moveNoReplace(join(dir, ".b.pending"), join(dir, "b"))).toBe("source-missing");
    expect(await readdir(dir)).toEqual([to]);
  });
});
