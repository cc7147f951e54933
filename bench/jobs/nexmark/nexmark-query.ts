/**
 * What a Nexmark query of the bench is made of: the query on the engine
 * (DataStream API), the same query as a hand-fused loop over the generator
 * (the reference result and the fastest plain JavaScript), optionally as an
 * RxJS pipeline, and an order-independent digest of one output row, which
 * every sink sums so that a run's whole result can be checked cheaply.
 */
import type { Observable } from "rxjs";
import type { DataStream, NexmarkEvent, NexmarkGenerator, Row } from "../../../src/index.ts";

/** The queries of the bench. */
export const NEXMARK_QUERIES = ["q0", "q1", "q2", "q3", "q5", "q7", "q8"] as const;
export type NexmarkQueryName = (typeof NEXMARK_QUERIES)[number];

/** Event time is out of order by up to this much, and the watermarks trail by as much (Flink Nexmark's 4 s). */
export const NEXMARK_OUT_OF_ORDERNESS_MS = 4_000;

/** One query, three ways. */
export interface NexmarkQuery<Out> {
  readonly name: NexmarkQueryName;
  /** One line: what it computes. */
  readonly description: string;
  /** Whether the query holds keyed state (a keyBy). */
  readonly keyed: boolean;
  /** The query on the engine, from the stream of events. */
  build(events: DataStream<NexmarkEvent>): DataStream<Out>;
  /**
   * The query as one loop over events 0 … events − 1 of `g` in order, emitting the same rows
   * (windows fire when the watermark, `NEXMARK_OUT_OF_ORDERNESS_MS` behind the highest time, passes them).
   */
  fused(g: NexmarkGenerator, events: number, emit: (row: Out) => void): void;
  /** The query as an RxJS pipeline over the events (q0–q2, q5, q7). */
  readonly rx?: (events: Observable<NexmarkEvent>) => Observable<Out>;
  /** A 32-bit digest of one row, summed (mod 2^32) over the result. */
  digest(row: Out): number;
  /**
   * Where the query has a SQL twin (sql-twins.ts: q0, q1, q2, q5, q7): this query's output row of
   * a row of the twin's SELECT (insert-only), so that the SQL runs are digested as this query's
   * rows; also used for the published SQL of the same name where its SELECT gives the twin's columns
   * (`PUBLISHED_SQL_WITH_TWIN_ROWS`).
   */
  readonly sqlRow?: (r: Row) => Out;
  /** The event time a row is about (ms), for latency: present where a row follows from one event. */
  readonly eventTimeOf?: (row: Out) => number;
}

const SEED = 0x2545f491;

/** Starts a digest. */
export function digestStart(): number {
  return SEED;
}

/** Folds a number (an integer up to 2^53, or a float rounded to 1/1000) into digest `h`. */
export function digestAdd(h: number, x: number): number {
  const v = Number.isInteger(x) ? x : Math.round(x * 1000);
  h = Math.imul(h ^ (v >>> 0), 0x9e3779b1);
  h = Math.imul(h ^ ((v / 4294967296) >>> 0), 0x85ebca6b);
  return (h ^ (h >>> 15)) >>> 0;
}

/** Folds a string (its length and first and last characters: enough to catch a wrong row) into digest `h`. */
export function digestAddString(h: number, s: string): number {
  const n = s.length;
  return digestAdd(h, n === 0 ? 0 : n * 65536 * 256 + s.charCodeAt(0) * 65536 + s.charCodeAt(n - 1));
}
