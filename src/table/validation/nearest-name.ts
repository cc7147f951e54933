/**
 * "Did you mean" suggestions for unknown names: the candidate with the
 * smallest edit distance, when it is close enough to be a plausible typo.
 */

/**
 * The Levenshtein distance between `a` and `b` (insertions, deletions and
 * substitutions each cost 1).
 *
 * @example
 * ```ts
 * editDistance("ctime", "cTime"); // 1
 * ```
 */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur.push(Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The candidate nearest to `name`, or `undefined` when none is within a third
 * of the name's length (at least 1, and a case-only difference always counts).
 * Among case-only differences the one with fewer changed letters wins; ties go
 * to the earlier candidate.
 *
 * @example
 * ```ts
 * nearestName("usr", ["user", "url", "cTime"]); // "user"
 * ```
 */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const distance = editDistance(name, c);
    const d = c.toLowerCase() === name.toLowerCase() ? distance / (name.length + 1) : distance;
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** `" Did you mean 'x'?"` for the nearest candidate, or `""` when there is none. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const n = nearestName(name, candidates);
  return n === undefined ? "" : ` Did you mean '${n}'?`;
}
