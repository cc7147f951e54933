/**
 * Nexmark q8, monitor new users: the persons who opened an auction in the
 * same tumbling window of 10 s in which they registered, as (id, name, window
 * start) — a window coGroup of persons and auctions on `person.id = auction.seller`:
 *
 * ```sql
 * SELECT P.id, P.name, P.starttime FROM (persons per TUMBLE(dateTime, 10 s)) P
 * JOIN (sellers per TUMBLE(dateTime, 10 s)) A ON P.id = A.seller AND same window
 * ```
 */
import { NexmarkEventType, nexmarkEventTime, TumblingEventTimeWindows, type Auction, type Collector, type Person } from "../../../src/index.ts";
import { digestAdd, digestAddString, digestStart, type NexmarkQuery } from "./nexmark-query.ts";
import { PendingWindows, windowStart } from "./pending-windows.ts";

/** A person who sold in the window of its registration. */
export interface NewSeller {
  id: number;
  name: string;
  starttime: number;
}

const SIZE_MS = 10_000;

/** The persons and sellers of one window. */
interface WindowPeople {
  readonly persons: Map<number, string>;
  readonly sellers: Set<number>;
}

export const q8: NexmarkQuery<NewSeller> = {
  name: "q8",
  description: "window join: persons who registered and opened an auction in the same TUMBLE(10 s) window",
  keyed: true,
  build(events) {
    const persons = events
      .filter((e) => e.type === NexmarkEventType.PERSON)
      .name("persons")
      .map((e) => e.person!)
      .name("person");
    const auctions = events
      .filter((e) => e.type === NexmarkEventType.AUCTION)
      .name("auctions")
      .map((e) => e.auction!)
      .name("auction");
    return persons
      .coGroup(auctions)
      .where((p: Person) => p.id)
      .equalTo((a: Auction) => a.seller)
      .window(TumblingEventTimeWindows.of(SIZE_MS))
      .apply((ps: Person[], as: Auction[], out: Collector<NewSeller>) => {
        if (as.length === 0) return;
        for (const p of ps) out.collect({ id: p.id, name: p.name, starttime: windowStart(p.dateTime, SIZE_MS) });
      })
      .uid("q8-join")
      .name("q8");
  },
  fused(g, events, emit) {
    const windows = new PendingWindows<WindowPeople>(
      () => ({ persons: new Map(), sellers: new Set() }),
      (end, w) => {
        for (const [id, name] of w.persons) if (w.sellers.has(id)) emit({ id, name, starttime: end - SIZE_MS });
      },
    );
    for (let n = 0; n < events; n++) {
      const e = g.event(n);
      const t = nexmarkEventTime(e);
      const end = windowStart(t, SIZE_MS) + SIZE_MS;
      if (e.type === NexmarkEventType.PERSON) windows.get(end).persons.set(e.person.id, e.person.name);
      else if (e.type === NexmarkEventType.AUCTION) windows.get(end).sellers.add(e.auction.seller);
      windows.advance(t);
    }
    windows.fireAll();
  },
  digest(r) {
    let h = digestStart();
    h = digestAdd(h, r.id);
    h = digestAdd(h, r.starttime);
    return digestAddString(h, r.name);
  },
};
