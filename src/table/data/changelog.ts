/**
 * Materializing a changelog: folding a sequence of {@link Row}s (`+I`, `-U`,
 * `+U`, `-D`) into the table it describes, which a continuous query's result
 * must equal at any moment (the batch result over the input so far).
 *
 * - {@link MultisetTable}: retract mode. `+I`/`+U` add one copy of the row,
 *   `-U`/`-D` remove one copy of an equal row (fields compared with
 *   `IS NOT DISTINCT FROM`); removing a row that is not there is an error
 *   naming it, since a correct retract changelog never does.
 * - {@link UpsertTable}: upsert mode by a unique key. `+I`/`+U` put the row
 *   under its key, `-D` deletes the key (an error if absent), `-U` is ignored
 *   (upsert streams need no before-image).
 *
 * Tables hold copies of the fields with kind `+I`, in first-insertion order.
 *
 * @example
 * ```ts
 * const t = new MultisetTable();
 * t.applyAll([Row.of("Mary", 1), Row.of("Bob", 1),
 *   Row.ofKind("-U", "Mary", 1), Row.ofKind("+U", "Mary", 2)]);
 * t.rows().map((r) => Row.toString(r)); // ["+I[Bob, 1]", "+I[Mary, 2]"]
 * ```
 */
import { copyPlainData } from "../../state/plain-copy.ts";
import { compareForSort } from "../types/sql-compare.ts";
import type { SqlValue, ValueFormat } from "../types/sql-value.ts";
import { sqlValueKey } from "../types/sql-value-key.ts";
import { Row } from "./row.ts";
import { isAccumulate } from "./row-kind.ts";

/** Thrown when a changelog retracts a row (or deletes a key) that the table does not hold. */
export class ChangelogRetractionError extends Error {
  constructor(
    readonly row: Row,
    readonly position: number,
    detail: string,
  ) {
    super(`changelog entry #${position} ${Row.toString(row)} ${detail}`);
    this.name = "ChangelogRetractionError";
  }
}

interface Entry {
  readonly fields: SqlValue[];
  count: number;
}

/** A retract-mode changelog folded into a multiset of rows. */
export class MultisetTable {
  private readonly entries = new Map<string, Entry>();
  private applied = 0;
  private total = 0;

  /**
   * Applies one change.
   *
   * @throws ChangelogRetractionError when `-U`/`-D` retracts a row the table does not hold
   */
  apply(row: Row): void {
    const position = this.applied++;
    const key = sqlValueKey(row.fields);
    const entry = this.entries.get(key);
    if (isAccumulate(row.kind)) {
      if (entry === undefined) this.entries.set(key, { fields: copyPlainData(row.fields), count: 1 });
      else entry.count++;
      this.total++;
      return;
    }
    if (entry === undefined) throw new ChangelogRetractionError(row, position, "retracts a row that is not in the table");
    if (--entry.count === 0) this.entries.delete(key);
    this.total--;
  }

  /** Applies changes in order (see {@link apply}). */
  applyAll(rows: Iterable<Row>): this {
    for (const r of rows) this.apply(r);
    return this;
  }

  /** Number of rows, duplicates counted. */
  get size(): number {
    return this.total;
  }

  /** The rows (`+I`, each duplicate repeated), in first-insertion order. */
  rows(): Row[] {
    const out: Row[] = [];
    for (const e of this.entries.values()) for (let i = 0; i < e.count; i++) out.push({ kind: "+I", fields: copyPlainData(e.fields) });
    return out;
  }

  /** The rows sorted by their fields (NULLs first): one order for comparing with another engine's result. */
  sortedRows(): Row[] {
    return sortRows(this.rows());
  }
}

/** An upsert-mode changelog folded by a unique key (the positions of the key fields). */
export class UpsertTable {
  private readonly byKey = new Map<string, SqlValue[]>();
  private applied = 0;

  /** @param keyFields - positions of the key's fields in each row, e.g. `[0]` */
  constructor(private readonly keyFields: readonly number[]) {
    if (keyFields.length === 0) throw new Error("an upsert table needs at least one key field");
  }

  /**
   * Applies one change.
   *
   * @throws ChangelogRetractionError when `-D` deletes a key the table does not hold
   */
  apply(row: Row): void {
    const position = this.applied++;
    const key = sqlValueKey(this.keyFields.map((i) => row.fields[i] ?? null));
    switch (row.kind) {
      case "+I":
      case "+U":
        this.byKey.set(key, copyPlainData(row.fields));
        return;
      case "-D":
        if (!this.byKey.delete(key)) throw new ChangelogRetractionError(row, position, "deletes a key that is not in the table");
        return;
      case "-U":
        return;
    }
  }

  /** Applies changes in order (see {@link apply}). */
  applyAll(rows: Iterable<Row>): this {
    for (const r of rows) this.apply(r);
    return this;
  }

  /** Number of keys. */
  get size(): number {
    return this.byKey.size;
  }

  /** The current row of each key (`+I`), in order of first insertion of the key. */
  rows(): Row[] {
    return [...this.byKey.values()].map((fields) => ({ kind: "+I", fields: copyPlainData(fields) }));
  }

  /** The rows sorted by their fields (NULLs first). */
  sortedRows(): Row[] {
    return sortRows(this.rows());
  }
}

/** Rows sorted by their fields, position by position (NULLs first); the kinds are kept. */
export function sortRows(rows: readonly Row[]): Row[] {
  return [...rows].sort((a, b) => compareForSort(a.fields, b.fields));
}

/**
 * A changelog as Flink's `print` connector writes it: one `+I[Mary, 1]` line
 * per row, each prefixed with `identifier> ` when an identifier is given.
 *
 * @example
 * ```ts
 * formatChangelog([Row.of("Mary", 1), Row.ofKind("-U", "Mary", 1)]); // "+I[Mary, 1]\n-U[Mary, 1]"
 * ```
 */
export function formatChangelog(
  rows: Iterable<Row>,
  options: { readonly identifier?: string; readonly formats?: readonly (ValueFormat | undefined)[] } = {},
): string {
  const prefix = options.identifier === undefined || options.identifier === "" ? "" : `${options.identifier}> `;
  const lines: string[] = [];
  for (const r of rows) lines.push(prefix + Row.toString(r, options.formats));
  return lines.join("\n");
}
