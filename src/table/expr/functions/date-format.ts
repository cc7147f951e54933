/**
 * Date/time patterns as Flink's DATE_FORMAT, TO_TIMESTAMP, TO_DATE,
 * UNIX_TIMESTAMP and FROM_UNIXTIME read them (Java's `SimpleDateFormat` /
 * `DateTimeFormatter` letters): `yyyy-MM-dd HH:mm:ss.SSS`, `'quoted text'`,
 * `''` for a quote. Supported letters: G y Y M L d D E u a H k K h m s S Z X;
 * `S…` is the fraction of the second (java.time's meaning: `SSS` are the
 * milliseconds, `SSSSSS` the microseconds). Month and day names are English.
 * Other letters are rejected with a located error when the pattern is constant.
 *
 * Values are wall-clock epoch milliseconds (a TIMESTAMP value); a zone
 * offset, when given, is only printed by `Z`/`X`. Reading text has a strict
 * and a lenient mode (see {@link ParseMode}).
 */
import { civilFromDays, daysFromCivil, daysInMonth } from "../../types/temporal.ts";

const MS_PER_DAY = 86_400_000;
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const LETTERS = "GyYMLdDEuaHkKhmsSZX";

/** One element of a compiled pattern: a field letter with its repeat count, or literal text. */
type PatternToken = { letter: string; count: number } | { text: string };

/** Thrown for a pattern with a letter that is not supported or an unterminated quote. */
export class DatePatternError extends Error {}

const compiled = new Map<string, PatternToken[]>();

/** The tokens of `pattern` (cached). @throws DatePatternError */
function compileDatePattern(pattern: string): PatternToken[] {
  let tokens = compiled.get(pattern);
  if (tokens !== undefined) return tokens;
  tokens = [];
  for (let i = 0; i < pattern.length;) {
    const ch = pattern[i]!;
    if (ch === "'") {
      if (pattern[i + 1] === "'") { tokens.push({ text: "'" }); i += 2; continue; }
      const end = pattern.indexOf("'", i + 1);
      if (end < 0) throw new DatePatternError(`Unterminated quote in date pattern '${pattern}'`);
      tokens.push({ text: pattern.slice(i + 1, end).replaceAll("''", "'") });
      i = end + 1;
    } else if (/[A-Za-z]/.test(ch)) {
      if (!LETTERS.includes(ch)) throw new DatePatternError(`Illegal pattern character '${ch}' in date pattern '${pattern}'`);
      let j = i;
      while (pattern[j] === ch) j++;
      tokens.push({ letter: ch, count: j - i });
      i = j;
    } else {
      tokens.push({ text: ch });
      i++;
    }
  }
  if (compiled.size > 1000) compiled.clear();
  compiled.set(pattern, tokens);
  return tokens;
}

function adjacent(next: PatternToken | undefined): boolean {
  return next !== undefined && "letter" in next;
}

function pad(n: number, width: number): string {
  const s = String(Math.abs(n)).padStart(width, "0");
  return n < 0 ? "-" + s : s;
}

function offsetText(offsetMs: number, iso: boolean, count: number): string {
  if (iso && offsetMs === 0) return "Z";
  const sign = offsetMs < 0 ? "-" : "+";
  const m = Math.abs(offsetMs) / 60_000;
  const hh = pad(Math.floor(m / 60), 2);
  const mm = pad(m % 60, 2);
  if (iso) return count === 1 ? sign + hh + (m % 60 === 0 ? "" : mm) : count === 2 ? sign + hh + mm : sign + hh + ":" + mm;
  return sign + hh + mm;
}

/**
 * The text of a wall-clock time (epoch ms) in `pattern`.
 *
 * @example
 * ```ts
 * formatWithPattern(parseTimestamp("2020-04-15 08:05:00.123"), "yyyy/MM/dd HH:mm:ss.SSS"); // "2020/04/15 08:05:00.123"
 * ```
 */
