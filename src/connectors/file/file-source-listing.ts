/**
 * Lists the files of a file source's input path (I/O at the edge; the
 * decisions are in `file-source-glob.ts` and `file-source-discovery.ts`).
 */

import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { FileSourcePathError } from "./file-source-errors.ts";
import type { InputPath } from "./file-source-glob.ts";

/** Hidden and in-progress files (`.part`, `_SUCCESS`, …) are never read from a directory or glob. */
export function isHidden(name: string): boolean {
  return name.startsWith(".") || name.startsWith("_");
}

/**
 * The order in which a reader takes the files of one listing: by path, or by
 * last modification (then path), which is the order in which a writer such as
 * the file sink finished them.
 */
export type FileOrder = "path" | "modification-time";

/**
 * The regular files of `input`, sorted by `order`: the file itself; or every
 * non-hidden file below the directory (recursively, hidden directories
 * skipped); or the non-hidden files matching the glob. A glob whose base
 * directory does not exist matches nothing.
 *
 * @throws FileSourcePathError when a file or directory path does not exist or cannot be read
 */
export async function listInputFiles(input: InputPath, order: FileOrder = "path"): Promise<string[]> {
  const found: string[] = [];
  if (input.match) {
    if (await isDirectory(input.base, true)) await walk(input.base, "", 0, input, found);
  } else if (await isDirectory(input.base, false)) {
    await walk(input.base, "", 0, input, found);
  } else found.push(input.base);
  found.sort();
  return order === "path" ? found : byModificationTime(found);
}

/** `paths` (sorted) ordered by last modification, ties by path; a file gone since listed goes last (reading it reports the error). */
async function byModificationTime(paths: string[]): Promise<string[]> {
  const times = await Promise.all(paths.map((p) => stat(p).then((s) => s.mtimeMs, () => Number.POSITIVE_INFINITY)));
  const order = paths.map((_, i) => i).sort((a, b) => times[a]! - times[b]! || a - b);
  return order.map((i) => paths[i]!);
}

async function isDirectory(path: string, missingOk: boolean): Promise<boolean> {
  try {
    const s = await stat(path);
    if (!s.isFile() && !s.isDirectory()) throw new FileSourcePathError(path, "neither a regular file nor a directory");
    return s.isDirectory();
  } catch (e) {
    if (e instanceof FileSourcePathError) throw e;
    if (missingOk && (e as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw new FileSourcePathError(path, (e as Error).message, { cause: e });
  }
}

async function walk(dir: string, rel: string, depth: number, input: InputPath, found: string[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    throw new FileSourcePathError(dir, (e as Error).message, { cause: e });
  }
  for (const e of entries) {
    if (isHidden(e.name)) continue;
    const path = join(dir, e.name);
    const relPath = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (input.match === undefined || depth < input.maxDepth) await walk(path, relPath, depth + 1, input, found);
    } else if (e.isFile() || (e.isSymbolicLink() && (await isFileLink(path)))) {
      if (input.match === undefined || input.match(relPath)) found.push(path);
    }
  }
}

async function isFileLink(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false; // a dangling link is not an input file
  }
}
