/**
 * Names a side output: records an operator emits next to its main output
 * (late data, dead letters, alerts), read with `getSideOutput(tag)`.
 */

/**
 * @example
 * ```ts
 * const rejected = new OutputTag<string>("rejected");
 * const main = stream.process(new (class extends ProcessFunction<string, number> {
 *   processElement(s: string, ctx: ProcessContext, out: Collector<number>) {
 *     const n = Number(s);
 *     if (Number.isNaN(n)) ctx.output(rejected, s); else out.collect(n);
 *   }
 * })());
 * main.getSideOutput(rejected).print("rejected");
 * ```
 */
export class OutputTag<T> {
  /** @param id unique name of the side output within the job */
  constructor(readonly id: string) {
    if (!id) throw new RangeError("an OutputTag needs a non-empty id");
  }

  /** @internal Type marker. */
  declare readonly _type?: T;
}
