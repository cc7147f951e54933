/**
 * The changelog mode of a node of a query plan: which row kinds its output
 * stream may carry (Flink's `ChangelogMode`). Insert-only streams carry `+I`
 * alone; retract streams carry every kind, an update as `-U` then `+U`;
 * upsert streams carry `+I`, `+U` and `-D` keyed by a unique key and never
 * `-U`.
 *
 * @example
 * ```ts
 * formatChangelogMode(ChangelogMode.RETRACT); // "I,UB,UA,D"
 * ChangelogMode.isInsertOnly(ChangelogMode.INSERT_ONLY); // true
 * ```
 */
import { RowKind } from "../data/row-kind.ts";

/** The row kinds a stream may carry, in Flink's order `+I -U +U -D`. */
export interface ChangelogMode {
  readonly kinds: readonly RowKind[];
}

const ORDER: readonly RowKind[] = [RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE];
const SHORT: Readonly<Record<RowKind, string>> = { "+I": "I", "-U": "UB", "+U": "UA", "-D": "D" };

function of(...kinds: RowKind[]): ChangelogMode {
  return { kinds: ORDER.filter((k) => kinds.includes(k)) };
}

function contains(mode: ChangelogMode, kind: RowKind): boolean {
  return mode.kinds.includes(kind);
}

function isInsertOnly(mode: ChangelogMode): boolean {
  return mode.kinds.length === 1 && mode.kinds[0] === RowKind.INSERT;
}

/** The union of two modes: what a stream merging both may carry. */
function union(a: ChangelogMode, b: ChangelogMode): ChangelogMode {
  return of(...a.kinds, ...b.kinds);
}

/** Flink's constants and helpers over {@link ChangelogMode}. */
export const ChangelogMode = {
  INSERT_ONLY: of(RowKind.INSERT),
  RETRACT: of(RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE),
  UPSERT: of(RowKind.INSERT, RowKind.UPDATE_AFTER, RowKind.DELETE),
  of,
  contains,
  isInsertOnly,
  union,
} as const;

/** The mode as `EXPLAIN CHANGELOG_MODE` prints it: `I,UB,UA,D`. */
export function formatChangelogMode(mode: ChangelogMode): string {
  return mode.kinds.map((k) => SHORT[k]).join(",");
}
