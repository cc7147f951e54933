/**
 * Why a directory cannot be used to write in, before anything is written: a
 * file stands in its place (or in the place of a folder above it), or the
 * nearest existing folder refuses a probe file. Used by the checkpoint
 * storage's start-up check and by the run's directory locks, which create the
 * directory first.
 *
 * @example
 * ```ts
 * const problem = directoryProblem("/data/checkpoints"); // "is a file, not a directory", or undefined
 * if (problem) throw new Error(`checkpoint directory /data/checkpoints ${problem}`);
 * ```
 */
import { randomBytes } from "node:crypto";
import { statSync, unlinkSync, writeFileSync, type Stats } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** What is wrong with `directory` (to follow its name in a message), or undefined when it exists or can be created and written in. */
export function directoryProblem(directory: string): string | undefined {
  const target = resolve(directory);
  let existing = target;
  for (;;) {
    const info = statOrNothing(existing);
    if (info?.isDirectory()) break;
    if (info) return existing === target ? "is a file, not a directory" : `cannot be created: ${existing} is a file, not a directory`;
    if (dirname(existing) === existing) return undefined;
    existing = dirname(existing);
  }
  const probe = join(existing, `.weir-probe-${randomBytes(6).toString("hex")}`);
  try {
    writeFileSync(probe, "");
    unlinkSync(probe);
    return undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "EACCES" && code !== "EPERM" && code !== "EROFS") throw e;
    return `is not writable${existing === target ? "" : ` (it would be created in ${existing})`}: ${code}`;
  }
}

/** `path`'s stats, or undefined when nothing is there (also when a file stands where a folder on its way should be). */
function statOrNothing(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
    throw e;
  }
}

/** A directory a run needs cannot be used: the message names it and says why. */
export class UnusableDirectoryError extends Error {
  override readonly name = "UnusableDirectoryError";

  constructor(
    /** What the directory is for, e.g. "checkpoint directory". */
    readonly what: string,
    /** Its absolute path. */
    readonly directory: string,
    /** What is wrong with it ({@link directoryProblem}). */
    readonly reason: string,
  ) {
    super(`${what} ${directory} ${reason}`);
  }
}
