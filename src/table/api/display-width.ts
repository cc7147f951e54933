/**
 * Text measured in terminal columns rather than UTF-16 units: a CJK
 * character or an emoji takes two columns, a combining accent none
 * (`string-width`), so the tables of the SQL client line up whatever the
 * script of their values.
 */
import stringWidth from "string-width";

/**
 * The columns `text` takes on a terminal.
 *
 * @example
 * ```ts
 * displayWidth("日本"); // 4
 * ```
 */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * `text` cut to at most `width` columns, whole characters only, ending in
 * `ellipsis` when cut.
 *
 * @example
 * ```ts
 * cutToWidth("日本語のテキスト", 8, "..."); // "日本..." (7 columns: a third wide character would not fit)
 * ```
 */
export function cutToWidth(text: string, width: number, ellipsis: string): string {
  if (displayWidth(text) <= width) return text;
  const room = width - displayWidth(ellipsis);
  let out = "";
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = displayWidth(segment);
    if (used + w > room) break;
    out += segment;
    used += w;
  }
  return out + ellipsis;
}

/**
 * `text` with spaces before it to fill `width` columns.
 *
 * @example
 * ```ts
 * padStartToWidth("日本", 6); // "  日本"
 * ```
 */
export function padStartToWidth(text: string, width: number): string {
  return " ".repeat(Math.max(0, width - displayWidth(text))) + text;
}
