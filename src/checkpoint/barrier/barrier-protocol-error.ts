/**
 * Thrown when the input gate feeds a barrier handler something the channel
 * protocol forbids: an element from a channel that is blocked or has ended, a
 * channel index out of range, or a second barrier of one checkpoint on one channel.
 * These are engine bugs (in the gate or upstream), never user errors.
 */
export class BarrierProtocolError extends Error {
  override readonly name = "BarrierProtocolError";

  /**
   * @param channel - input channel index the offending element came from.
   * @param detail - what was wrong, e.g. `"barrier 3 from a blocked channel"`.
   */
  constructor(
    readonly channel: number,
    detail: string,
  ) {
    super(`Barrier handler, input channel ${channel}: ${detail}`);
  }
}
