/**
 * The SQL client's input history, kept across sessions in a file:
 * `WEIR_SQL_HISTORY` when set, else `~/.weir/sql_history`.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { getLogger } from "../util/logger.ts";

/** Lines kept in the history. */
export const HISTORY_SIZE = 1000;

/** The history file of this user (or the one `WEIR_SQL_HISTORY` names). */
export function historyFile(): string {
  return process.env["WEIR_SQL_HISTORY"] || join(homedir(), ".weir", "sql_history");
}

/**
 * The lines of the history file, newest first (readline's order); none when
 * the file does not exist yet.
 *
 * @example
 * ```ts
 * const rl = createInterface({ input, output, history: loadHistory(historyFile()) });
 * ```
 */
export function loadHistory(file: string): string[] {
  try {
    return readFileSync(file, "utf8").split("\n").filter((l) => l.length > 0).reverse().slice(0, HISTORY_SIZE);
  } catch {
    return [];
  }
}

/** Writes `history` (newest first) to the file, oldest line first; a failure is a warning. */
export function saveHistory(file: string, history: readonly string[]): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, [...history].reverse().join("\n") + "\n");
  } catch (e) {
    getLogger().warn(`cannot save the SQL history to ${file}: ${(e as Error).message}`);
  }
}
