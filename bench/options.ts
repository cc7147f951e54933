/**
 * The command line of `npm run bench`: `--records N` fixes the size of the
 * keyed-count runs, `--only a,b` runs only the named sections.
 */

/** The sections of the bench, in the order they run. */
export const BENCH_SECTIONS = ["keyed-count", "file", "event-time", "object-state", "nexmark", "recovery"] as const;
export type BenchSection = (typeof BENCH_SECTIONS)[number];

/** What one `npm run bench` should do. */
export interface BenchOptions {
  /** Records of each measured keyed-count run; undefined sizes them from the warm-up. */
  readonly records: number | undefined;
  /** Sections to run (all of them without `--only`). */
  readonly sections: ReadonlySet<BenchSection>;
}

/**
 * Reads the bench's arguments.
 *
 * @throws RangeError for a `--records` that is not a positive integer, or an unknown section in `--only`
 * @example
 * ```ts
 * parseBenchOptions(["--only", "object-state"]).sections; // Set { "object-state" }
 * parseBenchOptions(["--records", "20000000"]).records;   // 20_000_000
 * ```
 */
export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  return { records: recordsOption(argv), sections: sectionsOption(argv) };
}

function recordsOption(argv: readonly string[]): number | undefined {
  const i = argv.indexOf("--records");
  if (i < 0) return undefined;
  const n = Number(argv[i + 1]);
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`--records must be a positive integer, got '${argv[i + 1] ?? ""}'`);
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
