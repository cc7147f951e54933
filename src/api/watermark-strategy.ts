/**
 * How a source assigns event timestamps and watermarks. Event time (bounded
 * out-of-orderness, idleness, custom generators) is built on this class.
 */

/**
 * The watermark strategy of a source.
 *
 * @example
 * ```ts
 * env.fromSource(source, WatermarkStrategy.noWatermarks(), "numbers");
 * ```
 */
export class WatermarkStrategy<T> {
  private constructor(readonly kind: "none") {}

  /** Processing without event time: no timestamps, no watermarks. */
  static noWatermarks<T>(): WatermarkStrategy<T> {
    return new WatermarkStrategy<T>("none");
  }
}
