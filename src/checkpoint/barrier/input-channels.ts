import { BarrierProtocolError } from "./barrier-protocol-error.ts";

/**
 * The input channels of one task as a barrier handler sees them: how many there
 * are and which of them have delivered end-of-input.
 */
export class InputChannels {
  /** Number of input channels of the task. */
  readonly count: number;
  private readonly ended: Uint8Array;
  private endedTotal = 0;

  /** @param count - number of input channels, an integer ≥ 1. */
  constructor(count: number) {
    if (!Number.isInteger(count) || count < 1) {
      throw new RangeError(`A barrier handler needs at least one input channel, got ${count}`);
    }
    this.count = count;
    this.ended = new Uint8Array(count);
  }

  /** Number of channels that delivered end-of-input. */
  get endedCount(): number {
    return this.endedTotal;
  }

  /** True once `channel` delivered end-of-input. */
  isEnded(channel: number): boolean {
    return this.ended[channel] === 1;
  }

  /**
   * Throws a `BarrierProtocolError` unless `channel` is a valid index of a
   * channel that has not ended. `element` names what arrived, for the message.
   */
  checkOpen(channel: number, element: string): void {
    if (!Number.isInteger(channel) || channel < 0 || channel >= this.count) {
      throw new BarrierProtocolError(channel, `${element} on a channel out of range 0..${this.count - 1}`);
    }
    if (this.ended[channel] === 1) {
      throw new BarrierProtocolError(channel, `${element} after end-of-input`);
    }
  }

  /** Records end-of-input on `channel` (which must be open). */
  markEnded(channel: number): void {
    this.checkOpen(channel, "end-of-input");
    this.ended[channel] = 1;
    this.endedTotal++;
  }
}
