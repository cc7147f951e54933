/**
 * The SQL client's read-eval-print loop on node:readline: a statement ends
 * at `;` (outside quotes and comments) and may span lines (prompt `   -> `);
 * history persists across sessions; Tab completes; Ctrl-C cancels the
 * running query (or clears the line at the prompt); Ctrl-D or QUIT ends.
 */
import { createInterface, type Interface } from "node:readline";
import { Writable } from "node:stream";
import type { SessionOutput, SqlSession } from "./sql-session.ts";
import { sqlCompleter } from "./sql-completer.ts";
import { HISTORY_SIZE, loadHistory, saveHistory } from "./sql-history.ts";
import { splitStatements } from "./statement-splitter.ts";

const PROMPT = "weir> ";
const CONTINUATION = "   -> ";

/** Standard output behind a switch: readline's echo is muted while a query's result is shown. */
class MutableOutput extends Writable {
  muted = false;
  constructor(private readonly target: NodeJS.WriteStream) {
    super();
    target.on("resize", () => this.emit("resize"));
  }
  get columns(): number {
    return this.target.columns;
  }
  get rows(): number {
    return this.target.rows;
  }
  get isTTY(): boolean {
    return this.target.isTTY;
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (e?: Error | null) => void): void {
    // at once, not after the target's callback: keeps the order with what the session writes directly
    if (!this.muted) this.target.write(chunk);
    done();
  }
}

/**
 * Reads statements from standard input until QUIT/EXIT or end of input and
 * runs them in `session`; `makeSession` builds it on the REPL's output, and
 * `init` runs first (the session ends at once when it resolves false).
 *
 * @example
 * ```ts
 * await runRepl((output) => new SqlSession({}, output), historyFile(), async () => true);
 * ```
 */
export async function runRepl(makeSession: (output: SessionOutput) => SqlSession, history: string, init: (session: SqlSession) => Promise<boolean>): Promise<void> {
  const stdout = process.stdout;
  const tty = Boolean(process.stdin.isTTY && stdout.isTTY);
  const output = new MutableOutput(stdout);
  let rl: Interface | undefined;
  let closed = false;
  /** The statement running, to cancel with Ctrl-C. */
  let running: AbortController | undefined;
  const keyHandlers = new Set<(key: string) => void>();
  const session = makeSession({
    write: (text) => stdout.write(text),
    tty,
    size: () => ({ rows: stdout.rows || 24, columns: stdout.columns || 80 }),
    onKey: (handler) => {
      keyHandlers.add(handler);
      return () => keyHandlers.delete(handler);
    },
    notify: (text) => {
      if (!rl || !tty || running || closed) {
        stdout.write(text + "\n");
        return;
      }
      stdout.write("\r\x1b[K" + text + "\n");
      rl.prompt(true);
    },
  });
  if (!(await init(session))) {
    await session.cancelRunningJobs();
    return;
  }
  rl = createInterface({
    input: process.stdin,
    output,
    terminal: tty,
    prompt: PROMPT,
    completer: sqlCompleter(() => session.tableNames(), () => session.configKeys()),
    history: loadHistory(history),
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
  });
  rl.on("history", (h: string[]) => saveHistory(history, h));
  let buffer = "";
  process.stdin.on("keypress", (s: string | undefined) => {
    if (running && s) for (const h of keyHandlers) h(s);
  });
  rl.on("SIGINT", () => {
    if (running) {
      running.abort();
      return;
    }
    // at the prompt: drop what was typed, statement lines included
    buffer = "";
    if (!tty) return;
    rl!.write(null, { ctrl: true, name: "u" });
    stdout.write("\n");
    rl!.setPrompt(PROMPT);
    rl!.prompt();
  });
  stdout.write("Weir SQL — statements end with ';', help with HELP;\n");
  const prompt = () => {
    if (tty) rl!.prompt();
  };
  prompt();
  let quit = false;
  rl.on("close", () => (closed = true));
  for await (const line of rl) {
    buffer += (buffer === "" ? "" : "\n") + line;
    const { statements, rest, restHasContent } = splitStatements(buffer);
    const input = buffer;
    buffer = restHasContent ? rest.text : "";
    for (const statement of statements) {
      running = new AbortController();
      output.muted = true;
      try {
        quit = (await session.run(statement, input, running.signal)) === "quit";
      } finally {
        running = undefined;
        if (tty) rl.write(null, { ctrl: true, name: "u" }); // keys typed while the statement ran
        output.muted = false;
      }
      if (quit) break;
    }
    if (quit) break;
    rl.setPrompt(buffer === "" ? PROMPT : CONTINUATION);
    prompt();
  }
  rl.close();
  const cancelled = await session.cancelRunningJobs();
  if (cancelled > 0) stdout.write(`[INFO] Cancelled ${cancelled} running job${cancelled === 1 ? "" : "s"} of the session.\n`);
  stdout.write("Goodbye!\n");
}
