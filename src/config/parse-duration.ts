/**
 * Flink's duration text for options such as `source.monitor-interval`: a
 * number and an optional unit, `'1 s'`, `'500 ms'`, `'1 min'`, `'2h'`.
 */

const UNIT_MS: Record<string, number> = {};
for (const [ms, names] of [
  [86_400_000, ["d", "day", "days"]],
  [3_600_000, ["h", "hour", "hours"]],
  [60_000, ["min", "m", "minute", "minutes"]],
  [1_000, ["s", "sec", "secs", "second", "seconds"]],
  [1, ["ms", "milli", "millis", "millisecond", "milliseconds"]],
  [0.001, ["µs", "us", "micro", "micros", "microsecond", "microseconds"]],
  [0.000001, ["ns", "nano", "nanos", "nanosecond", "nanoseconds"]],
] as const) {
  for (const n of names) UNIT_MS[n] = ms;
}

/**
 * The duration `text` denotes, in milliseconds (a number without a unit is
 * milliseconds, as in Flink), or `undefined` when it is not a duration. Units
 * are case-insensitive.
 *
 * @example
 * ```ts
 * parseDuration("1 min"); // 60000
 * parseDuration("500 ms"); // 500
 * parseDuration("1 fortnight"); // undefined
 * ```
 */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+)\s*([^\d\s]*)\s*$/u.exec(text);
  if (m === null) return undefined;
  const unit = m[2]!.toLowerCase();
  const factor = unit === "" ? 1 : UNIT_MS[unit];
  return factor === undefined ? undefined : Number(m[1]) * factor;
}
