/**
 * The one logger of Weir: levels (`error`, `warn`, `info`, `debug`), human-readable
 * lines by default (`weir: warning: …`) or JSON lines (`--log-format json`), set by
 * `weir run --log-level/--log-format` or `WEIR_LOG_LEVEL`/`WEIR_LOG_FORMAT`. The
 * calls have pino's shape (`log.info("msg")`, `log.info({ fields }, "msg")`,
 * `log.child({ bindings })`), so a job can log through it and its lines follow the
 * same settings; in a worker thread the records go to the main thread, which writes
 * them (so they never tear the progress line).
 *
 * Why not pino itself: its human-readable output needs pino-pretty as an async
 * transport in a worker thread, whose lines would race the progress line and the
 * final summary and need flushing at exit; Weir logs a few lines per checkpoint or
 * failure, never per record, so a synchronous formatter is all it needs.
 *
 * @example
 * ```ts
 * import { getLogger } from "weirjs";
 *
 * const log = getLogger().child({ component: "enricher" });
 * log.info("loaded 120 products");
 * log.warn({ sku: "A-17" }, "unknown product, skipped");
 * ```
 */

/** Severity of a record; a logger at level L writes L and everything more severe. */
export type LogLevel = "error" | "warn" | "info" | "debug";

/** `text`: `weir: warning: message` lines for people; `json`: one JSON object per line. */
export type LogFormat = "text" | "json";

/** Extra structured data of a record (JSON format), e.g. `{ operator: "sink-3" }`. */
export type LogFields = Readonly<Record<string, unknown>>;

/** Levels from the most to the least severe. */
export const LOG_LEVELS: readonly LogLevel[] = ["error", "warn", "info", "debug"];
export const LOG_FORMATS: readonly LogFormat[] = ["text", "json"];

/** One log event, plain data (it crosses from a worker thread to the main thread). */
export interface LogRecord {
  readonly level: LogLevel;
  /** Milliseconds since the epoch. */
  readonly time: number;
  readonly msg: string;
  /** Bindings of the logger (scope, shown in text) and fields of the call (JSON only). */
  readonly bindings: LogFields;
  readonly fields: LogFields;
}

/** Where records that passed the level go. */
export type LogDestination = (record: LogRecord) => void;

/** A log method: `info("msg")` or `info({ fields }, "msg")` (pino's argument order). */
export interface LogFn {
  (msg: string): void;
  (fields: object, msg: string): void;
}

/**
 * A leveled logger (a subset of pino's interface).
 *
 * @example
 * ```ts
 * const log = getLogger();
 * if (log.isLevelEnabled("debug")) log.debug(`state: ${JSON.stringify(state)}`);
 * ```
 */
export interface Logger {
  readonly level: LogLevel;
  readonly error: LogFn;
  readonly warn: LogFn;
  readonly info: LogFn;
  readonly debug: LogFn;
  isLevelEnabled(level: LogLevel): boolean;
  /** A logger whose records carry `bindings` too (text shows their values in brackets: `[sink-3 1/2]`). */
  child(bindings: LogFields): Logger;
}

/** Settings of the logging of this thread. */
export interface LogSettings {
  readonly level: LogLevel;
  readonly format: LogFormat;
}

interface LogState {
  level: LogLevel;
  format: LogFormat;
  destination: LogDestination;
}

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

class LevelLogger implements Logger {
  readonly error: LogFn = (a: object | string, b?: string) => this.emit("error", a, b);
  readonly warn: LogFn = (a: object | string, b?: string) => this.emit("warn", a, b);
  readonly info: LogFn = (a: object | string, b?: string) => this.emit("info", a, b);
  readonly debug: LogFn = (a: object | string, b?: string) => this.emit("debug", a, b);

  constructor(
    private readonly state: () => { level: LogLevel; destination: LogDestination },
    private readonly bindings: LogFields,
  ) {}

  get level(): LogLevel {
    return this.state().level;
  }

  isLevelEnabled(level: LogLevel): boolean {
    return RANK[level] <= RANK[this.state().level];
  }

  child(bindings: LogFields): Logger {
    return new LevelLogger(this.state, { ...this.bindings, ...plainFields(bindings) });
  }

  private emit(level: LogLevel, a: object | string, b: string | undefined): void {
    const state = this.state();
    if (RANK[level] > RANK[state.level]) return;
    const [fields, msg] = typeof a === "string" ? [{}, a] : [plainFields(a), b ?? ""];
    state.destination({ level, time: Date.now(), msg, bindings: this.bindings, fields });
  }
}

/** Fields as plain data: an `Error` becomes `{ type, message, stack }` (also as the whole argument, under `err`). */
function plainFields(o: object): LogFields {
  if (o instanceof Error) return { err: plainError(o) };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k] = v instanceof Error ? plainError(v) : v;
  return out;
}

function plainError(e: Error): LogFields {
  return { type: e.name, message: e.message, stack: e.stack };
}

/**
 * A record as one line (without the newline): `weir: warning: [sink-3 1/2] message` in
 * text (no level tag for info), or a JSON object `{"time":…,"level":…,…,"msg":…}`.
 */
export function formatLogRecord(record: LogRecord, format: LogFormat): string {
  if (format === "json") {
    return safeStringify({ time: new Date(record.time).toISOString(), level: record.level, ...record.bindings, ...record.fields, msg: record.msg });
  }
  return `weir: ${textOf(record)}`;
}

