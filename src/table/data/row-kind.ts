/**
 * The kind of change a {@link Row} describes in a changelog stream (Flink's
 * `RowKind`). A kind is its short string, so rows print and compare as Flink
 * prints them and stay plain data:
 *
 * | name            | short string | meaning                                   |
 * | --------------- | ------------ | ----------------------------------------- |
 * | `INSERT`        | `+I`         | a new row                                 |
 * | `UPDATE_BEFORE` | `-U`         | retracts the previous row of an update    |
 * | `UPDATE_AFTER`  | `+U`         | the new row of an update                  |
 * | `DELETE`        | `-D`         | retracts a row                            |
 *
 * @example
 * ```ts
 * RowKind.UPDATE_BEFORE;             // "-U"
 * rowKindName(RowKind.UPDATE_AFTER); // "UPDATE_AFTER"
 * ```
 */
export const RowKind = {
  INSERT: "+I",
  UPDATE_BEFORE: "-U",
  UPDATE_AFTER: "+U",
  DELETE: "-D",
} as const;

/** One of `"+I"`, `"-U"`, `"+U"`, `"-D"`. */
export type RowKind = (typeof RowKind)[keyof typeof RowKind];

/** Flink's enum constant name of a kind. */
export type RowKindName = keyof typeof RowKind;

const NAMES: Readonly<Record<RowKind, RowKindName>> = {
  "+I": "INSERT",
  "-U": "UPDATE_BEFORE",
  "+U": "UPDATE_AFTER",
  "-D": "DELETE",
};

/** Flink's name of `kind`: `"+I"` → `"INSERT"`. */
export function rowKindName(kind: RowKind): RowKindName {
  return NAMES[kind];
}

/** True for the four short strings. */
export function isRowKind(v: unknown): v is RowKind {
  return typeof v === "string" && Object.hasOwn(NAMES, v);
}

/**
 * The kind for a short string (`"+U"`) or a Flink name (`"UPDATE_AFTER"`).
 *
 * @throws Error naming the accepted spellings
 * @example
 * ```ts
 * parseRowKind("DELETE"); // "-D"
 * ```
 */
export function parseRowKind(text: string): RowKind {
  if (isRowKind(text)) return text;
  if (Object.hasOwn(RowKind, text)) return RowKind[text as RowKindName];
  throw new Error(`unknown row kind ${JSON.stringify(text)}: expected one of +I, -U, +U, -D or INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE`);
}

/** True for `+I` and `+U`: the row is added to the result (Flink's `isAccumulateMsg`). */
export function isAccumulate(kind: RowKind): boolean {
  return kind === "+I" || kind === "+U";
}

/** True for `-U` and `-D`: the row is retracted from the result (Flink's `isRetractMsg`). */
export function isRetract(kind: RowKind): boolean {
  return kind === "-U" || kind === "-D";
}
