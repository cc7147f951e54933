/**
 * The `nexmark` connector: the event stream of the Nexmark benchmark as a
 * table, as the nexmark project's `ddl_gen.sql` declares it (`event_type`,
 * `person`, `auction`, `bid` ROWs, its options). It runs the DataStream
 * `NexmarkSource`'s generator and readers: event n is a pure function of the
 * options and n, so the table is the same for a given configuration in every
 * run, at every parallelism and after every restore; parallel readers make
 * interleaved shares of the stream; checkpoints hold each reader's next
 * event number. Bounded with `'events.num'`, unbounded without.
 *
 * @example
 * ```sql
 * CREATE TABLE nexmark (event_type INT, bid ROW<auction BIGINT, price BIGINT, `dateTime` TIMESTAMP(3)>,
 *   `dateTime` AS bid.`dateTime`, WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND)
 * WITH ('connector' = 'nexmark', 'events.num' = '100000', 'first-event.rate' = '1000');
 * SELECT bid.auction, bid.price FROM nexmark WHERE event_type = 2;
 * ```
 */
import { option } from "../../config/config-option.ts";
import type { Source } from "../../core/source.ts";
import type { NexmarkEvent } from "../../connectors/nexmark/nexmark-event.ts";
import { NexmarkGenerator } from "../../connectors/nexmark/nexmark-generator.ts";
import type { NexmarkOptions } from "../../connectors/nexmark/nexmark-options.ts";
import { NexmarkOptionError } from "../../connectors/nexmark/nexmark-option-error.ts";
import { NexmarkReader } from "../../connectors/nexmark/nexmark-reader.ts";
import { NexmarkSource } from "../../connectors/nexmark/nexmark-source.ts";
import type { NexmarkSplit } from "../../connectors/nexmark/nexmark-split.ts";
import type { DataStream } from "../../api/data-stream.ts";
import { WatermarkStrategy } from "../../time/watermark-strategy.ts";
import { identifierString } from "../catalog/object-identifier.ts";
import type { OptionValue } from "../../config/config-option.ts";
import type { Row } from "../data/row.ts";
import { ChangelogMode } from "../plan/changelog-mode.ts";
import { parseTimestamp } from "../types/temporal.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import type { DynamicTableContext, DynamicTableFactory, TableFactoryOptions, TableSource } from "./dynamic-table-factory.ts";
import { nexmarkRecordColumns, nexmarkRowConverter } from "./nexmark-rows.ts";
import { recordWatermarkStrategy, sourceWatermarkStrategy } from "./source-watermarks.ts";
import { WATERMARK_ALIGNMENT_OPTIONS, watermarkAlignmentOf } from "./watermark-alignment-options.ts";

/** The table option of each `NexmarkOptions` name that `NexmarkOptionError` can report. */
const SQL_KEYS: Readonly<Record<string, string>> = {
  events: "events.num",
  eventsPerSecond: "first-event.rate",
  maxOutOfOrdernessMs: "events.max-out-of-orderness",
  baseTime: "events.base-time",
  seed: "events.seed",
  "proportions.person": "person.proportion",
  "proportions.auction": "auction.proportion",
  "proportions.bid": "bid.proportion",
  hotAuctionRatio: "bid.hot-ratio.auctions",
  hotBiddersRatio: "bid.hot-ratio.bidders",
  hotSellersRatio: "auction.hot-ratio.sellers",
  avgPersonByteSize: "person.avg-size",
  avgAuctionByteSize: "auction.avg-size",
  avgBidByteSize: "bid.avg-size",
};

/**
 * The generator's options from the table's validated options (Flink Nexmark's keys).
 *
 * @throws {SqlValidationError} naming the option out of range
 * @example
 * ```ts
 * nexmarkOptionsOf(new Map([["events.num", 1000], ["first-event.rate", 1000]])).events; // 1000
 * ```
 */
export function nexmarkOptionsOf(options: ReadonlyMap<string, OptionValue>): NexmarkOptions {
  const int = (key: string) => options.get(key) as number;
  const rate = int("first-event.rate");
  if (int("next-event.rate") !== rate) {
    throw new SqlValidationError(
      `Invalid value for option 'next-event.rate': '${int("next-event.rate")}'. Weir's Nexmark generator has one rate: 'next-event.rate' must equal 'first-event.rate' ('${rate}').`,
    );
  }
  const events = int("events.num");
  if (events < 0) throw new SqlValidationError(`Invalid value for option 'events.num': '${events}' (expected 0 for unbounded, or a number of events).`);
  const baseTimeText = options.get("events.base-time") as string | undefined;
  let baseTime: number | undefined;
  if (baseTimeText !== undefined) {
    try {
      baseTime = parseTimestamp(baseTimeText);
    } catch {
      throw new SqlValidationError(`Invalid value for option 'events.base-time': '${baseTimeText}' (expected a timestamp such as '2026-01-01 00:00:00').`);
    }
  }
  const o: NexmarkOptions = {
    ...(events === 0 ? {} : { events }),
    eventsPerSecond: rate,
    rateLimited: options.get("rate.limited") as boolean,
    maxOutOfOrdernessMs: int("events.max-out-of-orderness"),
    ...(baseTime === undefined ? {} : { baseTime }),
    seed: int("events.seed"),
    proportions: { person: int("person.proportion"), auction: int("auction.proportion"), bid: int("bid.proportion") },
    hotAuctionRatio: int("bid.hot-ratio.auctions"),
    hotBiddersRatio: int("bid.hot-ratio.bidders"),
    hotSellersRatio: int("auction.hot-ratio.sellers"),
    avgPersonByteSize: int("person.avg-size"),
    avgAuctionByteSize: int("auction.avg-size"),
    avgBidByteSize: int("bid.avg-size"),
  };
  try {
    NexmarkSource.create(o);
  } catch (e) {
    if (e instanceof NexmarkOptionError) {
      const key = SQL_KEYS[e.option] ?? e.option;
      throw new SqlValidationError(`Invalid value for option '${key}': '${String(e.value)}' (expected ${e.requirement}).`);
    }
    throw e;
  }
  return o;
}