export function formatWithPattern(wallMs: number, pattern: string, offsetMs = 0): string {
  const days = Math.floor(wallMs / MS_PER_DAY);
  const msOfDay = wallMs - days * MS_PER_DAY;
  const { year, month, day } = civilFromDays(days);
  const hour = Math.floor(msOfDay / 3_600_000);
  const dow = (((days + 4) % 7) + 7) % 7; // 0 = Sunday
  let out = "";
  for (const t of compileDatePattern(pattern)) {
    if ("text" in t) { out += t.text; continue; }
    const n = t.count;
    switch (t.letter) {
      case "G": out += year > 0 ? "AD" : "BC"; break;
      case "y": case "Y": out += n === 2 ? pad(((year % 100) + 100) % 100, 2) : pad(year, n); break;
      case "M": case "L": out += n >= 4 ? MONTHS[month - 1]! : n === 3 ? MONTHS[month - 1]!.slice(0, 3) : pad(month, n); break;
      case "d": out += pad(day, n); break;
      case "D": out += pad(days - daysFromCivil(year, 1, 1) + 1, n); break;
      case "E": out += n >= 4 ? DAYS[dow]! : DAYS[dow]!.slice(0, 3); break;
      case "u": out += pad(dow === 0 ? 7 : dow, n); break;
      case "a": out += hour < 12 ? "AM" : "PM"; break;
      case "H": out += pad(hour, n); break;
      case "k": out += pad(hour === 0 ? 24 : hour, n); break;
      case "K": out += pad(hour % 12, n); break;
      case "h": out += pad(hour % 12 === 0 ? 12 : hour % 12, n); break;
      case "m": out += pad(Math.floor(msOfDay / 60_000) % 60, n); break;
      case "s": out += pad(Math.floor(msOfDay / 1000) % 60, n); break;
      case "S": out += pad(msOfDay % 1000, 3).padEnd(n, "0").slice(0, n); break;
      case "Z": out += offsetText(offsetMs, false, n); break;
      case "X": out += offsetText(offsetMs, true, n); break;
    }
  }
  return out;
}

/**
 * How text is read: `strict` as java.time's `DateTimeFormatter` (Flink's
 * TO_TIMESTAMP): a field of two or more letters takes exactly that many digits
 * (`yyyy` four or more), the whole text must match, a day past the end of the
 * month (29–31) becomes its last day, other out-of-range values fail.
 * `lenient` as `SimpleDateFormat` (Flink's TO_DATE with a pattern,
 * UNIX_TIMESTAMP): any number of digits unless another numeric field follows
 * directly, text after the pattern is ignored, out-of-range values roll over
 * (month 13 is January of the next year), and `S` counts milliseconds.
 */
export type ParseMode = "strict" | "lenient";

/**
 * The wall-clock time (epoch ms) of `text` read with `pattern`, or null when
 * it does not match. Absent fields default to 1970-01-01 00:00:00.000.
 *
 * @throws DatePatternError for an unsupported pattern
 * @example
 * ```ts
 * parseWithPattern("15/04/2020 08:05", "dd/MM/yyyy HH:mm"); // 1586937900000
 * parseWithPattern("2020-4-15 trailing", "yyyy-MM-dd", "lenient"); // 1586908800000
 * ```
 */
export function parseWithPattern(text: string, pattern: string, mode: ParseMode = "strict"): number | null {
  return parseZonedWithPattern(text, pattern, mode)?.wall ?? null;
}

/**
 * {@link parseWithPattern} that also returns the zone offset the text
 * names with a `Z`/`X` field (`+0800`, `+08:00`, `Z`), when it has one.
 *
 * @example
 * ```ts
 * parseZonedWithPattern("1970-01-01 08:00 +0800", "yyyy-MM-dd HH:mm X", "lenient"); // { wall: 28800000, offsetMs: 28800000 }
 * ```
 */
