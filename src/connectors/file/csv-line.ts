/**
 * Splits one CSV line into fields (RFC 4180 quoting on a single line): a field
 * that starts with `"` is quoted, may contain the delimiter, and writes a
 * quote as `""`. Pure; no I/O.
 */

/** The outcome of splitting a line: its fields, or why it is malformed. */
export type CsvLineResult = { readonly fields: string[] } | { readonly error: string };

const QUOTE = 34; // "

/**
 * Splits `line` at `delimiter`, honouring quoted fields.
 *
 * @example
 * ```ts
 * parseCsvLine('a,"b,c","say ""hi"""', ","); // { fields: ["a", "b,c", 'say "hi"'] }
 * parseCsvLine('"open', ",");                 // { error: "unterminated quoted field (column 1)" }
 * ```
 */
export function parseCsvLine(line: string, delimiter: string): CsvLineResult {
  const fields: string[] = [];
  const dl = delimiter.length;
  let at = 0;
  for (;;) {
    if (line.charCodeAt(at) === QUOTE) {
      let value = "";
      let from = at + 1;
      for (;;) {
        const q = line.indexOf('"', from);
        if (q < 0) return { error: `unterminated quoted field (column ${fields.length + 1})` };
        value += line.slice(from, q);
        if (line.charCodeAt(q + 1) === QUOTE) {
          value += '"';
          from = q + 2;
          continue;
        }
        at = q + 1;
        break;
      }
      fields.push(value);
      if (at === line.length) return { fields };
      if (!line.startsWith(delimiter, at)) {
        return { error: `unexpected character after closing quote (column ${fields.length})` };
      }
      at += dl;
    } else {
      const d = line.indexOf(delimiter, at);
      if (d < 0) {
        fields.push(line.slice(at));
        return { fields };
      }
      fields.push(line.slice(at, d));
      at = d + dl;
    }
  }
}
