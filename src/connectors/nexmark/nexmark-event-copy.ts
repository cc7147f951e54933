/**
 * The deep copy of a Nexmark event as the generator makes it (the source's
 * `copyRecord`): the event and its person, auction or bid, with the keys in
 * the generator's order, which is what the engine's generic plain-data copy
 * gives, without checking each object's keys first.
 */
import type { Auction, Bid, NexmarkEvent, Person } from "./nexmark-event.ts";

function copyPerson(p: Person): Person {
  return { id: p.id, name: p.name, emailAddress: p.emailAddress, creditCard: p.creditCard, city: p.city, state: p.state, dateTime: p.dateTime, extra: p.extra };
}

function copyAuction(a: Auction): Auction {
  return {
    id: a.id,
    itemName: a.itemName,
    description: a.description,
    initialBid: a.initialBid,
    reserve: a.reserve,
    dateTime: a.dateTime,
    expires: a.expires,
    seller: a.seller,
    category: a.category,
    extra: a.extra,
  };
}

function copyBid(b: Bid): Bid {
  return { auction: b.auction, bidder: b.bidder, price: b.price, channel: b.channel, url: b.url, dateTime: b.dateTime, extra: b.extra };
}

/**
 * A deep copy of event `e` as `NexmarkGenerator.event` made it.
 *
 * @example
 * ```ts
 * const e = new NexmarkGenerator({ events: 10 }).event(3);
 * const c = copyNexmarkEvent(e); // equal to e, sharing no object with it
 * ```
 */
export function copyNexmarkEvent(e: NexmarkEvent): NexmarkEvent {
  switch (e.type) {
    case 0:
      return { type: 0, person: copyPerson(e.person), auction: null, bid: null };
    case 1:
      return { type: 1, person: null, auction: copyAuction(e.auction), bid: null };
    default:
      return { type: 2, person: null, auction: null, bid: copyBid(e.bid) };
  }
}
