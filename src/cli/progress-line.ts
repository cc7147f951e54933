/**
 * The live status line of `weir run` on a terminal, redrawn in place every
 * second and cut to the terminal's width (redrawn at once when it is resized).
 * Output of the job or of the logger (`guard`ed streams) never collides with it:
 * the line is cleared before such a write and drawn again after it, once the
 * output ends a line.
 */

/** What the line needs of the terminal stream it is drawn on (process.stderr, or a fake in tests). */
export interface TerminalStream {
  write(chunk: string): boolean;
  readonly columns?: number;
  on?(event: "resize", listener: () => void): unknown;
  off?(event: "resize", listener: () => void): unknown;
}

/** A stream whose writes may land on the same terminal (stdout, stderr). */
export interface GuardedStream {
  write(chunk: string | Uint8Array, ...rest: never[]): boolean;
}

const CLEAR = "\r\x1b[2K";
/** Width when the stream does not know its columns. */
const DEFAULT_COLUMNS = 80;

export class ProgressLine {
  private readonly write: (chunk: string) => boolean;
  private timer: NodeJS.Timeout | null = null;
  private redrawSoon: NodeJS.Immediate | null = null;
  private text = "";
  /** The line is on the screen now. */
  private shown = false;
  /** The last guarded write did not end its line: drawing now would erase it. */
  private midLine = false;
  private readonly undo: (() => void)[] = [];
  private readonly onResize = () => this.draw();

  /**
   * @param render the line's text, computed at every refresh
   */
  constructor(
    private readonly out: TerminalStream,
    private readonly render: () => string,
    private readonly refreshMs = 1_000,
  ) {
    this.write = out.write.bind(out);
  }

  /** Draws the line every `refreshMs` from now on. */
  start(): void {
    this.timer = setInterval(() => {
      this.text = this.render();
      this.draw();
    }, this.refreshMs);
    this.timer.unref();
    this.out.on?.("resize", this.onResize);
  }

  /**
   * Routes every write to `stream` around the line: cleared before, drawn again
   * after (on the next turn of the event loop, so a burst of output draws it once).
   * `stop()` puts the stream's own `write` back.
   */
  guard(stream: GuardedStream): void {
    const original = stream.write;
    const guarded = (chunk: string | Uint8Array, ...rest: never[]): boolean => {
      this.hide();
      const ok = original.call(stream, chunk, ...rest);
      if (chunk.length > 0) this.midLine = !endsLine(chunk);
      this.scheduleDraw();
      return ok;
    };
    stream.write = guarded;
    this.undo.push(() => {
      if (stream.write === guarded) stream.write = original;
    });
  }

  /** Removes the line and stops drawing it; guarded streams write directly again. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.redrawSoon) clearImmediate(this.redrawSoon);
    this.redrawSoon = null;
    this.out.off?.("resize", this.onResize);
    this.hide();
    this.text = "";
    for (const u of this.undo.splice(0)) u();
  }

  private scheduleDraw(): void {
    if (this.redrawSoon || !this.timer) return;
    this.redrawSoon = setImmediate(() => {
      this.redrawSoon = null;
      this.draw();
    });
    this.redrawSoon.unref();
  }

  private draw(): void {
    if (!this.text || this.midLine || !this.timer) return;
    this.write(CLEAR + fitToWidth(this.text, this.out.columns ?? DEFAULT_COLUMNS));
    this.shown = true;
  }

  private hide(): void {
    if (!this.shown) return;
    this.write(CLEAR);
    this.shown = false;
  }
}

/** `text` cut to `columns - 1` characters (the last column would wrap on some terminals), with an ellipsis when cut. */
export function fitToWidth(text: string, columns: number): string {
  const chars = Array.from(text);
  const max = Math.max(1, columns - 1);
  return chars.length <= max ? text : chars.slice(0, max - 1).join("") + "…";
}

function endsLine(chunk: string | Uint8Array): boolean {
  return typeof chunk === "string" ? chunk.endsWith("\n") : chunk[chunk.length - 1] === 0x0a;
}
