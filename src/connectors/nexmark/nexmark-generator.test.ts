import { describe, expect, it } from "vitest";
import { PlainDataChecker } from "../../state/plain-shapes.ts";
import { NexmarkGenerator } from "./nexmark-generator.ts";
import { NexmarkOptionError } from "./nexmark-option-error.ts";
import { nexmarkEventTime, type Auction, type Bid, type Person } from "./nexmark-event.ts";
import { FIRST_AUCTION_ID, FIRST_PERSON_ID, hotId, lastAuctionId, lastPersonId } from "./nexmark-ids.ts";

const EVENTS = 50_000;

/** The persons, auctions and bids of events 0 … count − 1. */
function split(g: NexmarkGenerator, count: number) {
  const persons: Person[] = [];
  const auctions: Auction[] = [];
  const bids: { bid: Bid; n: number }[] = [];
  for (let n = 0; n < count; n++) {
    const e = g.event(n);
    if (e.type === 0) persons.push(e.person);
    else if (e.type === 1) auctions.push(e.auction);
    else bids.push({ bid: e.bid, n });
  }
  return { persons, auctions, bids };
}

describe("NexmarkGenerator", () => {
  it("makes event n from the options and n alone: any order, any instance, the same event", () => {
    const a = new NexmarkGenerator({ maxOutOfOrdernessMs: 1_000 });
    const b = new NexmarkGenerator({ maxOutOfOrdernessMs: 1_000 });
    const numbers = [0, 1, 4, 49, 50, 12_345, 2 ** 32 + 7, Number.MAX_SAFE_INTEGER - 100];
    const forward = numbers.map((n) => a.event(n));
    const backward = [...numbers].reverse().map((n) => b.event(n)).reverse();
    expect(backward).toEqual(forward);
    expect(a.event(12_345)).toEqual(forward[5]);
    expect(new NexmarkGenerator({ seed: 1 }).event(12_345)).not.toEqual(new NexmarkGenerator({ seed: 0 }).event(12_345));
  });

  it("makes plain data: each event, person, auction and bid equals its literal, field by field and in order", () => {
    const g = new NexmarkGenerator();
    const checker = new PlainDataChecker();
    for (let n = 0; n < 50; n++) {
      const e = g.event(n);
      checker.check(e); // throws for anything that is not plain data
      const part = e.person ?? e.auction ?? e.bid;
      for (const o of [e, part]) {
        expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
        expect(o).toStrictEqual({ ...o });
      }
      expect(Object.keys(e)).toEqual(["type", "person", "auction", "bid"]);
    }
    const { persons, auctions, bids } = split(g, 50);
    expect(Object.keys(persons[0]!)).toEqual(["id", "name", "emailAddress", "creditCard", "city", "state", "dateTime", "extra"]);
    expect(Object.keys(auctions[0]!)).toEqual(["id", "itemName", "description", "initialBid", "reserve", "dateTime", "expires", "seller", "category", "extra"]);
    expect(Object.keys(bids[0]!.bid)).toEqual(["auction", "bidder", "price", "channel", "url", "dateTime", "extra"]);
  });

  it("keeps the proportions 1 : 3 : 46 with dense ids from 1000", () => {
    const { persons, auctions, bids } = split(new NexmarkGenerator(), EVENTS);
    expect([persons.length, auctions.length, bids.length]).toEqual([1_000, 3_000, 46_000]);
    expect(persons.map((p) => p.id)).toEqual(persons.map((_, i) => FIRST_PERSON_ID + i));
    expect(auctions.map((a) => a.id)).toEqual(auctions.map((_, i) => FIRST_AUCTION_ID + i));
    const custom = split(new NexmarkGenerator({ proportions: { person: 2, auction: 1, bid: 7 } }), 1_000);
    expect([custom.persons.length, custom.auctions.length, custom.bids.length]).toEqual([200, 100, 700]);
  });

  it("sends most bids to the hot auction and bidder, most auctions to the hot seller", () => {
    const g = new NexmarkGenerator();
    const c = g.config;
    const { auctions, bids } = split(g, EVENTS);
    const hotAuction = bids.filter(({ bid, n }) => bid.auction === hotId(lastAuctionId(c, n)) + FIRST_AUCTION_ID).length / bids.length;
    const hotBidder = bids.filter(({ bid, n }) => bid.bidder === hotId(lastPersonId(c, n)) + 1 + FIRST_PERSON_ID).length / bids.length;
    const hotSeller = auctions.filter((a) => (a.seller - FIRST_PERSON_ID) % 100 === 0).length / auctions.length;
    // 1 − 1/ratio of them by choice, plus the cold draws that happen to hit the hot id
    expect(hotAuction).toBeGreaterThan(0.48);
    expect(hotAuction).toBeLessThan(0.53);
    expect(hotBidder).toBeGreaterThan(0.73);
    expect(hotBidder).toBeLessThan(0.78);
    expect(hotSeller).toBeGreaterThan(0.72);
    expect(hotSeller).toBeLessThan(0.79);
    // the busiest auction of the stream gets far more bids than an auction on average
    const perAuction = new Map<number, number>();
    for (const { bid } of bids) perAuction.set(bid.auction, (perAuction.get(bid.auction) ?? 0) + 1);
    expect(Math.max(...perAuction.values())).toBeGreaterThan((20 * bids.length) / perAuction.size);
  });

  it("refers to recent auctions and persons, at most 10 ids ahead", () => {
    const g = new NexmarkGenerator();
    const c = g.config;
    const outside = split(g, EVENTS).bids.filter(({ bid, n }) => {
      const lastAuction = lastAuctionId(c, n) + FIRST_AUCTION_ID;
      const lastPerson = lastPersonId(c, n) + FIRST_PERSON_ID;
      return bid.auction > lastAuction + 10 || bid.auction < Math.max(FIRST_AUCTION_ID, lastAuction - 100) || bid.bidder > lastPerson + 10 || bid.bidder < lastPerson - 1000;
    });
    expect(outside).toEqual([]);
  });

  it("draws fields from the model: states, categories, prices, padding towards the average sizes", () => {
    const { persons, auctions, bids } = split(new NexmarkGenerator(), EVENTS);
    expect(new Set(persons.map((p) => p.state))).toEqual(new Set(["AZ", "CA", "ID", "OR", "WA", "WY"]));
    expect(new Set(auctions.map((a) => a.category))).toEqual(new Set([10, 11, 12, 13, 14]));
    expect(new Set(persons.map((p) => p.name)).size).toBeGreaterThan(90);
    for (const a of auctions) {
      expect(a.reserve).toBeGreaterThan(a.initialBid);
      expect(a.expires).toBeGreaterThan(a.dateTime);
    }
    const prices = bids.map(({ bid }) => bid.price);
    expect(Math.min(...prices)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...prices)).toBeLessThanOrEqual(100_000_000);
    const belowTenDollars = prices.filter((p) => p < 1_000).length / prices.length; // log-uniform: 1/6 of the decades
    expect(belowTenDollars).toBeGreaterThan(0.15);
    expect(belowTenDollars).toBeLessThan(0.18);
    const meanExtra = bids.reduce((s, { bid }) => s + bid.extra.length, 0) / bids.length;
    expect(meanExtra).toBeGreaterThan(64);
    expect(meanExtra).toBeLessThan(72); // 100 bytes − 32 for the other fields
    expect(new Set(bids.map(({ bid }) => bid.channel)).size).toBeGreaterThan(1_000);
  });

  it("keeps event time in order without out-of-orderness, at eventsPerSecond", () => {
    const g = new NexmarkGenerator({ eventsPerSecond: 1_000, baseTime: 0 });
    const times = Array.from({ length: 5_000 }, (_, n) => nexmarkEventTime(g.event(n)));
    expect(times).toEqual(times.map((_, n) => n)); // 1 ms apart, in order
  });

  it("moves events back by at most maxOutOfOrdernessMs: nothing is behind a bounded-out-of-orderness watermark", () => {
    const bound = 500;
    const g = new NexmarkGenerator({ maxOutOfOrdernessMs: bound, eventsPerSecond: 10_000 });
    let maxSeen = -Infinity;
    let maxLag = 0;
    let late = 0;
    const wrong: number[] = [];
    for (let n = 0; n < EVENTS; n++) {
      const t = nexmarkEventTime(g.event(n));
      const lag = g.inOrderTimestamp(n) - t;
      if (t !== g.timestamp(n) || lag < 0 || lag > bound) wrong.push(n);
      maxLag = Math.max(maxLag, lag);
      if (t <= maxSeen - bound - 1) late++; // the watermark of forBoundedOutOfOrderness(bound)
      maxSeen = Math.max(maxSeen, t);
    }
    expect(wrong).toEqual([]);
    expect(late).toBe(0);
    expect(maxLag).toBeGreaterThan(bound * 0.95);
  });

  it("rejects options out of range, naming them", () => {
    expect(() => new NexmarkGenerator({ events: -1 })).toThrow(NexmarkOptionError);
    expect(() => new NexmarkGenerator({ eventsPerSecond: 0 })).toThrow(/eventsPerSecond/);
    expect(() => new NexmarkGenerator({ maxOutOfOrdernessMs: 1.5 })).toThrow(/maxOutOfOrdernessMs/);
    expect(() => new NexmarkGenerator({ proportions: { person: 1, auction: 0, bid: 1 } })).toThrow(/proportions.auction/);
  });
});
