/**
 * The live status line of `weir run` on a terminal: records in/out per
 * second, the last completed checkpoint and its duration, restarts.
 */
import type { JobClient } from "../api/job-client.ts";

const REFRESH_MS = 1_000;

export class ProgressLine {
  private timer: NodeJS.Timeout | null = null;
  private last = { t: 0, inCount: 0, outCount: 0 };
  private text = "";

  constructor(private readonly out: NodeJS.WriteStream) {}

  start(client: JobClient): void {
    this.last = { t: performance.now(), inCount: 0, outCount: 0 };
    this.timer = setInterval(() => this.render(client), REFRESH_MS);
    this.timer.unref();
  }

  /** Prints a line above the progress line. */
  log(line: string): void {
    this.clear();
    this.out.write(`weir: ${line}\n`);
    if (this.text) this.out.write(this.text);
  }

  stop(finalLine?: string): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.clear();
    this.text = "";
    if (finalLine) this.out.write(`weir: ${finalLine}\n`);
  }

  private render(client: JobClient): void {
    const metrics = Object.values(client.getTaskMetrics());
    const inCount = metrics.reduce((sum, m) => sum + (m.isSource ? m.recordsIn : 0), 0);
    const outCount = metrics.reduce((sum, m) => sum + (m.isSink ? m.recordsIn : 0), 0);
    const now = performance.now();
    const dt = (now - this.last.t) / 1000;
    const rate = (n: number) => formatRate(Math.max(0, n) / dt);
    const stats = client.getCheckpointStats();
    const lc = stats?.lastCompleted;
    const cp = lc ? `checkpoint ${lc.checkpointId} (${lc.durationMs} ms)` : "no checkpoint yet";
    this.text = `[${client.jobName}] ${client.getJobStatus()}  in ${rate(inCount - this.last.inCount)}/s  out ${rate(outCount - this.last.outCount)}/s  ${cp}  restarts ${client.getRestartCount()}`;
    this.last = { t: now, inCount, outCount };
    this.clear();
    this.out.write(this.text);
  }

  private clear(): void {
    this.out.write("\r\x1b[2K");
  }
}

function formatRate(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return n.toFixed(0);
}
