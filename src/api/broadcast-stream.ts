/**
 * A stream whose every record goes to every parallel instance of the operator it
 * is connected to, together with the broadcast states (MapStateDescriptors)
 * those records maintain: Flink's `BroadcastStream`, made by
 * `stream.broadcast(descriptor, ...)`.
 */
import type { MapStateDescriptor } from "../state/index.ts";
import type { DataStream } from "./data-stream.ts";

/**
 * Connect it to another stream with `other.connect(broadcastStream)`.
 *
 * @example
 * ```ts
 * const rules = new MapStateDescriptor<string, Rule>("rules");
 * const ruleStream = env.fromElements(...ruleList).broadcast(rules);
 * events.keyBy((e) => e.user).connect(ruleStream).process(new ApplyRules());
 * ```
 */
export class BroadcastStream<T> {
  /** @internal */
  constructor(
    /** @internal */ readonly stream: DataStream<T>,
    private readonly descriptors: readonly MapStateDescriptor<unknown, unknown>[],
  ) {
    const names = new Set<string>();
    for (const d of descriptors) {
      if (names.has(d.name)) throw new RangeError(`broadcast(...): the broadcast state '${d.name}' is declared twice`);
      names.add(d.name);
    }
  }

  /** The broadcast states the records of this stream maintain. */
  getBroadcastStateDescriptors(): readonly MapStateDescriptor<unknown, unknown>[] {
    return this.descriptors;
  }
}
