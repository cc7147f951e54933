/**
 * Drives a PostgreSQL CDC source reader directly (no job): polls it into an array, takes and completes
 * "checkpoints", and restores a new reader from a taken state — for tests of positions, restores and
 * confirmations against a real server.
 */
import type { ReaderOutput, SourceReader } from "../../src/core/source.ts";
import { ChangeEventDeserializationSchema, type PostgresChangeEvent } from "../../src/connectors/postgres/postgres-change-event.ts";
import { PostgresSource, StartupOptions } from "../../src/connectors/postgres/postgres-source.ts";
import type { PostgresSourceSplit } from "../../src/connectors/postgres/postgres-source-split.ts";
import type { PostgresDatabases } from "./postgres-server.ts";

/** A source reading `tables` of `database` on `server` through `slot`, emitting the events themselves. */
export function cdcSource(server: PostgresDatabases, database: string, slot: string, tables: string[], o: { latest?: boolean; fetchSize?: number; password?: string; user?: string } = {}): PostgresSource<PostgresChangeEvent> {
  const b = PostgresSource.builder<PostgresChangeEvent>()
    .hostname(server.host)
    .port(server.port)
    .database(database)
    .tableList(...tables)
    .username(o.user ?? server.user)
    .slotName(slot)
    .publicationName(`${slot}_pub`)
    .fetchSize(o.fetchSize ?? 1024)
    .startupOptions(o.latest === true ? StartupOptions.latest() : StartupOptions.initial())
    .deserializer(new ChangeEventDeserializationSchema());
  if (o.password !== undefined) b.password(o.password);
  return b.build();
}

/** A reader with what it emitted. */
export interface DrivenReader {
  readonly reader: SourceReader<PostgresChangeEvent, PostgresSourceSplit>;
  readonly events: PostgresChangeEvent[];
  /** Polls (max `batch` per call) until `done(events)` or the deadline; rejects with the reader's failure. */
  pollUntil(done: (events: PostgresChangeEvent[]) => boolean, o?: { batch?: number; timeoutMs?: number; what?: string }): Promise<void>;
  /** Polls once (up to `batch`). */
  pollOnce(batch: number): Promise<void>;
  close(): Promise<void>;
}

/** A reader of `source` on the given split (a fresh one by default). */
export function driveReader(source: PostgresSource<PostgresChangeEvent>, split?: PostgresSourceSplit): DrivenReader {
  const reader = source.createReader({ subtaskIndex: 0, parallelism: 1, operatorUid: "cdc" });
  reader.addSplits(split === undefined ? source.createSplits(1) : [split]);
  const events: PostgresChangeEvent[] = [];
  const output: ReaderOutput<PostgresChangeEvent> = {
    collect: (v) => void events.push(v),
    collectSide: () => {},
    createOutputForSplit: () => output,
    releaseOutputForSplit: () => {},
  };
  const pollOnce = async (batch: number): Promise<void> => {
    await reader.pollNext(output, batch);
  };
  return {
    reader,
    events,
    pollOnce,
    async pollUntil(done, o = {}) {
      const deadline = Date.now() + (o.timeoutMs ?? 20_000);
      while (!done(events)) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${o.what ?? "events"}; got ${events.length}: ${JSON.stringify(events.slice(-5))}`);
        const status = await reader.pollNext(output, o.batch ?? 100);
        if (status === "nothing-available" && !done(events)) await Promise.race([reader.isAvailable?.(), new Promise((r) => setTimeout(r, 50))]);
      }
    },
    close: async () => {
      await reader.close?.();
    },
  };
}

/** `op:id` shorthand of events (`after.id`, or `before.id` for deletes). */
export function opsById(events: readonly PostgresChangeEvent[]): string[] {
  return events.map((e) => `${e.op}:${(e.after ?? e.before)!["id"]}`);
}

/** The table materialized from events by `id` (upsert semantics): id → after. */
export function materialize(events: readonly PostgresChangeEvent[]): Map<string, Record<string, string | null>> {
  const rows = new Map<string, Record<string, string | null>>();
  for (const e of events) {
    if (e.before !== null && (e.op === "d" || (e.after !== null && e.before["id"] !== e.after["id"]))) rows.delete(e.before["id"]!);
    if (e.after !== null) rows.set(e.after["id"]!, e.after);
  }
  return rows;
}
