/**
 * The command line of `npm run bench`: `--records N` fixes the size of the
 * keyed-count runs, `--keys a,b` sets their key counts, `--only a,b` runs
 * only the named sections (`keyed-count-tcp`: 2 workers linked by TCP vs by shared memory, sized by `--records`
 * and the first of `--keys`; `cluster`: task manager processes vs one process, its keyed count sized by `--records` and its q5
 * by `--nexmark-events`), `--nexmark-events N` fixes the size of the runs of
 * the DataStream Nexmark queries and their SQL twins (section `nexmark`; a quick
 * try of the section), `--nexmark-sql-events N` the size of the
 * runs of the published Nexmark SQL queries (section `nexmark-sql`, also part of `nexmark`),
 * `--nexmark-queries q5,q7` runs only the named Nexmark queries in those sections (a quick look at a few),
 * `--state-bytes a,b` the keyed state sizes of the `state` section (checkpoint
 * cost at each, recovery at the largest) and `--state-keys a,b` the key counts
 * of its throughput runs.
 */

import { NEXMARK_SQL_QUERIES, type NexmarkSqlQueryName } from "./jobs/nexmark/sql-queries.ts";

/** The sections of the bench, in the order they run. */
export const BENCH_SECTIONS = ["startup", "keyed-count", "keyed-count-tcp", "cluster", "file", "event-time", "object-state", "async-io", "nexmark", "nexmark-sql", "recovery", "state", "kafka", "postgres"] as const;
export type BenchSection = (typeof BENCH_SECTIONS)[number];

/** Key counts of the keyed-count runs without `--keys`: a state that fits the CPU caches, and a large one. */
export const DEFAULT_KEYED_COUNT_KEYS: readonly number[] = [10_000, 1_000_000];

/** Keyed state sizes of the `state` section without `--state-bytes`, in bytes (10^6). */
export const DEFAULT_STATE_BYTES: readonly number[] = [100e6, 1e9];

/** Key counts of the `state` section's throughput runs (heap vs disk) without `--state-keys`. */
export const DEFAULT_STATE_KEYS: readonly number[] = [10_000, 10_000_000];

/** What one `npm run bench` should do. */
export interface BenchOptions {
  /** Records of each measured keyed-count run; undefined sizes them from the warm-up. */
  readonly records: number | undefined;
  /** Key counts of the keyed-count runs: the whole plan runs at the first, in-process runs at the others. */
  readonly keys: readonly number[];
  /** Sections to run (all of them without `--only`). */
  readonly sections: ReadonlySet<BenchSection>;
  /** Events of each measured run of a DataStream Nexmark query and its SQL twin; undefined sizes them from sizing runs. */
  readonly nexmarkEvents: number | undefined;
  /** Events of each run of a published Nexmark SQL query; undefined sizes them from a sizing run. */
  readonly nexmarkSqlEvents: number | undefined;
  /** The Nexmark queries the `nexmark` and `nexmark-sql` sections run (in the bench's order); undefined: all of them. */
  readonly nexmarkQueries: readonly NexmarkSqlQueryName[] | undefined;
  /** Keyed state sizes of the `state` section's checkpoint runs, in bytes, ascending; recovery runs at the largest. */
  readonly stateBytes: readonly number[];
  /** Key counts of the `state` section's throughput runs. */
  readonly stateKeys: readonly number[];
}

/**
 * Reads the bench's arguments.
 *
 * @throws RangeError for a `--records` that is not a positive integer, a `--keys`, `--state-keys` or `--state-bytes` that is not a list of them, an unknown section in `--only` or an unknown query in `--nexmark-queries`
 * @example
 * ```ts
 * parseBenchOptions(["--only", "object-state"]).sections; // Set { "object-state" }
 * parseBenchOptions(["--records", "20000000"]).records;   // 20_000_000
 * parseBenchOptions(["--keys", "1000000"]).keys;           // [1_000_000]
 * parseBenchOptions(["--only", "nexmark-sql", "--nexmark-sql-events", "20000"]).nexmarkSqlEvents; // 20_000
 * parseBenchOptions(["--only", "nexmark", "--nexmark-events", "100000"]).nexmarkEvents; // 100_000
 * parseBenchOptions(["--only", "nexmark", "--nexmark-queries", "q7,q5"]).nexmarkQueries; // ["q5", "q7"]
 * parseBenchOptions(["--only", "state", "--state-bytes", "10e6,50e6"]).stateBytes; // [10_000_000, 50_000_000]
 * ```
 */
export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  return {
    records: countOption(argv, "--records"),
    keys: listOption(argv, "--keys", DEFAULT_KEYED_COUNT_KEYS),
    sections: sectionsOption(argv),
    nexmarkEvents: countOption(argv, "--nexmark-events"),
    nexmarkSqlEvents: countOption(argv, "--nexmark-sql-events"),
    nexmarkQueries: nexmarkQueriesOption(argv),
    stateBytes: [...listOption(argv, "--state-bytes", DEFAULT_STATE_BYTES)].sort((a, b) => a - b),
    stateKeys: listOption(argv, "--state-keys", DEFAULT_STATE_KEYS),
  };
}

/** A comma-separated list of distinct positive integers (`1e6` notation allowed), or `fallback` without the option. */
function listOption(argv: readonly string[], name: string, fallback: readonly number[]): readonly number[] {
  const i = argv.indexOf(name);
  if (i < 0) return fallback;
  const values = (argv[i + 1] ?? "").split(",").map((v) => (v.trim() === "" ? Number.NaN : Number(v)));
  if (!values.every((n) => Number.isSafeInteger(n) && n >= 1) || new Set(values).size !== values.length)
    throw new RangeError(`${name} takes a comma-separated list of distinct positive integers, got '${argv[i + 1] ?? ""}'`);
  return values;
}

function countOption(argv: readonly string[], name: string): number | undefined {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const n = Number(argv[i + 1]);
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`${name} must be a positive integer, got '${argv[i + 1] ?? ""}'`);
  return n;
}

function sectionsOption(argv: readonly string[]): ReadonlySet<BenchSection> {
  const i = argv.indexOf("--only");
  if (i < 0) return new Set(BENCH_SECTIONS);
  const names = (argv[i + 1] ?? "").split(",").filter((s) => s !== "");
  const unknown = names.filter((s) => !(BENCH_SECTIONS as readonly string[]).includes(s));
  if (names.length === 0 || unknown.length > 0)
    throw new RangeError(`--only takes a comma-separated list of ${BENCH_SECTIONS.join(", ")}; got '${argv[i + 1] ?? ""}'`);
  return new Set(names as BenchSection[]);
}

function nexmarkQueriesOption(argv: readonly string[]): readonly NexmarkSqlQueryName[] | undefined {
  const i = argv.indexOf("--nexmark-queries");
  if (i < 0) return undefined;
  const names = new Set((argv[i + 1] ?? "").split(",").filter((s) => s !== ""));
  const unknown = [...names].filter((q) => !(NEXMARK_SQL_QUERIES as readonly string[]).includes(q));
  if (names.size === 0 || unknown.length > 0)
    throw new RangeError(`--nexmark-queries takes a comma-separated list of ${NEXMARK_SQL_QUERIES.join(", ")}; got '${argv[i + 1] ?? ""}'`);
  return NEXMARK_SQL_QUERIES.filter((q) => names.has(q));
}
