/**
 * Names of the file sink's part files: committed `part-<uid>-<subtask>-<n><ext>`
 * and hidden in-progress/pending `.part-<uid>-<subtask>-<n><ext>.inprogress.<token>`.
 */

/** What makes the part file names of one sink. */
export interface PartFileNaming {
  readonly prefix: string;
  /** Operator uid, made safe for file names. */
  readonly uid: string;
  readonly extension: string;
}

/** The naming of a sink with `prefix`, operator `uid` and `extension` (uid characters outside `[A-Za-z0-9_.-]` become `_`). */
export function partFileNaming(prefix: string, uid: string, extension: string): PartFileNaming {
  return { prefix, uid: uid.replace(/[^A-Za-z0-9_.-]/g, "_"), extension };
}

/**
 * The committed name of part `n` of `subtask`.
 *
 * @example
 * ```ts
 * partFileName(partFileNaming("part", "sink-3", ".csv"), 1, 7); // "part-sink-3-1-7.csv"
 * ```
 */
export function partFileName(naming: PartFileNaming, subtask: number, n: number): string {
  return `${naming.prefix}-${naming.uid}-${subtask}-${n}${naming.extension}`;
}

/** The hidden name of a part while in progress or pending; `token` makes every attempt's file distinct. */
export function inProgressFileName(finalName: string, token: string): string {
  return `.${finalName}.inprogress.${token}`;
}

/**
 * The subtask and part number of a hidden in-progress/pending file of this
 * sink, or null for any other file (committed parts, other sinks' files).
 */
export function parseInProgressFileName(naming: PartFileNaming, fileName: string): { subtask: number; n: number } | null {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`^\\.${esc(naming.prefix)}-${esc(naming.uid)}-(\\d+)-(\\d+)${esc(naming.extension)}\\.inprogress\\.[A-Za-z0-9]+$`);
  const m = re.exec(fileName);
  return m ? { subtask: Number(m[1]), n: Number(m[2]) } : null;
}
