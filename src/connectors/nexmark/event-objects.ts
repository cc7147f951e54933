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

/** The values of `fields` of a `T`, in that order. */
type ValuesOf<T, K extends readonly (keyof T)[]> = { -readonly [I in keyof K]: T[K[I]] };

/**
 * A constructor of plain `T` objects (prototype `Object.prototype`, as a literal's) with `fields`,
 * in that order, from its arguments. Compiled for the fields: one assignment each.
 */
function plainConstructor<T>() {
  return <const K extends readonly (keyof T & string)[]>(fields: K): new (...values: ValuesOf<T, K>) => T => {
    const names = fields.map((f, i) => `this[${JSON.stringify(f)}] = v${i};`);
    const constructor = new Function(...fields.map((_, i) => `v${i}`), `"use strict";\n${names.join("\n")}`);
    constructor.prototype = Object.prototype;
    return constructor as new (...values: ValuesOf<T, K>) => T;
  };
}

/** A person: `new PersonObject(id, name, emailAddress, creditCard, city, state, dateTime, extra)`. */
export const PersonObject = plainConstructor<Person>()(["id", "name", "emailAddress", "creditCard", "city", "state", "dateTime", "extra"]);

/** An auction: `new AuctionObject(id, itemName, description, initialBid, reserve, dateTime, expires, seller, category, extra)`. */
export const AuctionObject = plainConstructor<Auction>()(["id", "itemName", "description", "initialBid", "reserve", "dateTime", "expires", "seller", "category", "extra"]);

/**
 * A bid: `new BidObject(auction, bidder, price, channel, url, dateTime, extra)`.
 *
 * @example
 * ```ts
 * const b = new BidObject(1000, 1001, 250, "Google", "https://www.nexmark.com/…", 0, "");
 * Object.getPrototypeOf(b) === Object.prototype; // true: plain data
 * ```
 */
export const BidObject = plainConstructor<Bid>()(["auction", "bidder", "price", "channel", "url", "dateTime", "extra"]);

/** An event: `new EventObject(type, person, auction, bid)`, exactly one of the three set (the one `type` names). */
export const EventObject = plainConstructor<{ type: 0 | 1 | 2; person: Person | null; auction: Auction | null; bid: Bid | null }>()([
  "type",
  "person",
  "auction",
  "bid",
]) as new (type: 0 | 1 | 2, person: Person | null, auction: Auction | null, bid: Bid | null) => NexmarkEvent;
