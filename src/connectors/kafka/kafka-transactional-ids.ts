/**
 * The transactional ids of the exactly-once Kafka sink, `${prefix}-${subtaskIndex}-${n}`, and the pure
 * decision which open transactions found on the brokers a subtask aborts at start.
 */
import { caresFor } from "../transactional/transaction-state.ts";

/**
 * The transactional id of the `n`-th transaction of subtask `subtaskIndex`.
 *
 * @example
 * ```ts
 * transactionalId("orders-out", 1, 7); // "orders-out-1-7"
 * ```
 */
export function transactionalId(prefix: string, subtaskIndex: number, n: number): string {
  return `${prefix}-${subtaskIndex}-${n}`;
}

/**
 * The subtask index and counter of an id made by {@link transactionalId} with this `prefix`, or undefined
 * for any other id (another job's prefix, a longer prefix that starts with this one).
 *
 * @example
 * ```ts
 * parseTransactionalId("orders", "orders-1-7"); // { subtask: 1, n: 7 }
 * parseTransactionalId("orders", "orders-eu-1-7"); // undefined
 * ```
 */
export function parseTransactionalId(prefix: string, id: string): { subtask: number; n: number } | undefined {
  if (!id.startsWith(`${prefix}-`)) return undefined;
  const m = /^(\d+)-(\d+)$/.exec(id.slice(prefix.length + 1));
  return m === null ? undefined : { subtask: Number(m[1]), n: Number(m[2]) };
}

/**
 * The ids among `ongoing` (open transactions listed by the brokers) that subtask `subtaskIndex` of
 * `parallelism` aborts at start: made with this prefix, by an old subtask `i` with
 * `i % parallelism === subtaskIndex` (each is aborted by exactly one subtask, also after a rescale), and
 * not one of `keep` (the transactions of the restored checkpoint, which recovery commits).
 *
 * @example
 * ```ts
 * lingeringIds("p", 0, 2, ["p-0-3", "p-1-3", "p-2-9", "q-0-1"], new Set(["p-0-3"])); // ["p-2-9"]
 * ```
 */
export function lingeringIds(prefix: string, subtaskIndex: number, parallelism: number, ongoing: Iterable<string>, keep: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const id of ongoing) {
    const parsed = parseTransactionalId(prefix, id);
    if (parsed !== undefined && !keep.has(id) && caresFor(subtaskIndex, parallelism, parsed.subtask)) out.push(id);
  }
  return out.sort();
}
