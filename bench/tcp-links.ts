/**
 * Section `keyed-count-tcp` of the bench: the keyed count (bench/jobs/keyed-count.ts)
 * on 2 worker threads linked by TCP over 127.0.0.1 — the data plane between task
 * manager processes (src/runtime/channel/tcp-link.ts) — against the same 2 workers
 * linked by shared memory, `TCP_ROUNDS` rounds in alternating order (the machine's
 * speed drifts: each TCP run is compared with the shared-memory run next to it).
 * The figure is the CPU time of the whole process per record in the steady state:
 * on a loaded machine it moves far less than the throughput. About half the
 * records cross between the two workers (parallelism 4, two subtasks each).
 *
 * @example
 * ```ts
 * const f = await measureTcpLinks(console.error, 2_000_000, 10_000);
 * console.log(formatTcpLinks(f)); // the rounds and the median ratios
 * ```
 */
import { runKeyedCount, type KeyedCountParams } from "./jobs/keyed-count.ts";
import { BenchIntegrityError } from "./integrity-error.ts";
import { median, table } from "./report.ts";

/** Rounds of shared memory and TCP (odd, so that the median is one of them). */
const TCP_ROUNDS = 3;
const PARALLELISM = 4;
/** Records of a run without `--records`. */
export const TCP_DEFAULT_RECORDS = 3_000_000;

/** One run's steady figures. */
export interface TcpRunFigures {
  readonly cpuNsPerRecord: number;
  readonly steadyRecordsPerSecond: number;
}

/** The rounds and the medians of TCP / shared memory. */
export interface TcpLinkFigures {
  readonly records: number;
  readonly keys: number;
  readonly rounds: readonly { readonly threads: TcpRunFigures; readonly tcp: TcpRunFigures }[];
  /** Median over the rounds of CPU per record across TCP / across threads. */
  readonly cpuRatio: number;
  /** Median over the rounds of steady records/s across TCP / across threads. */
  readonly steadyRatio: number;
}

/** Measures the rounds (after one warm-up run of each kind). */
export async function measureTcpLinks(progress: (line: string) => void, records: number, keys: number): Promise<TcpLinkFigures> {
  const run = async (links: "shared-memory" | "tcp", label: string): Promise<TcpRunFigures> => {
    progress(`keyed count, 2 workers linked by ${label} (${records.toLocaleString("en-US")} records, ${keys.toLocaleString("en-US")} keys)`);
    const params: KeyedCountParams = { records, keys, parallelism: PARALLELISM, workers: 2, checkpointIntervalMs: 0, links };
    const m = await runKeyedCount(params);
    if (m.received !== records) throw new BenchIntegrityError(`2 workers linked by ${label}`, "records the sinks received", records, m.received);
    if (!m.steady || m.steadyCpuMs === undefined) throw new RangeError(`the run over ${label} had no steady state: give it more records (--records)`);
    return { cpuNsPerRecord: (m.steadyCpuMs * 1e6) / m.steady.records, steadyRecordsPerSecond: m.steady.recordsPerSecond };
  };
  const threads = () => run("shared-memory", "shared memory");
  const tcp = () => run("tcp", "TCP");
  await threads();
  await tcp();
  const rounds: { threads: TcpRunFigures; tcp: TcpRunFigures }[] = [];
  for (let i = 0; i < TCP_ROUNDS; i++) {
    if (i % 2 === 0) {
      const t = await threads();
      rounds.push({ threads: t, tcp: await tcp() });
    } else {
      const c = await tcp();
      rounds.push({ threads: await threads(), tcp: c });
    }
  }
  return {
    records,
    keys,
    rounds,
    cpuRatio: median(rounds.map((r) => r.tcp.cpuNsPerRecord / r.threads.cpuNsPerRecord)),
    steadyRatio: median(rounds.map((r) => r.tcp.steadyRecordsPerSecond / r.threads.steadyRecordsPerSecond)),
  };
}

/** The rounds as a table, then the medians. */
export function formatTcpLinks(f: TcpLinkFigures): string {
  const ns = (v: number) => v.toFixed(0);
  const rate = (v: number) => Math.round(v).toLocaleString("en-US");
  return [
    `keyed count on 2 workers linked by shared memory and by TCP (127.0.0.1), no checkpoints, ${f.records.toLocaleString("en-US")} records, ${f.keys.toLocaleString("en-US")} keys, parallelism ${PARALLELISM}:`,
    table(
      ["round", "CPU ns/record, threads", "CPU ns/record, TCP", "TCP / threads", "steady rec/s, threads", "steady rec/s, TCP"],
      f.rounds.map((r, i) => [
        String(i + 1),
        ns(r.threads.cpuNsPerRecord),
        ns(r.tcp.cpuNsPerRecord),
        (r.tcp.cpuNsPerRecord / r.threads.cpuNsPerRecord).toFixed(3),
        rate(r.threads.steadyRecordsPerSecond),
        rate(r.tcp.steadyRecordsPerSecond),
      ]),
    ),
    `median TCP / threads: CPU per record ${f.cpuRatio.toFixed(3)}, steady throughput ${f.steadyRatio.toFixed(3)}`,
  ].join("\n");
}
