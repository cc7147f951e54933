/**
 * Input files placed for a file source's readers: a name that a source of
 * `readers` readers gives to a chosen reader, and writing a file so that a
 * continuous source never sees half of it.
 */
import { renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { bucketOf } from "../../src/connectors/file/file-source-split.ts";

/** A file name `<prefix>-<i>.<ext>` in `dir` that a source of `readers` readers gives to reader `bucket`. */
export function nameFor(dir: string, prefix: string, ext: string, bucket: number, readers: number): string {
  for (let i = 0; ; i++) {
    const path = join(dir, `${prefix}-${i}.${ext}`);
    if (bucketOf(path, readers) === bucket) return path;
  }
}

/** Writes `text` under a hidden name, then renames it to `path`: a continuous source never sees half a file. */
export function publish(path: string, text: string): void {
  const hidden = join(dirname(path), `.${basename(path)}`);
  writeFileSync(hidden, text);
  renameSync(hidden, path);
}
