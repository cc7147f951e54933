/**
 * The events of the Nexmark benchmark: an online auction site where people
 * register, open auctions and bid. Plain objects with the field names of the
 * Flink Nexmark tables (`person`, `auction`, `bid`); times are milliseconds
 * since the epoch (the tables' `TIMESTAMP(3)`), prices are integers (cents).
 */

/** The `type` of a `NexmarkEvent` (the `event_type` column of Flink's Nexmark table). */
export const NexmarkEventType = { PERSON: 0, AUCTION: 1, BID: 2 } as const;

/** A new person registered. */
export interface Person {
  /** Unique person id (from 1000). */
  id: number;
  name: string;
  emailAddress: string;
  creditCard: string;
  city: string;
  /** One of AZ, CA, ID, OR, WA, WY. */
  state: string;
  /** Event time, ms since the epoch. */
  dateTime: number;
  /** Padding towards the configured average event size. */
  extra: string;
}

/** A new auction opened. */
export interface Auction {
  /** Unique auction id (from 1000). */
  id: number;
  itemName: string;
  description: string;
  initialBid: number;
  reserve: number;
  /** Event time, ms since the epoch. */
  dateTime: number;
  /** When the auction closes, ms since the epoch (after `dateTime`). */
  expires: number;
  /** Id of the person selling (a `Person.id`). */
  seller: number;
  /** 10 to 14. */
  category: number;
  extra: string;
}

/** A bid on an auction. */
export interface Bid {
  /** Id of the auction (an `Auction.id`). */
  auction: number;
  /** Id of the person bidding (a `Person.id`). */
  bidder: number;
  /** In cents, 100 to 100 000 000 (log-uniform). */
  price: number;
  /** Where the bid came from, e.g. `"Google"` or `"channel-42"`. */
  channel: string;
  url: string;
  /** Event time, ms since the epoch. */
  dateTime: number;
  extra: string;
}

/**
 * One event of the stream: exactly one of `person`, `auction`, `bid` is set
 * (the one `type` names), the others are `null`. Narrow on `type`:
 *
 * @example
 * ```ts
 * const prices = events.filter((e) => e.type === NexmarkEventType.BID).map((e) => e.bid!.price);
 * ```
 */
export type NexmarkEvent = PersonEvent | AuctionEvent | BidEvent;

export interface PersonEvent {
  type: 0;
  person: Person;
  auction: null;
  bid: null;
}

export interface AuctionEvent {
  type: 1;
  person: null;
  auction: Auction;
  bid: null;
}

export interface BidEvent {
  type: 2;
  person: null;
  auction: null;
  bid: Bid;
}

/**
 * The event time of an event: the `dateTime` of its person, auction or bid (the
 * timestamp `NexmarkSource` gives each record).
 *
 * @example
 * ```ts
 * WatermarkStrategy.forBoundedOutOfOrderness<NexmarkEvent>(2_000).withTimestampAssigner(nexmarkEventTime);
 * ```
 */
export function nexmarkEventTime(e: NexmarkEvent): number {
  return e.type === 2 ? e.bid.dateTime : e.type === 1 ? e.auction.dateTime : e.person.dateTime;
}