function createSource(ctx: DynamicTableContext): TableSource {
  const options = nexmarkOptionsOf(ctx.options.options);
  const events = NexmarkSource.create(options);
  const columns = nexmarkRecordColumns(ctx.physicalType); // checks the columns now, at planning
  const table = identifierString(ctx.table.identifier);
  /** The source of `T`s made of the generator's events by `convert`. */
  const add = <T>(convert: ((e: NexmarkEvent) => T) | undefined, watermarks: WatermarkStrategy<T>): DataStream<T> => {
    const source: Source<T, NexmarkSplit> = {
      boundedness: events.boundedness,
      createSplits: (parallelism) => events.createSplits(parallelism),
      createReader: () => new NexmarkReader<T>(new NexmarkGenerator(options), convert),
    };
    return ctx.env.fromSource(source, watermarks, `Source: ${table}`).uid(ctx.uid).name(`Source: ${table} (nexmark)`);
  };
  return {
    changelogMode: ChangelogMode.INSERT_ONLY,
    supportsWatermarkPushDown: true,
    watermarkAlignment: watermarkAlignmentOf(ctx),
    unbounded: events.boundedness === "continuous",
    produce: (watermarks, projection, nested) =>
      add(nexmarkRowConverter(ctx.physicalType, projection, nested), watermarks === undefined ? WatermarkStrategy.noWatermarks() : sourceWatermarkStrategy(watermarks)),
    records: {
      columns,
      produce: (watermarks) =>
        add<unknown>(undefined, watermarks === undefined ? WatermarkStrategy.noWatermarks() : recordWatermarkStrategy(watermarks)),
      toRow: (projection, nested) => nexmarkRowConverter(ctx.physicalType, projection, nested) as (record: unknown) => Row,
    },
  };
}

/** The options of `nexmark`, with Flink's keys and defaults. */
const OPTIONS: TableFactoryOptions = {
  requiredOptions: [],
  optionalOptions: [
    ...WATERMARK_ALIGNMENT_OPTIONS,
    option("events.num", { kind: "int" }, "The number of events; 0 (the default): unbounded.", 0),
    option("first-event.rate", { kind: "int" }, "Events per second of event time.", 10_000),
    option("next-event.rate", { kind: "int" }, "Must equal 'first-event.rate' (the generator has one rate).", 10_000),
    option("rate.limited", { kind: "boolean" }, "Emit each event when due on the wall clock, at 'first-event.rate'; false: as fast as the job takes them.", false),
    option("person.proportion", { kind: "int" }, "Persons per person + auction + bid events.", 1),
    option("auction.proportion", { kind: "int" }, "Auctions per person + auction + bid events.", 3),
    option("bid.proportion", { kind: "int" }, "Bids per person + auction + bid events.", 46),
    option("person.avg-size", { kind: "memory" }, "The average size of a person (its 'extra' pads it).", 200),
    option("auction.avg-size", { kind: "memory" }, "The average size of an auction.", 500),
    option("bid.avg-size", { kind: "memory" }, "The average size of a bid.", 100),
    option("bid.hot-ratio.auctions", { kind: "int" }, "1 − 1/ratio of the bids go to the hot auction.", 2),
    option("bid.hot-ratio.bidders", { kind: "int" }, "1 − 1/ratio of the bids are made by the hot bidder.", 4),
    option("auction.hot-ratio.sellers", { kind: "int" }, "1 − 1/ratio of the auctions are opened by the hot seller.", 4),
    option("events.max-out-of-orderness", { kind: "duration" }, "Each event's time is moved back by a pseudo-random lag up to this (Weir's option).", 0),
    option("events.base-time", { kind: "string" }, "The event time of the first event, a TIMESTAMP text (Weir's option; default 2026-01-01 00:00:00)."),
    option("events.seed", { kind: "int" }, "The seed of the pseudo-random fields (Weir's option).", 0),
  ],
};

/**
 * The `nexmark` connector's factory (a source only).
 *
 * @example
 * ```ts
 * const source = NEXMARK_TABLE_FACTORY.createSource!(ctx); // ctx.options: 'events.num', 'first-event.rate', …
 * source.produce();
 * ```
 */
export const NEXMARK_TABLE_FACTORY: DynamicTableFactory = { identifier: "nexmark", ...OPTIONS, createSource };
