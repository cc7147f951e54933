/**
 * "Did you mean …?" for a mistyped name: the closest of the known names by
 * edit distance (insertions, deletions, substitutions and swaps of two
 * neighbouring characters each count 1; case is ignored).
 */

/**
 * The candidate closest to `input`, if it is close enough to be a likely typo
 * (at most a third of `input`'s length away, at least 1, and less than half of
 * the longer name's length: `-x` is not a typo of `-p`); `undefined` when none
 * is (or `input` is one of them as given).
 *
 * @example
 * ```ts
 * didYouMean("--paralelism", ["--parallelism", "--workers"]); // "--parallelism"
 * didYouMean("rn", ["run", "sql", "demo"]);                     // "run"
 * didYouMean("deploy", ["run", "sql", "demo"]);                 // undefined
 * ```
 */
export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  if (candidates.includes(input)) return undefined;
  const limit = Math.max(1, Math.floor(input.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    const d = editDistance(input.toLowerCase(), c.toLowerCase());
    if (d < bestDistance && 2 * d < Math.max(input.length, c.length)) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** Optimal string alignment distance between `a` and `b`. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row.push(d);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
