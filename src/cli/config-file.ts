/**
 * The configuration file, as Flink's `$FLINK_CONF_DIR/config.yaml`: `$WEIR_CONF_DIR/config.yaml`, read by
 * every command that runs jobs or cluster processes (`weir run`, `weir sql`, `weir jobmanager`,
 * `weir taskmanager`; not the client of `-m`, whose settings go with the job). The command line wins over
 * it: its flags, then `-D`. One flat `key: value` per line (Flink's flat form, as in its older
 * flink-conf.yaml), `#` comments and blank lines skipped, a value optionally in single or double quotes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CliUsageError } from "./cli-usage-error.ts";

/** The environment variable naming the directory of `config.yaml`. */
export const CONF_DIR_ENV = "WEIR_CONF_DIR";

/** One setting of the file, with where it is (`/etc/weir/config.yaml:3`). */
export interface ConfigFileEntry {
  readonly key: string;
  readonly value: string;
  readonly where: string;
}

/**
 * The settings of `config.yaml` in `dir`.
 *
 * @throws {CliUsageError} when the file cannot be read, or for a line that is not a flat `key: value`, naming file and line.
 * @example
 * ```ts
 * configFileEntries("/etc/weir"); // [{ key: "taskmanager.numberOfTaskSlots", value: "4", where: "/etc/weir/config.yaml:1" }]
 * ```
 */
export function configFileEntries(dir: string): ConfigFileEntry[] {
  const file = join(dir, "config.yaml");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new CliUsageError(`${CONF_DIR_ENV}=${dir}: cannot read ${file}: ${(e as Error).message}`);
  }
  const entries: ConfigFileEntry[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    const m = /^([A-Za-z][\w.-]*):(?:\s+(.*))?$/.exec(line.replace(/\s+#.*$/, "").trimEnd());
    if (m === null || /^\s/.test(line) || m[2] === undefined || m[2] === "")
      throw new CliUsageError(`${where}: expected a flat 'key: value' line (nested YAML is not read: write 'a.b.c: value'), got '${trimmed}'`);
    entries.push({ key: m[1]!, value: m[2].replace(/^(["'])(.*)\1$/, "$2"), where });
  });
  return entries;
}
