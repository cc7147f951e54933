/**
 * Combines the watermarks of a task's input channels (Flink's
 * StatusWatermarkValve): the task's watermark is the minimum over the channels
 * that are active, it only moves forward, idle channels do not hold it back,
 * when the last channel goes idle it moves to the highest watermark of any
 * channel, and a channel that becomes active again rejoins once its watermark
 * has caught up with the task's. Pure: the task feeds it and acts on the result.
 */
export class WatermarkValve {
  private readonly watermarks: number[];
  private readonly idle: boolean[];
  /** Whether the channel takes part in the minimum (active and caught up). */
  private readonly aligned: boolean[];
  private current = Number.NEGATIVE_INFINITY;
  private allIdle = false;

  constructor(channels: number) {
    this.watermarks = new Array<number>(channels).fill(Number.NEGATIVE_INFINITY);
    this.idle = new Array<boolean>(channels).fill(false);
    this.aligned = new Array<boolean>(channels).fill(true);
  }

  /** The task's current watermark. */
  get watermark(): number {
    return this.current;
  }

  /** A watermark arrived on `channel`; returns the task's new watermark if it advanced, else undefined. */
  onWatermark(channel: number, timestamp: number): number | undefined {
    if (this.idle[channel] || timestamp <= this.watermarks[channel]!) return undefined;
    this.watermarks[channel] = timestamp;
    if (!this.aligned[channel] && timestamp >= this.current) this.aligned[channel] = true;
    return this.advance();
  }

  /**
   * The channel went idle or became active. Returns the new watermark if it advanced
   * (an idle channel no longer holds it back) and whether all channels are now idle
   * (the task itself is then idle) when that changed.
   */
  onStatus(channel: number, idle: boolean): { watermark?: number; allIdleChanged?: boolean } {
    if (this.idle[channel] === idle) return {};
    this.idle[channel] = idle;
    if (!idle) this.aligned[channel] = this.watermarks[channel]! >= this.current;
    const nowAllIdle = this.idle.every((x) => x);
    const allIdleChanged = nowAllIdle !== this.allIdle;
    this.allIdle = nowAllIdle;
    // the last channel to go idle: event time moves to the highest watermark of any channel
    // (as Flink's valve), or a channel that went idle first would hold back what the others promised
    const watermark = !idle ? undefined : nowAllIdle ? this.advanceToMax() : this.advance();
    return { watermark, allIdleChanged };
  }

  /** True when every channel is idle. */
  isIdle(): boolean {
    return this.allIdle;
  }

  private advanceToMax(): number | undefined {
    const max = Math.max(...this.watermarks);
    if (max <= this.current) return undefined;
    this.current = max;
    return max;
  }

  private advance(): number | undefined {
    let min = Number.POSITIVE_INFINITY;
    let any = false;
    for (let i = 0; i < this.watermarks.length; i++) {
      if (this.idle[i] || !this.aligned[i]) continue;
      any = true;
      if (this.watermarks[i]! < min) min = this.watermarks[i]!;
    }
    if (!any || min <= this.current) return undefined;
    this.current = min;
    return min;
  }
}
