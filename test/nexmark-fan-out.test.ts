/**
 * A fan-out straight from the Nexmark source (test/fixtures/nexmark-fan-out-job.ts):
 * the engine copies the events for all consumers but the last with the source's own
 * copy (`Source.copyRecord`). Branches that mutate every event they get must not
 * change what another branch reads, whichever edge gets the source's object, in the
 * main thread and on 2 workers; and once user code saw the records (a timestamp
 * assigner that marks them), the copies are the generic ones, which keep the mark.
 */
import { describe, expect, it } from "vitest";
import { NexmarkGenerator, type NexmarkEvent } from "../src/index.ts";
import { jsonResult, runCli } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const EVENTS = 3_000;
const tempDir = tempDirs("weir-nexmark-fan-out-");

/** What the job's `describeEvent` gives for `e` (`seen`: the assigner marked it). */
function describe_(e: NexmarkEvent, seen: boolean): string {
  const mark = seen ? " seen" : "";
  if (e.type === 0) return `0 person ${e.person.id} ${e.person.name} 8${mark}`;
  if (e.type === 1) return `1 auction ${e.auction.id} ${e.auction.seller} 10${mark}`;
  return `2 bid ${e.bid.auction} ${e.bid.price} 7${mark}`;
}

function mutated(e: NexmarkEvent, seen: boolean): string {
  const mark = seen ? " seen" : "";
  if (e.type === 0) return `9 person ${e.person.id} mutated 8${mark}`;
  if (e.type === 1) return `9 auction ${e.auction.id} -1 10${mark}`;
  return `9 bid ${e.bid.auction} -1 7${mark}`;
}

function expected(seen: boolean): { read: string[]; first: string[]; last: string[] } {
  const g = new NexmarkGenerator({ events: EVENTS, eventsPerSecond: 1_000, maxOutOfOrdernessMs: 1_000 });
  const events = Array.from({ length: EVENTS }, (_, n) => g.event(n));
  const read = events.map((e) => describe_(e, seen)).sort();
  const changed = events.map((e) => mutated(e, seen)).sort();
  return { read, first: changed, last: changed };
}

async function run(mode: "plain" | "assigner", workers: number): Promise<{ read: string[]; first: string[]; last: string[] }> {
  const r = await runCli(["run", "test/fixtures/nexmark-fan-out-job.ts", "--workers", String(workers), "--checkpoint-dir", tempDir(), "--", mode, String(EVENTS)], 120_000);
  expect(r.code, r.stderr).toBe(0);
  return jsonResult(r);
}

describe("a fan-out straight from the Nexmark source", () => {
  for (const workers of [0, 2]) {
    it(`branches that mutate their events do not change what another branch reads (workers ${workers})`, async () => {
      expect(await run("plain", workers)).toEqual(expected(false));
    }, 130_000);

    it(`after a user timestamp assigner changed the events, every branch gets them as changed (workers ${workers})`, async () => {
      expect(await run("assigner", workers)).toEqual(expected(true));
    }, 130_000);
  }
});
