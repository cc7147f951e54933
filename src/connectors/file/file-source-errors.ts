/**
 * Errors of the file source that a user can cause: a malformed record in an
 * input file, or an input path that does not exist or cannot be read.
 */

/** Longest excerpt of an offending record quoted in an error message. */
const MAX_EXCERPT = 200;

/** Shortens `text` for an error message, marking the cut with an ellipsis. */
export function excerpt(text: string): string {
  return text.length <= MAX_EXCERPT ? text : `${text.slice(0, MAX_EXCERPT)}…`;
}

/**
 * A record of an input file could not be parsed (bad JSON line, wrong CSV
 * column count, unterminated quote). Fails the job unless the source was
 * created with `onMalformed: "dead-letter"`.
 *
 * @example
 * ```ts
 * // in/orders-2.jsonl:17: invalid JSON (Expected double-quoted property name in JSON at position 15): {"customer": 1,}
 * err instanceof FileSourceParseError && console.error(err.file, err.line, err.reason);
 * ```
 */
export class FileSourceParseError extends Error {
  override readonly name = "FileSourceParseError";

  /**
   * @param file path of the input file, as the source spells it
   * @param line 1-based line number of the record
   * @param reason what is wrong with the record
   * @param text the offending record (quoted truncated in the message)
   */
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
    readonly text: string,
  ) {
    super(`${file}:${line}: ${reason}: ${excerpt(text)}`);
  }
}

/**
 * The configured input path cannot be listed or a discovered file cannot be
 * read (missing path, permission denied, file deleted while being read).
 */
export class FileSourcePathError extends Error {
  override readonly name = "FileSourcePathError";

  /**
   * @param path the path that failed
   * @param problem what went wrong
   */
  constructor(
    readonly path: string,
    problem: string,
    options?: { cause?: unknown },
  ) {
    super(`file source: ${path}: ${problem}`, options);
  }
}
