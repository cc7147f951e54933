/**
 * The objects of the generator's events, made by `new` with constructors whose
 * prototype is `Object.prototype`: plain objects (the plain-data contract holds),
 * but never made by an object literal.
 *
 * V8 counts, for every object literal in the code (an allocation site), how
 * many of its objects survive a scavenge; when most did at one scavenge, it
 * allocates that literal's objects in the old generation from then on, for the
 * rest of the process. Events die young, but a run holds many of them at once
 * now and then (batches queued on a channel, its start), and whether a
 * scavenge falls there differs between processes. Where it did, every later
 * event was an old object that only a mark-compact frees, keeping its young
 * strings alive through the old-to-new references: every scavenge copied and
 * promoted them. Measured on Nexmark q7 (`npm run bench -- --only nexmark
 * --nexmark-queries q7 --nexmark-events 2150000`, where it happened in every
 * process): the fused loop 2.6 → 3.9 M events/s, the SQL twin's GC share
 * 20–23 → 5–8 % (docs/benchmarks.md, "Events V8 moved to its old generation").
 * Objects made by `new` carry no allocation site, so V8 never pretenures them.
 */
import type { Auction, Bid, NexmarkEvent, Person } from "./nexmark-event.ts";

type Fields<T> = { -readonly [K in keyof T]: T[K] };

/** Makes `constructor`'s objects plain: their prototype is `Object.prototype`, as a literal's. */
function plainObjects<C>(constructor: (...args: never[]) => void): C {
  constructor.prototype = Object.prototype;
  return constructor as unknown as C;
}

/** A person: `new PersonObject(id, name, …)`. */
export const PersonObject = plainObjects<new (...f: [number, string, string, string, string, string, number, string]) => Person>(function (
  this: Fields<Person>,
  id: number,
  name: string,
  emailAddress: string,
  creditCard: string,
  city: string,
  state: string,
  dateTime: number,
  extra: string,
) {
  this.id = id;
  this.name = name;
  this.emailAddress = emailAddress;
  this.creditCard = creditCard;
  this.city = city;
  this.state = state;
  this.dateTime = dateTime;
  this.extra = extra;
});

/** An auction: `new AuctionObject(id, itemName, …)`. */
export const AuctionObject = plainObjects<new (...f: [number, string, string, number, number, number, number, number, number, string]) => Auction>(function (
  this: Fields<Auction>,
  id: number,
  itemName: string,
  description: string,
  initialBid: number,
  reserve: number,
  dateTime: number,
  expires: number,
  seller: number,
  category: number,
  extra: string,
) {
  this.id = id;
  this.itemName = itemName;
  this.description = description;
  this.initialBid = initialBid;
  this.reserve = reserve;
  this.dateTime = dateTime;
  this.expires = expires;
  this.seller = seller;
  this.category = category;
  this.extra = extra;
});

/**
 * A bid: `new BidObject(auction, bidder, price, channel, url, dateTime, extra)`.
 *
 * @example
 * ```ts
 * const b = new BidObject(1000, 1001, 250, "Google", "https://www.nexmark.com/…", 0, "");
 * Object.getPrototypeOf(b) === Object.prototype; // true: plain data
 * ```
 */
export const BidObject = plainObjects<new (...f: [number, number, number, string, string, number, string]) => Bid>(function (
  this: Fields<Bid>,
  auction: number,
  bidder: number,
  price: number,
  channel: string,
  url: string,
  dateTime: number,
  extra: string,
) {
  this.auction = auction;
  this.bidder = bidder;
  this.price = price;
  this.channel = channel;
  this.url = url;
  this.dateTime = dateTime;
  this.extra = extra;
});

/** An event: `new EventObject(type, person, auction, bid)`, exactly one of the three set (the one `type` names). */
export const EventObject = plainObjects<new (...f: [0 | 1 | 2, Person | null, Auction | null, Bid | null]) => NexmarkEvent>(function (
  this: { type: number; person: Person | null; auction: Auction | null; bid: Bid | null },
  type: number,
  person: Person | null,
  auction: Auction | null,
  bid: Bid | null,
) {
  this.type = type;
  this.person = person;
  this.auction = auction;
  this.bid = bid;
});
