/**
 * The marker lines that bench/jobs/keyed-payload.ts writes to stderr and that
 * bench/recovery.ts reads: `MARKER_PREFIX` followed by one JSON object.
 */

/** Start of every marker line. */
export const MARKER_PREFIX = "weir-bench-marker ";

/**
 * A marker of the keyed-payload job, with `Date.now()` of the moment: `module`
 * when the job module starts in the client process, `first-record` when the
 * first record after a restore is processed (with whether its key found its
 * state restored).
 */
export type PayloadMarker =
  | { readonly event: "module"; readonly at: number }
  | { readonly event: "first-record"; readonly at: number; readonly keyRestored: boolean };

/**
 * The line that carries `marker`, without its line break.
 *
 * @example
 * ```ts
 * process.stderr.write(`${markerLine({ event: "module", at: Date.now() })}\n`);
 * ```
 */
export function markerLine(marker: PayloadMarker): string {
  return `${MARKER_PREFIX}${JSON.stringify(marker)}`;
}

/**
 * The marker in `line`, or undefined when the line is not a marker line.
 *
 * @example
 * ```ts
 * parseMarker('weir-bench-marker {"event":"module","at":5}'); // { event: "module", at: 5 }
 * ```
 */
export function parseMarker(line: string): PayloadMarker | undefined {
  return line.startsWith(MARKER_PREFIX) ? (JSON.parse(line.slice(MARKER_PREFIX.length)) as PayloadMarker) : undefined;
}
