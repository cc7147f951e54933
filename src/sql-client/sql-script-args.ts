/**
 * The arguments of Weir's SQL script job (`sql-script-job.ts`): which
 * scripts to run, in order. `weir sql -i init.sql -f job.sql` and
 * `weir sql -e "…"` encode them; the job module decodes them in the client
 * and in every worker thread (which get the same arguments).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename, extname } from "node:path";
import type { SqlScriptSource } from "./sql-script.ts";

/**
 * A script given on the command line: a file (`-i`, `-f`) or statements (`-e`); or a file's statements carried
 * as text with the file's name (a script run on a cluster, where the file is not at hand).
 */
export type ScriptArg = { readonly kind: "file"; readonly path: string } | { readonly kind: "text"; readonly text: string; readonly file?: string };

/**
 * The job arguments for `scripts`.
 *
 * @example
 * ```ts
 * encodeScriptArgs([{ kind: "file", path: "/abs/init.sql" }, { kind: "text", text: "SHOW TABLES" }, { kind: "text", text: "SELECT 1;", file: "job.sql" }]);
 * // ["--file", "/abs/init.sql", "--text", "SHOW TABLES", "--file-text", "job.sql", "SELECT 1;"]
 * ```
 */
export function encodeScriptArgs(scripts: readonly ScriptArg[]): string[] {
  return scripts.flatMap((s) => (s.kind === "file" ? ["--file", s.path] : s.file === undefined ? ["--text", s.text] : ["--file-text", s.file, s.text]));
}

/** The scripts of job arguments made by {@link encodeScriptArgs}. */
export function decodeScriptArgs(args: readonly string[]): ScriptArg[] {
  const out: ScriptArg[] = [];
  for (let i = 0; i + 1 < args.length; ) {
    if (args[i] === "--file-text" && i + 2 < args.length) {
      out.push({ kind: "text", file: args[i + 1]!, text: args[i + 2]! });
      i += 3;
      continue;
    }
    out.push(args[i] === "--file" ? { kind: "file", path: args[i + 1]! } : { kind: "text", text: args[i + 1]! });
    i += 2;
  }
  return out;
}

/** Reads the scripts; a file is named relative to the working directory in messages. */
export function readScripts(scripts: readonly ScriptArg[], relativeTo: (path: string) => string): SqlScriptSource[] {
  return scripts.map((s) => (s.kind === "file" ? { text: readFileSync(s.path, "utf8"), file: relativeTo(s.path) } : { text: s.text, ...(s.file !== undefined && { file: s.file }) }));
}

/**
 * The default job name of a run (it names the checkpoint directory): the
 * `-f` script's name without `.sql` (also on a cluster, where the script
 * travels as text with its file's name); for `-e`, `sql-` and a digest of the
 * statements, so the same command resumes and other statements start afresh.
 */
export function scriptJobName(scripts: readonly ScriptArg[]): string {
  const main = scripts.at(-1);
  const file = main?.kind === "file" ? main.path : main?.file;
  if (file !== undefined) return basename(file, extname(file));
  return `sql-${createHash("sha256").update(JSON.stringify(scripts)).digest("hex").slice(0, 8)}`;
}
