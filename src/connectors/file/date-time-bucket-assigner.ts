/**
 * The date-time bucket assigner of the file sink (Flink's
 * `DateTimeBucketAssigner(format, zoneId)`): one bucket per period of the
 * processing time or of the record's own time, formatted in any IANA time
 * zone. The calendar fields come from `Intl.DateTimeFormat`, so offsets and
 * daylight-saving changes are the time-zone database's.
 */
import type { BucketAssigner } from "./bucket-assigner.ts";

/** Options of a {@link DateTimeBucketAssigner}. */
export interface DateTimeBucketOptions<T> {
  /** Event time of a record in epoch ms; default: the processing time (the sink's clock). */
  timestampOf?: (record: T) => number;
}

/** Pattern letters and the `Intl` part each one shows, with its width. */
const FIELDS = {
  yyyy: ["year", 4],
  yy: ["year", 2],
  MM: ["month", 2],
  dd: ["day", 2],
  HH: ["hour", 2],
  mm: ["minute", 2],
  ss: ["second", 2],
  SSS: ["fractionalSecond", 3],
} as const satisfies Record<string, readonly [Intl.DateTimeFormatPartTypes, number]>;
type Field = keyof typeof FIELDS;
/** Literal text, or a calendar field. */
type Part = string | { readonly field: Field };

const TOKENS = /yyyy|yy|MM|dd|HH|mm|ss|SSS|'[^']*'/g;

/**
 * Buckets records by a formatted date and time, e.g. `2024-03-31--03` for the
 * default pattern `yyyy-MM-dd--HH` (Flink's default). Pattern letters:
 * `yyyy yy MM dd HH mm ss SSS`; text in single quotes and every other
 * character is copied as is (`/` makes nested directories). The zone is an
 * IANA id (default `"UTC"`); pass `Intl.DateTimeFormat().resolvedOptions().timeZone`
 * for the machine's own. Across a daylight-saving change the local hours are
 * used as they are: spring forward skips a bucket, fall back writes the
 * repeated hour's records into one bucket.
 *
 * @throws RangeError for a zone id that is not an IANA time zone
 * @example
 * ```ts
 * import { DateTimeBucketAssigner, FileSink } from "weirjs";
 * FileSink.forRows<{ at: number }>("out", {
 *   format: "jsonl",
 *   bucketAssigner: new DateTimeBucketAssigner("yyyy-MM-dd/HH", "Europe/Berlin", { timestampOf: (e) => e.at }),
 * });
 * ```
 */
export class DateTimeBucketAssigner<T> implements BucketAssigner<T> {
  private readonly parts: readonly Part[];
  private readonly formatter: Intl.DateTimeFormat;
  private readonly timestampOf: ((record: T) => number) | undefined;
  /** The last formatted second and its text (records come in bursts of the same second). */
  private lastSecond = Number.NaN;
  private lastText = "";
  private readonly perMillisecond: boolean;

  constructor(
    readonly format = "yyyy-MM-dd--HH",
    readonly zoneId = "UTC",
    options: DateTimeBucketOptions<T> = {},
  ) {
    this.parts = compile(format);
    this.perMillisecond = this.parts.some((p) => typeof p !== "string" && p.field === "SSS");
    this.timestampOf = options.timestampOf;
    try {
      this.formatter = new Intl.DateTimeFormat("en-US", {
        timeZone: zoneId,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
        fractionalSecondDigits: 3,
      });
    } catch (e) {
      throw new RangeError(
        `DateTimeBucketAssigner: unknown time zone ${JSON.stringify(zoneId)}; give an IANA zone id such as "Europe/Berlin", "America/New_York" or "UTC"`,
        { cause: e },
      );
    }
  }

  bucketId(record: T, processingTime: number): string {
    return this.formatTime(this.timestampOf ? this.timestampOf(record) : processingTime);
  }

  /** `time` (epoch ms) formatted with the pattern in the zone. */
  formatTime(time: number): string {
    // Zone offsets are whole seconds: within one second only the milliseconds change.
    const second = Math.floor(time / 1000);
    if (second === this.lastSecond && !this.perMillisecond) return this.lastText;
    const values: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
    for (const p of this.formatter.formatToParts(time)) values[p.type] = p.value;
    let text = "";
    for (const part of this.parts) {
      if (typeof part === "string") text += part;
      else {
        const [type, width] = FIELDS[part.field];
        const value = values[type] ?? "";
        text += width === 2 && type === "year" ? value.slice(-2).padStart(2, "0") : value.padStart(width, "0");
      }
    }
    this.lastSecond = second;
    this.lastText = text;
    return text;
  }
}

/** The pattern as literal text and field letters, in order. */
function compile(pattern: string): Part[] {
  const parts: Part[] = [];
  let at = 0;
  for (const m of pattern.matchAll(TOKENS)) {
    if (m.index > at) parts.push(pattern.slice(at, m.index));
    parts.push(m[0].startsWith("'") ? m[0].slice(1, -1) : { field: m[0] as Field });
    at = m.index + m[0].length;
  }
  if (at < pattern.length) parts.push(pattern.slice(at));
  return parts;
}
