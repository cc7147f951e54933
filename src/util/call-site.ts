/**
 * Where user code called into Weir: the first stack frame outside Weir's own
 * files, as `file:line:column` relative to the working directory. Taken when
 * the dataflow is built (`keyBy(…)`), to name the call in errors that happen
 * later, when records flow.
 */
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

/** A V8 stack frame's location: `(file:line:col)` or `at file:line:col`. */
const FRAME = /\(?((?:file:\/\/)?[^\s()]+):(\d+):(\d+)\)?$/;

/**
 * The location of the innermost caller outside `libraryDir`, Node's own
 * modules and `node_modules` (loaders, test runners), or undefined when the
 * stack shows none.
 *
 * @example
 * ```ts
 * // in src/api/data-stream.ts, called from the job file
 * callSite(fileURLToPath(OWN_ROOT)); // "jobs/orders.ts:14:6" (OWN_ROOT: util/own-files.ts)
 * ```
 */
export function callSite(libraryDir: string, stack: string | undefined = new Error().stack): string | undefined {
  for (const line of (stack ?? "").split("\n").slice(1)) {
    const m = FRAME.exec(line.trim());
    if (!m) continue;
    const file = m[1]!.startsWith("file:") ? fileURLToPath(m[1]!) : m[1]!;
    if (file.startsWith("node:") || file.startsWith(libraryDir) || /[\\/]node_modules[\\/]/.test(file)) continue;
    return `${relative(process.cwd(), file) || file}:${m[2]}:${m[3]}`;
  }
  return undefined;
}
