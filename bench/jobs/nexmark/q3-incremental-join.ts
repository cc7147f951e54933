/**
 * Nexmark q3, local item suggestion: the auctions of category 10 with the
 * name, city and state of their seller, for sellers in Oregon, Idaho or
 * California — a regular (unbounded) join of persons and auctions on
 * `auction.seller = person.id`, keyed state on both sides:
 *
 * ```sql
 * SELECT P.name, P.city, P.state, A.id FROM auction AS A INNER JOIN person AS P ON A.seller = P.id
 * WHERE A.category = 10 AND (P.state = 'OR' OR P.state = 'ID' OR P.state = 'CA')
 * ```
 *
 * A person id occurs once, so the join keeps the person of a key and the ids of its
 * auctions that came before it (emitted and dropped when the person arrives).
 */
import {
  KeyedCoProcessFunction,
  ListStateDescriptor,
  NexmarkEventType,
  ValueStateDescriptor,
  type Auction,
  type Collector,
  type KeyedProcessContext,
  type ListState,
  type Person,
  type ValueState,
} from "../../../src/index.ts";
import { digestAdd, digestAddString, digestStart, type NexmarkQuery } from "./nexmark-query.ts";

/** A seller of the selected states and one of its auctions. */
export interface LocalItem {
  name: string;
  city: string;
  state: string;
  id: number;
}

/** What the join keeps of a person. */
interface Seller {
  name: string;
  city: string;
  state: string;
}

const STATES = new Set(["OR", "ID", "CA"]);
const CATEGORY = 10;

const isLocalSeller = (p: Person) => STATES.has(p.state);
const isSelected = (a: Auction) => a.category === CATEGORY;

/** The join: persons on input 1, auctions on input 2, keyed by person id / seller. */
class IncrementalJoin extends KeyedCoProcessFunction<number, Person, Auction, LocalItem> {
  private seller!: ValueState<Seller>;
  private waiting!: ListState<number>;

  override open(): void {
    const ctx = this.getRuntimeContext();
    this.seller = ctx.getState(new ValueStateDescriptor<Seller>("seller"));
    this.waiting = ctx.getListState(new ListStateDescriptor<number>("auctions-before-seller"));
  }

  processElement1(p: Person, _ctx: KeyedProcessContext<number>, out: Collector<LocalItem>): void {
    this.seller.update({ name: p.name, city: p.city, state: p.state });
    for (const id of this.waiting.get()) out.collect({ name: p.name, city: p.city, state: p.state, id });
    this.waiting.clear();
  }

  processElement2(a: Auction, _ctx: KeyedProcessContext<number>, out: Collector<LocalItem>): void {
    const s = this.seller.value();
    if (s) out.collect({ name: s.name, city: s.city, state: s.state, id: a.id });
    else this.waiting.add(a.id);
  }
}

export const q3: NexmarkQuery<LocalItem> = {
  name: "q3",
  description: "incremental join: auctions of category 10 ⋈ their sellers in OR, ID, CA (keyed state, unbounded)",
  keyed: true,
  build(events) {
    const persons = events
      .filter((e) => e.type === NexmarkEventType.PERSON && isLocalSeller(e.person!))
      .name("persons in OR, ID, CA")
      .map((e) => e.person!)
      .name("person");
    const auctions = events
      .filter((e) => e.type === NexmarkEventType.AUCTION && isSelected(e.auction!))
      .name("auctions of category 10")
      .map((e) => e.auction!)
      .name("auction");
    return persons
      .keyBy((p) => p.id)
      .connect(auctions.keyBy((a) => a.seller))
      .process(new IncrementalJoin())
      .uid("q3-join")
      .name("q3");
  },
  fused(g, events, emit) {
    const sellers = new Map<number, Seller>();
    const waiting = new Map<number, number[]>();
    for (let n = 0; n < events; n++) {
      const e = g.event(n);
      if (e.type === NexmarkEventType.PERSON) {
        const p = e.person;
        if (!isLocalSeller(p)) continue;
        sellers.set(p.id, { name: p.name, city: p.city, state: p.state });
        for (const id of waiting.get(p.id) ?? []) emit({ name: p.name, city: p.city, state: p.state, id });
        waiting.delete(p.id);
      } else if (e.type === NexmarkEventType.AUCTION) {
        const a = e.auction;
        if (!isSelected(a)) continue;
        const s = sellers.get(a.seller);
        if (s) emit({ name: s.name, city: s.city, state: s.state, id: a.id });
        else {
          const list = waiting.get(a.seller);
          if (list) list.push(a.id);
          else waiting.set(a.seller, [a.id]);
        }
      }
    }
  },
  digest(r) {
    let h = digestStart();
    h = digestAdd(h, r.id);
    h = digestAddString(h, r.name);
    h = digestAddString(h, r.city);
    return digestAddString(h, r.state);
  },
};
