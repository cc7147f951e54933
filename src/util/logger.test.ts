import { afterEach, describe, expect, it } from "vitest";
import {
  configureLogging,
  createLogger,
  currentLogSettings,
  formatLogRecord,
  getLogger,
  logSettingsFromEnv,
  textLogger,
  type LogRecord,
} from "./logger.ts";

function capture(level: "error" | "warn" | "info" | "debug") {
  const records: LogRecord[] = [];
  return { records, log: createLogger({ level, destination: (r) => records.push(r) }) };
}

describe("logger", () => {
  it("writes a level and everything more severe, nothing less severe", () => {
    const { records, log } = capture("warn");
    log.debug("d");
    log.info("i");
    log.warn("w");
    log.error("e");
    expect(records.map((r) => `${r.level}:${r.msg}`)).toEqual(["warn:w", "error:e"]);
    expect(log.isLevelEnabled("warn")).toBe(true);
    expect(log.isLevelEnabled("info")).toBe(false);
  });

  it("takes pino's argument order: fields first, then the message; errors become plain data", () => {
    const { records, log } = capture("debug");
    const child = log.child({ operator: "sink-3", subtask: "1/2" });
    child.warn({ attempt: 2, err: new RangeError("too big") }, "it failed");
    child.error(new TypeError("bad"), "as the whole argument");
    expect(records[0]).toMatchObject({ level: "warn", msg: "it failed", bindings: { operator: "sink-3", subtask: "1/2" }, fields: { attempt: 2 } });
    expect(records[0]!.fields.err).toMatchObject({ type: "RangeError", message: "too big" });
    expect(records[1]!.fields.err).toMatchObject({ type: "TypeError", message: "bad" });
    // plain data: survives a structured clone (worker → main thread)
    expect(structuredClone(records[0])).toEqual(records[0]);
  });

  it("text: `weir: ` and a level tag except for info, the bindings' values in brackets; the fields stay out", () => {
    const r = (level: LogRecord["level"], bindings = {}): LogRecord => ({ level, time: 0, msg: "m", bindings, fields: { n: 1 } });
    expect(formatLogRecord(r("info"), "text")).toBe("weir: m");
    expect(formatLogRecord(r("warn"), "text")).toBe("weir: warning: m");
    expect(formatLogRecord(r("error"), "text")).toBe("weir: error: m");
    expect(formatLogRecord(r("debug", { component: "checkpoint" }), "text")).toBe("weir: debug: [checkpoint] m");
  });

  it("json: one object per line with time (ISO), level, bindings, fields and msg; bigints and cycles do not throw", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const shared = { a: 1 };
    const fields = { big: 10n, cyclic, twice: [shared, shared], at: new Date(0) };
    const line = formatLogRecord({ level: "info", time: Date.UTC(2025, 0, 2), msg: "hi", bindings: { job: "j" }, fields }, "json");
    expect(line).not.toContain("\n");
    expect(JSON.parse(line)).toEqual({
      time: "2025-01-02T00:00:00.000Z",
      level: "info",
      job: "j",
      big: "10",
      cyclic: { self: "[Circular]" },
      twice: [{ a: 1 }, { a: 1 }],
      at: "1970-01-01T00:00:00.000Z",
      msg: "hi",
    });
  });

  it("reads WEIR_LOG_LEVEL and WEIR_LOG_FORMAT (any case), info and text when unset, and names a bad value", () => {
    expect(logSettingsFromEnv({})).toEqual({ level: "info", format: "text" });
    expect(logSettingsFromEnv({ WEIR_LOG_LEVEL: "DEBUG", WEIR_LOG_FORMAT: "Json" })).toEqual({ level: "debug", format: "json" });
    expect(() => logSettingsFromEnv({ WEIR_LOG_LEVEL: "verbose" })).toThrow("WEIR_LOG_LEVEL must be one of error, warn, info, debug, got 'verbose'");
    expect(() => logSettingsFromEnv({ WEIR_LOG_FORMAT: "xml" })).toThrow("WEIR_LOG_FORMAT must be one of text, json, got 'xml'");
  });

  describe("the thread's logger", () => {
    const saved = currentLogSettings();
    afterEach(() => configureLogging({ ...saved, destination: undefined }));

    it("follows configureLogging, also through loggers taken before (and textLogger at its level)", () => {
      const before = getLogger().child({ component: "x" });
      const lines: string[] = [];
      const text: string[] = [];
      const job = textLogger((l) => text.push(l));
      configureLogging({ level: "warn", format: "json" });
      configureLogging({ destination: (r) => lines.push(formatLogRecord(r, "json")) });
      before.info("hidden");
      before.warn("shown");
      job.info("hidden");
      job.warn("shown");
      expect(lines.map((l) => JSON.parse(l) as object)).toEqual([expect.objectContaining({ level: "warn", component: "x", msg: "shown" })]);
      expect(text).toEqual(["warning: shown"]);
    });
  });
});
