/**
 * The result of one run of a Nexmark query, whatever ran it: the rows, their
 * digest (the sum of the row digests mod 2^32, so independent of order and
 * of how the rows were split between sink subtasks), and optionally the rows
 * themselves and latencies.
 */
export interface QueryResult {
  readonly rows: number;
  readonly digest: number;
}

/** Adds up the results of several sink subtasks. */
export function combineResults(parts: readonly QueryResult[]): QueryResult {
  let rows = 0;
  let digest = 0;
  for (const p of parts) {
    rows += p.rows;
    digest = (digest + p.digest) >>> 0;
  }
  return { rows, digest };
}

/**
 * Rows of `actual` and `expected` that the other lacks (as a multiset of their JSON),
 * at most `limit` of each, for a check and its message.
 */
export function rowDifference(expected: readonly unknown[], actual: readonly unknown[], limit = 3): { missing: string[]; unexpected: string[]; count: number } {
  const counts = new Map<string, number>();
  for (const r of expected) {
    const k = JSON.stringify(r);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const unexpected: string[] = [];
  let count = 0;
  for (const r of actual) {
    const k = JSON.stringify(r);
    const c = counts.get(k) ?? 0;
    if (c > 0) counts.set(k, c - 1);
    else {
      count++;
      if (unexpected.length < limit) unexpected.push(k);
    }
  }
  const missing: string[] = [];
  for (const [k, c] of counts) {
    count += c;
    if (c > 0 && missing.length < limit) missing.push(k);
  }
  return { missing, unexpected, count };
}