export function parseZonedWithPattern(text: string, pattern: string, mode: ParseMode = "strict"): { wall: number; offsetMs?: number } | null {
  const lenient = mode === "lenient";
  let offsetMs: number | undefined;
  let year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, ms = 0;
  let pm: boolean | undefined;
  let hour12 = false;
  let pos = 0;
  const digits = (min: number, max: number): number | null => {
    let j = pos;
    while (j < text.length && j - pos < max && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
    if (j - pos < min) return null;
    const v = Number(text.slice(pos, j));
    pos = j;
    return v;
  };
  const name = (names: string[], short: boolean): number | null => {
    for (let i = 0; i < names.length; i++) {
      const w = short ? names[i]!.slice(0, 3) : names[i]!;
      if (text.slice(pos, pos + w.length).toLowerCase() === w.toLowerCase()) { pos += w.length; return i; }
    }
    return null;
  };
  const tokens = compileDatePattern(pattern);
  for (let ti = 0; ti < tokens.length; ti++) {
    const t = tokens[ti]!;
    if ("text" in t) {
      if (!text.startsWith(t.text, pos)) return null;
      pos += t.text.length;
      continue;
    }
    const n = t.count;
    const next = adjacent(tokens[ti + 1]);
    // digits of a numeric field: [min, max]
    const width: [number, number] = lenient ? [1, next ? n : 9] : n >= 2 ? [n, n] : [1, next ? 1 : 9];
    let v: number | null;
    switch (t.letter) {
      case "y": case "Y": {
        const start = pos;
        v = lenient ? digits(1, next ? n : 9) : n === 2 ? digits(2, 2) : digits(Math.max(n, 1), n >= 4 && !next ? 9 : Math.max(n, 4));
        if (v === null) return null;
        // two-digit years (`yy`, or two digits read leniently) are 2000–2099
        year = n === 2 && pos - start === 2 ? 2000 + v : v;
        break;
      }
      case "M": case "L":
        v = n >= 3 ? name(MONTHS, n === 3) : digits(...width);
        if (v === null) return null;
        month = n >= 3 ? v + 1 : v;
        break;
      case "d": v = digits(...width); if (v === null) return null; day = v; break;
      case "H": case "k": v = digits(...width); if (v === null) return null; hour = t.letter === "k" && v === 24 ? 0 : v; break;
      case "h": case "K": v = digits(...width); if (v === null) return null; hour = v % 12; hour12 = true; break;
      case "m": v = digits(...width); if (v === null) return null; minute = v; break;
      case "s": v = digits(...width); if (v === null) return null; second = v; break;
      case "S": {
        const start = pos;
        v = lenient ? digits(...width) : digits(n, n);
        if (v === null) return null;
        ms = lenient ? v : Number(text.slice(start, pos).padEnd(3, "0").slice(0, 3));
        break;
      }
      case "a": {
        const i = name(["AM", "PM"], false);
        if (i === null) return null;
        pm = i === 1;
        break;
      }
      case "E": if (name(DAYS, n < 4) === null) return null; break;
      case "X": case "Z": {
        const m = /^(?:Z|([+-])(\d{2})(?::?(\d{2}))?)/.exec(text.slice(pos));
        if (m === null) return null;
        offsetMs = m[1] === undefined ? 0 : (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) * 60_000;
        pos += m[0].length;
        break;
      }
      case "G": if (name(["AD"], false) === null) return null; break;
      default: return null;
    }
  }
  if (!lenient && pos !== text.length) return null;
  if (hour12 && pm === true) hour += 12;
  if (lenient) {
    const months = year * 12 + (month - 1);
    const y = Math.floor(months / 12);
    const days = daysFromCivil(y, months - y * 12 + 1, 1) + day - 1;
    return zoned(days * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000 + ms, offsetMs);
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  day = Math.min(day, daysInMonth(year, month));
  return zoned(daysFromCivil(year, month, day) * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000 + ms, offsetMs);
}

function zoned(wall: number, offsetMs: number | undefined): { wall: number; offsetMs?: number } {
  return offsetMs === undefined ? { wall } : { wall, offsetMs };
}
