/**
 * "Did you mean …?" for a mistyped key or flag: the known name within a small
 * edit distance of what was typed.
 */

/**
 * The Levenshtein distance between `a` and `b` (insertions, deletions and
 * substitutions each cost 1).
 *
 * @example
 * ```ts
 * editDistance("kitten", "sitting"); // 3
 * ```
 */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur.push(Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The candidate `input` is most likely a typo of: the nearest one ignoring
 * case, at most 2 edits away (1 for inputs of up to 5 characters), or
 * `undefined`. Ties go to the earlier candidate; `input` itself is never suggested.
 *
 * @example
 * ```ts
 * didYouMean("execution.checkpointing.intervall", ["execution.checkpointing.interval", "pipeline.name"]);
 * // "execution.checkpointing.interval"
 * didYouMean("pipeline.jars", ["pipeline.name"]); // undefined
 * ```
 */
export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  const limit = input.length <= 5 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    if (c === input) continue;
    const d = editDistance(input.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
