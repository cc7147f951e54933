/**
 * The Nexmark source: the event stream of the Nexmark benchmark (persons,
 * auctions and bids of an online auction site), made by the readers
 * themselves, deterministically, as fast as the job takes it or at a given
 * rate. See docs/connectors.md.
 */
import type { Boundedness, Source, SourceReader, SourceReaderContext } from "../../core/source.ts";
import type { NexmarkEvent } from "./nexmark-event.ts";
import { copyNexmarkEvent } from "./nexmark-event-copy.ts";
import { NexmarkGenerator } from "./nexmark-generator.ts";
import { resolveNexmarkOptions, type NexmarkConfig, type NexmarkOptions } from "./nexmark-options.ts";
import { NexmarkReader } from "./nexmark-reader.ts";
import { nexmarkSplits, type NexmarkSplit } from "./nexmark-split.ts";

/**
 * A source of Nexmark events. Event n is a pure function of the options and n;
 * parallel readers make interleaved shares of the stream and resume exactly
 * from the event numbers in a checkpoint.
 *
 * @example
 * ```ts
 * import { NexmarkEventType, NexmarkSource, StreamExecutionEnvironment, WatermarkStrategy, type NexmarkEvent } from "weirjs";
 *
 * const env = StreamExecutionEnvironment.getExecutionEnvironment();
 * const events = env.fromSource(
 *   NexmarkSource.create({ events: 10_000_000, maxOutOfOrdernessMs: 2_000 }),
 *   WatermarkStrategy.forBoundedOutOfOrderness<NexmarkEvent>(2_000),
 *   "nexmark",
 * );
 * events
 *   .filter((e) => e.type === NexmarkEventType.BID)
 *   .map((e) => ({ ...e.bid!, price: e.bid!.price * 0.908 })) // Nexmark q1
 *   .print();
 * await env.execute("nexmark-q1");
 * ```
 */
export class NexmarkSource implements Source<NexmarkEvent, NexmarkSplit> {
  readonly boundedness: Boundedness;

  private constructor(
    private readonly options: NexmarkOptions,
    /** The options with their defaults. */
    readonly config: NexmarkConfig,
  ) {
    this.boundedness = config.events === Number.POSITIVE_INFINITY ? "continuous" : "bounded";
  }

  /**
   * A Nexmark source; without `events` it never ends.
   *
   * @throws NexmarkOptionError for an option out of range
   */
  static create(options: NexmarkOptions = {}): NexmarkSource {
    return new NexmarkSource(options, resolveNexmarkOptions(options));
  }

  createSplits(parallelism: number): NexmarkSplit[] {
    return nexmarkSplits(parallelism, this.config.events);
  }

  createReader(_context: SourceReaderContext): SourceReader<NexmarkEvent, NexmarkSplit> {
    return new NexmarkReader(new NexmarkGenerator(this.options));
  }

  /** The generator's events are plain data of three known shapes: copied without a look at their keys. */
  copyRecord(event: NexmarkEvent): NexmarkEvent {
    return copyNexmarkEvent(event);
  }
}
