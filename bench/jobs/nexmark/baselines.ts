/**
 * The same queries without the engine, in the calling thread, on the same
 * generator: a hand-fused loop (the query written as one loop, no framework)
 * and an RxJS pipeline. Each sums the row digests like the engine's sink.
 */
import { performance } from "node:perf_hooks";
import { Observable } from "rxjs";
import { NexmarkGenerator, type NexmarkEvent } from "../../../src/index.ts";
import type { NexmarkSourceParams } from "./nexmark-job.ts";
import type { NexmarkQueryName } from "./nexmark-query.ts";
import { QUERIES } from "./queries.ts";
import type { QueryResult } from "./query-result.ts";

/** A timed run of a baseline. */
export interface BaselineRun extends QueryResult {
  readonly elapsedMs: number;
  /** The rows, when asked for. */
  readonly collected: unknown[];
}

function generator(source: NexmarkSourceParams): NexmarkGenerator {
  return new NexmarkGenerator({ events: source.events, eventsPerSecond: source.eventsPerSecond, maxOutOfOrdernessMs: source.maxOutOfOrdernessMs });
}

/**
 * The query's hand-fused loop over events 0 … events − 1.
 *
 * @example
 * ```ts
 * const { rows, digest } = runFused("q2", { events: 1_000_000, maxOutOfOrdernessMs: 4_000 });
 * ```
 */
export function runFused(query: NexmarkQueryName, source: NexmarkSourceParams, collect = false): BaselineRun {
  const q = QUERIES[query];
  const g = generator(source);
  let rows = 0;
  let digest = 0;
  const collected: unknown[] = [];
  const started = performance.now();
  q.fused(g, source.events, (row) => {
    rows++;
    digest = (digest + q.digest(row)) >>> 0;
    if (collect) collected.push(row);
  });
  return { rows, digest, elapsedMs: performance.now() - started, collected };
}

/** Whether the query has an RxJS pipeline. */
export function hasRx(query: NexmarkQueryName): boolean {
  return QUERIES[query].rx !== undefined;
}

/**
 * The query's RxJS pipeline over an Observable of events 0 … events − 1 (synchronous, as RxJS runs it).
 *
 * @example
 * ```ts
 * const { rows, digest } = runRx("q5", { events: 1_000_000, maxOutOfOrdernessMs: 4_000 });
 * ```
 */
export function runRx(query: NexmarkQueryName, source: NexmarkSourceParams, collect = false): BaselineRun {
  const q = QUERIES[query];
  if (!q.rx) throw new Error(`nexmark ${query} has no RxJS pipeline`);
  const g = generator(source);
  const events = new Observable<NexmarkEvent>((subscriber) => {
    for (let n = 0; n < source.events && !subscriber.closed; n++) subscriber.next(g.event(n));
    subscriber.complete();
  });
  let rows = 0;
  let digest = 0;
  const collected: unknown[] = [];
  const started = performance.now();
  q.rx(events).subscribe((row) => {
    rows++;
    digest = (digest + q.digest(row)) >>> 0;
    if (collect) collected.push(row);
  });
  return { rows, digest, elapsedMs: performance.now() - started, collected };
}
