/**
 * Runs the `weir` command line on a pseudo-terminal, as a user at a terminal
 * meets it: `script` (util-linux) gives the child a pty of 120 × 40, the test
 * types into it and reads what the terminal shows (ANSI sequences and carriage
 * returns removed).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { collectOutput, ROOT, waitFor, type CliRun } from "./cli-process.ts";

const BIN = fileURLToPath(new URL("../../bin/weir-dev.mjs", import.meta.url));

/** A `weir` process on a pty. */
export interface PtyCli {
  /** Types `text` (e.g. `"SHOW TABLES;\n"`, `"\x03"` for Ctrl-C, `"\x04"` for Ctrl-D). */
  type(text: string): void;
  /** What the terminal showed so far, without ANSI sequences and `\r`. */
  screen(): string;
  /**
   * Resolves with the screen text after `from` once it matches `pattern`,
   * and the offset just after the match (to wait for what comes next).
   */
  expect(pattern: RegExp | string, from?: number, timeoutMs?: number): Promise<{ text: string; end: number }>;
  readonly done: Promise<CliRun>;
  kill(): void;
}

/** Shell quoting of one argument. */
function quote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Starts `node bin/weir-dev.mjs ...args` on a pty in `cwd`. */
export function startPtyCli(args: readonly string[], cwd: string = ROOT, env: NodeJS.ProcessEnv = {}): PtyCli {
  const command = `stty cols 120 rows 40; exec ${quote(process.execPath)} ${quote(BIN)} ${args.map(quote).join(" ")}`;
  const child = spawn("script", ["-qfec", command, "/dev/null"], { cwd, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  const { stdout, done } = collectOutput(child);
  const screen = () => stdout().replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, "");
  return {
    type: (text) => child.stdin!.write(text),
    screen,
    async expect(pattern, from = 0, timeoutMs = 60_000) {
      const find = () => {
        const text = screen().slice(from);
        if (typeof pattern === "string") {
          const i = text.indexOf(pattern);
          return i < 0 ? undefined : { text, end: from + i + pattern.length };
        }
        const m = pattern.exec(text);
        return m ? { text, end: from + m.index + m[0].length } : undefined;
      };
      try {
        await waitFor(`${String(pattern)} on the terminal`, () => find() !== undefined, timeoutMs);
      } catch (e) {
        throw new Error(`${(e as Error).message}\nscreen after offset ${from}:\n${screen().slice(from)}`);
      }
      return find()!;
    },
    done,
    kill: () => child.kill("SIGKILL"),
  };
}
