/**
 * "Did you mean" suggestions for unknown columns, functions and tables.
 */

/**
 * The candidate closest to `name` by edit distance (case-insensitive), if
 * it is close enough to be a plausible typo (at most a third of the name's
 * length, at least 1, or a case-only difference).
 *
 * @example
 * ```ts
 * nearestName("usr", ["user", "url"]); // "user"
 * ```
 */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(name.length / 3));
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase());
    if (d <= bestDistance && (best === undefined || d < bestDistance)) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}
