/**
 * The pure part of the bench's `startup` section (bench/startup.ts): the
 * ratios of each case to `node -e ""` and its table. No I/O, no clock.
 */
import { table } from "./report.ts";

/** One measured start: a command run once to its end. */
export interface StartupCase {
  /** The command, as a user types it (e.g. `weir run trivial.ts --workers 2`). */
  readonly label: string;
  /** From spawn to exit. */
  readonly wallMs: number;
  /** User + system CPU time of the process, all its threads (what load on the machine does not inflate). */
  readonly cpuMs: number;
  /** Largest resident set of the process, in bytes. */
  readonly maxRssBytes: number;
}

/** Everything the `startup` section measured; `cases[0]` is the baseline, `node -e ""`. */
export interface StartupFigures {
  /** What the jobs do (one line). */
  readonly job: string;
  readonly cases: readonly StartupCase[];
}

/**
 * The section's ratios: wall time, CPU time and largest resident set of each
 * case over those of the baseline (`cases[0]`).
 *
 * @example
 * ```ts
 * startupRatios({ job: "", cases: [{ label: 'node -e ""', wallMs: 40, cpuMs: 30, maxRssBytes: 40e6 }, { label: "weir run trivial.mjs", wallMs: 120, cpuMs: 90, maxRssBytes: 60e6 }] });
 * // { "start-up wall: weir run trivial.mjs / node -e \"\"": 3, "start-up CPU: …": 3, "start-up RSS: …": 1.5 }
 * ```
 */
export function startupRatios(s: StartupFigures): Record<string, number> {
  const [base, ...rest] = s.cases;
  const ratios: Record<string, number> = {};
  if (!base) return ratios;
  for (const c of rest) {
    ratios[`start-up wall: ${c.label} / ${base.label}`] = c.wallMs / base.wallMs;
    ratios[`start-up CPU: ${c.label} / ${base.label}`] = c.cpuMs / base.cpuMs;
    ratios[`start-up RSS: ${c.label} / ${base.label}`] = c.maxRssBytes / base.maxRssBytes;
  }
  return ratios;
}

/** The section's table: each case with its figures and their ratios to the baseline. */
export function formatStartup(s: StartupFigures): string {
  const base = s.cases[0];
  const ratio = (v: number, b: number | undefined) => (b ? `${(v / b).toFixed(1)}×` : "-");
  return [
    `start-up: one run of each command to its end (${s.job}); ratios to ${base?.label ?? "-"}`,
    "",
    table(
      ["command", "wall", "CPU", "max RSS", "wall ×", "CPU ×", "RSS ×"],
      s.cases.map((c) => [
        c.label,
        `${Math.round(c.wallMs)} ms`,
        `${Math.round(c.cpuMs)} ms`,
        `${Math.round(c.maxRssBytes / 1e6)} MB`,
        ratio(c.wallMs, base?.wallMs),
        ratio(c.cpuMs, base?.cpuMs),
        ratio(c.maxRssBytes, base?.maxRssBytes),
      ]),
    ),
  ].join("\n");
}
