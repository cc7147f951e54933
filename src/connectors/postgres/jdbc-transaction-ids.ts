/**
 * The global ids of the exactly-once JDBC sink's prepared transactions,
 * `${prefix}-${subtask}-${run}-${attempt}-${n}`: unique across subtasks (subtask index), jobs and runs (the
 * prefix, and `run`, from the run's job id), attempts of a run (attempt number) and transactions of an
 * attempt (`n`). A transaction that an earlier process sent `PREPARE TRANSACTION` for just before it died
 * can therefore never be taken for one of a later attempt. And the pure decision which prepared
 * transactions found on the server a subtask rolls back at start.
 */
import { caresFor } from "../transactional/transaction-state.ts";

/**
 * The id of the `n`-th transaction of a subtask in an attempt of a run.
 *
 * @example
 * ```ts
 * preparedTransactionId("orders", 1, "3f2a9c01d4e5", 0, 7); // "orders-1-3f2a9c01d4e5-0-7"
 * ```
 */
export function preparedTransactionId(prefix: string, subtask: number, run: string, attempt: number, n: number): string {
  return `${prefix}-${subtask}-${run}-${attempt}-${n}`;
}

/** The short run id of a job id (its first 12 hex digits). */
export function runOf(jobId: string): string {
  const hex = jobId.replace(/[^0-9a-fA-F]/g, "").toLowerCase();
  return (hex === "" ? "0" : hex).slice(0, 12);
}

/**
 * The subtask of an id made by {@link preparedTransactionId} with this `prefix`, or undefined for any
 * other id (another prefix, also a longer one that starts with this one).
 *
 * @example
 * ```ts
 * parsePreparedTransactionId("orders", "orders-1-3f2a9c01d4e5-0-7"); // { subtask: 1 }
 * parsePreparedTransactionId("orders", "orders-eu-1-3f2a9c01d4e5-0-7"); // undefined
 * ```
 */
export function parsePreparedTransactionId(prefix: string, gid: string): { subtask: number } | undefined {
  if (!gid.startsWith(`${prefix}-`)) return undefined;
  const m = /^(\d+)-[0-9a-f]+-\d+-\d+$/.exec(gid.slice(prefix.length + 1));
  return m === null ? undefined : { subtask: Number(m[1]) };
}

/**
 * The ids among `prepared` that subtask `subtask` of `parallelism` rolls back at start: this prefix's, of
 * an old subtask in its care (each id is rolled back by exactly one subtask, also after a rescale), and
 * not in `keep` (the restored checkpoint's pending transactions, which recovery commits).
 *
 * @example
 * ```ts
 * leftoverIds("p", 0, 2, ["p-0-aa-0-3", "p-1-aa-0-3", "p-2-aa-1-0", "q-0-aa-0-1"], new Set(["p-0-aa-0-3"])); // ["p-2-aa-1-0"]
 * ```
 */
export function leftoverIds(prefix: string, subtask: number, parallelism: number, prepared: Iterable<string>, keep: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const gid of prepared) {
    const parsed = parsePreparedTransactionId(prefix, gid);
    if (parsed !== undefined && !keep.has(gid) && caresFor(subtask, parallelism, parsed.subtask)) out.push(gid);
  }
  return out.sort();
}
