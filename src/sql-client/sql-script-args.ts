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

/** A script given on the command line: a file (`-i`, `-f`) or statements (`-e`). */
export type ScriptArg = { readonly kind: "file"; readonly path: string } | { readonly kind: "text"; readonly text: string };

/**
 * The job arguments for `scripts`.
 *
 * @example
 * ```ts
 * encodeScriptArgs([{ kind: "file", path: "/abs/init.sql" }, { kind: "text", text: "SHOW TABLES" }]);
 * // ["--file", "/abs/init.sql", "--text", "SHOW TABLES"]
 * ```
 */
export function encodeScriptArgs(scripts: readonly ScriptArg[]): string[] {
  return scripts.flatMap((s) => (s.kind === "file" ? ["--file", s.path] : ["--text", s.text]));
}

/** The scripts of job arguments made by {@link encodeScriptArgs}. */
export function decodeScriptArgs(args: readonly string[]): ScriptArg[] {
  const out: ScriptArg[] = [];
  for (let i = 0; i + 1 < args.length; i += 2) {
    out.push(args[i] === "--file" ? { kind: "file", path: args[i + 1]! } : { kind: "text", text: args[i + 1]! });
  }
  return out;
}

/** Reads the scripts; a file is named relative to the working directory in messages. */
export function readScripts(scripts: readonly ScriptArg[], relativeTo: (path: string) => string): SqlScriptSource[] {
  return scripts.map((s) => (s.kind === "file" ? { text: readFileSync(s.path, "utf8"), file: relativeTo(s.path) } : { text: s.text }));
}

/**
 * The default job name of a run (it names the checkpoint directory): the
 * `-f` script's name without `.sql`; for `-e`, `sql-` and a digest of the
 * statements, so the same command resumes and other statements start afresh.
 */
export function scriptJobName(scripts: readonly ScriptArg[]): string {
  const main = scripts.at(-1);
  if (main?.kind === "file") return basename(main.path, extname(main.path));
  return `sql-${createHash("sha256").update(JSON.stringify(scripts)).digest("hex").slice(0, 8)}`;
}
