import { EventEmitter } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fitToWidth, ProgressLine } from "./progress-line.ts";

/**
 * A terminal screen as the user sees it: carriage return, erase line (ESC [2K),
 * newline, and auto-wrap at the last column (counted, since a wrapped progress
 * line cannot be erased with one ESC [2K).
 */
class FakeTerminal {
  readonly lines: string[] = [""];
  wraps = 0;
  private col = 0;

  feed(s: string): void {
    for (let i = 0; i < s.length; i++) {
      if (s.startsWith("\x1b[2K", i)) {
        this.lines[this.lines.length - 1] = "";
        i += 3;
      } else if (s[i] === "\r") this.col = 0;
      else if (s[i] === "\n") this.newLine();
      else this.put(s[i]!);
    }
  }

  private put(ch: string): void {
    if (this.col >= this.columns) {
      this.wraps++;
      this.newLine();
    }
    const line = this.lines[this.lines.length - 1]!.padEnd(this.col);
    this.lines[this.lines.length - 1] = line.slice(0, this.col) + ch + line.slice(this.col + 1);
    this.col++;
  }

  private newLine(): void {
    this.lines.push("");
    this.col = 0;
  }

  constructor(public columns: number) {}

  /** The screen without the empty last line the cursor sits on. */
  screen(): string[] {
    return this.lines.at(-1) === "" ? this.lines.slice(0, -1) : [...this.lines];
  }
}

/** process.stderr as the progress line sees it: a TTY with columns and resize events. */
class FakeTty extends EventEmitter {
  readonly isTTY = true;
  constructor(private readonly term: FakeTerminal) {
    super();
  }
  get columns(): number {
    return this.term.columns;
  }
  write(s: string): boolean {
    this.term.feed(s);
    return true;
  }
}

describe("ProgressLine", () => {
  let term: FakeTerminal;
  let stderr: FakeTty;
  let stdout: { write(s: string | Uint8Array): boolean };
  let text: string;
  let line: ProgressLine;

  beforeEach(() => {
    vi.useFakeTimers();
    term = new FakeTerminal(30);
    stderr = new FakeTty(term);
    stdout = { write: (s) => (term.feed(typeof s === "string" ? s : Buffer.from(s).toString()), true) };
    text = "[job] RUNNING  in 1.2k/s  out 1.1k/s  checkpoint 3 (12 ms)  restarts 0";
    line = new ProgressLine(stderr, () => text, 1_000);
    line.guard(stderr);
    line.guard(stdout);
    line.start();
  });
  afterEach(() => {
    line.stop();
    vi.useRealTimers();
  });

  it("is cut to the terminal's width (never wraps) and redrawn at once when the terminal is resized", () => {
    vi.advanceTimersByTime(1_000);
    expect(term.screen()).toEqual([fitToWidth(text, 30)]);
    expect(term.screen()[0]).toHaveLength(29);
    expect(term.screen()[0]!.endsWith("…")).toBe(true);
    term.columns = 12;
    stderr.emit("resize");
    expect(term.screen()).toEqual(["[job] RUNN…"]);
    expect(term.wraps).toBe(0);
  });

  it("job output on stdout: the line is cleared first, the output stays intact, the line comes back below it", () => {
    vi.advanceTimersByTime(1_000);
    stdout.write("result a\n");
    stdout.write(Buffer.from("result b\n"));
    expect(term.screen()).toEqual(["result a", "result b"]);
    vi.advanceTimersByTime(0); // the redraw after a burst of output
    expect(term.screen()).toEqual(["result a", "result b", fitToWidth(text, 30)]);
  });

  it("log lines on stderr go above the line", () => {
    vi.advanceTimersByTime(1_000);
    stderr.write("weir: restored checkpoint 3\n");
    vi.advanceTimersByTime(0);
    expect(term.screen()).toEqual(["weir: restored checkpoint 3", fitToWidth(text, 30)]);
  });

  it("output that has not ended its line is not erased: the line waits for the newline", () => {
    vi.advanceTimersByTime(1_000);
    stdout.write("counting: 1");
    vi.advanceTimersByTime(2_000);
    expect(term.screen()).toEqual(["counting: 1"]);
    stdout.write(", 2\n");
    vi.advanceTimersByTime(0);
    expect(term.screen()).toEqual(["counting: 1, 2", fitToWidth(text, 30)]);
  });

  it("stop() removes the line and gives the streams their own write back", () => {
    const guarded = stdout.write;
    vi.advanceTimersByTime(1_000);
    line.stop();
    expect(term.screen()).toEqual([]);
    expect(stdout.write).not.toBe(guarded);
    stdout.write("after\n");
    vi.advanceTimersByTime(5_000);
    expect(term.screen()).toEqual(["after"]);
  });
});

describe("fitToWidth", () => {
  it("keeps what fits in columns - 1 characters, counting code points, and marks a cut with an ellipsis", () => {
    expect(fitToWidth("abc", 4)).toBe("abc");
    expect(fitToWidth("abcd", 4)).toBe("ab…");
    expect(fitToWidth("é😀xyz", 4)).toBe("é😀…");
  });
});