/** The text of a record without the `weir: ` prefix: `warning: [sink-3 1/2] message`. */
function textOf(record: LogRecord): string {
  const tag = record.level === "info" ? "" : `${record.level === "warn" ? "warning" : record.level}: `;
  const scope = Object.values(record.bindings).map(String).join(" ");
  return `${tag}${scope ? `[${scope}] ` : ""}${record.msg}`;
}

/** JSON of `value` that writes bigints as strings and cycles as "[Circular]" instead of throwing. */
function safeStringify(value: unknown): string {
  return JSON.stringify(jsonable(value, []));
}

function jsonable(v: unknown, ancestors: object[]): unknown {
  if (typeof v === "bigint") return v.toString();
  if (typeof v !== "object" || v === null) return v;
  if (typeof (v as { toJSON?: unknown }).toJSON === "function") return (v as { toJSON(): unknown }).toJSON();
  if (ancestors.includes(v)) return "[Circular]";
  ancestors.push(v);
  const out = Array.isArray(v) ? v.map((x) => jsonable(x, ancestors)) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonable(x, ancestors)]));
  ancestors.pop();
  return out;
}

/** A destination that formats each record and hands the line to `write` (default: standard error). */
export function lineDestination(format: LogFormat, write: (line: string) => void = (line) => void process.stderr.write(line + "\n")): LogDestination {
  return (record) => write(formatLogRecord(record, format));
}

/** The level named `s` (any case), or undefined. */
export function parseLogLevel(s: string): LogLevel | undefined {
  const l = s.toLowerCase();
  return (LOG_LEVELS as readonly string[]).includes(l) ? (l as LogLevel) : undefined;
}

/** The format named `s` (any case), or undefined. */
export function parseLogFormat(s: string): LogFormat | undefined {
  const f = s.toLowerCase();
  return (LOG_FORMATS as readonly string[]).includes(f) ? (f as LogFormat) : undefined;
}

/** Level and format from `WEIR_LOG_LEVEL` and `WEIR_LOG_FORMAT` (info and text when unset); throws on a bad value. */
export function logSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): LogSettings {
  const l = env.WEIR_LOG_LEVEL;
  const f = env.WEIR_LOG_FORMAT;
  const level = l ? parseLogLevel(l) : "info";
  const format = f ? parseLogFormat(f) : "text";
  if (!level) throw new Error(`WEIR_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got '${l}'`);
  if (!format) throw new Error(`WEIR_LOG_FORMAT must be one of ${LOG_FORMATS.join(", ")}, got '${f}'`);
  return { level, format };
}

/**
 * The thread's logging state, on `globalThis` so that two copies of this module
 * (the CLI's and a job's import of the package) share it.
 */
const KEY = Symbol.for("weir.logging");

function state(): LogState {
  const g = globalThis as Record<symbol, LogState | undefined>;
  let s = g[KEY];
  if (!s) {
    let settings: LogSettings = { level: "info", format: "text" };
    let problem: string | undefined;
    try {
      settings = logSettingsFromEnv();
    } catch (e) {
      problem = `${(e as Error).message}; logging at info as text`;
    }
    s = g[KEY] = { ...settings, destination: lineDestination(settings.format) };
    if (problem) s.destination({ level: "warn", time: Date.now(), msg: problem, bindings: {}, fields: {} });
  }
  return s;
}

const root: Logger = new LevelLogger(state, {});

/**
 * The logger of this thread: writes to standard error as `weir run` (or the
 * environment variables) configured it. In a worker thread its records go to the
 * main thread.
 */
export function getLogger(): Logger {
  return root;
}

/** Level and format of this thread's logger. */
export function currentLogSettings(): LogSettings {
  const s = state();
  return { level: s.level, format: s.format };
}

/**
 * Sets the level, format and destination of this thread's logger (the CLI, the
 * worker bootstrap). A new format without a destination writes lines of that
 * format to standard error.
 */
export function configureLogging(o: { level?: LogLevel; format?: LogFormat; destination?: LogDestination }): void {
  const g = globalThis as Record<symbol, LogState | undefined>;
  if (!g[KEY] && o.level && o.format) {
    // fully given: the environment is not read
    g[KEY] = { level: o.level, format: o.format, destination: o.destination ?? lineDestination(o.format) };
    return;
  }
  const s = state();
  if (o.level) s.level = o.level;
  if (o.format) {
    s.format = o.format;
    s.destination = lineDestination(o.format);
  }
  if (o.destination) s.destination = o.destination;
}

/** Writes a record that already passed a level (one forwarded from a worker thread) to this thread's destination. */
export function writeLogRecord(record: LogRecord): void {
  state().destination(record);
}

/**
 * A logger of its own (not the thread's): for tests, or to send a component's
 * records somewhere else.
 *
 * @example
 * ```ts
 * const lines: string[] = [];
 * const log = createLogger({ level: "debug", destination: (r) => lines.push(r.msg) });
 * ```
 */
export function createLogger(o: { level: LogLevel; destination: LogDestination }): Logger {
  const s = { level: o.level, destination: o.destination };
  return new LevelLogger(() => s, {});
}

/**
 * A logger at the thread's level whose records go to `write` as text without the
 * `weir: ` prefix (`warning: [sink-3 1/2] message`): what `EnvironmentOptions.log` receives.
 */
export function textLogger(write: (line: string) => void): Logger {
  const destination = (r: LogRecord) => write(textOf(r));
  return new LevelLogger(() => ({ level: state().level, destination }), {});
}
