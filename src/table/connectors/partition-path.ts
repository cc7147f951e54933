/**
 * The directories of a partitioned `filesystem` table, as Flink names them
 * (`PartitionPathUtils`): one `key=value` directory per partition column, in
 * `PARTITIONED BY` order (`dt=2020-05-01/hr=09/`), characters that cannot be
 * in a path escaped as `%XX`, a NULL or empty value as the default
 * partition name (`__DEFAULT_PARTITION__`).
 */

/** Flink's characters escaped in partition names: control characters, DEL and the ones in this class. */
const ESCAPED = /[\u0001-\u001f"#%'*/:=?\\\u007f{[\]^]/g;

/**
 * A partition column's name or value as it appears in a path.
 *
 * @example
 * ```ts
 * escapePathName("2020-05-01 10:00"); // "2020-05-01 10%3A00"
 * ```
 */
export function escapePathName(text: string): string {
  return text.replace(ESCAPED, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

/** The text an escaped path name stands for (`%XX` sequences decoded). */
export function unescapePathName(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The relative directory of a partition: `k1=v1/k2=v2`; `null` and `""`
 * values are `defaultName`.
 *
 * @example
 * ```ts
 * partitionPath(["dt", "hr"], ["2020-05-01", null], "__DEFAULT_PARTITION__"); // "dt=2020-05-01/hr=__DEFAULT_PARTITION__"
 * ```
 */
export function partitionPath(keys: readonly string[], values: readonly (string | null)[], defaultName: string): string {
  return keys.map((k, i) => `${escapePathName(k)}=${values[i] === null || values[i] === "" ? defaultName : escapePathName(values[i]!)}`).join("/");
}

/**
 * The partition values of a file from its path relative to the table's
 * directory: every `key=value` directory, unescaped; `undefined` for a key
 * the path does not have.
 *
 * @example
 * ```ts
 * partitionValuesOf("dt=2020-05-01/hr=09/part-0.json"); // Map { "dt" => "2020-05-01", "hr" => "09" }
 * ```
 */
export function partitionValuesOf(relativePath: string): Map<string, string> {
  const values = new Map<string, string>();
  const dirs = relativePath.split(/[/\\]/).slice(0, -1);
  for (const dir of dirs) {
    const eq = dir.indexOf("=");
    if (eq > 0) values.set(unescapePathName(dir.slice(0, eq)), unescapePathName(dir.slice(eq + 1)));
  }
  return values;
}
