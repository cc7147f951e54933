/**
 * Reading what a transactional producer committed, once the broker made it visible. A commit returns
 * when the transaction coordinator logged its decision; the commit markers reach the partitions just
 * after, and until then read_committed stops at the open transaction (the last stable offset). So a test
 * that reads right after a job committed waits (with a deadline) until read_committed holds at least
 * the number of records it expects (or what it waits for), then asserts on exactly what it got.
 */
import { readTopic, type StoredRecord } from "./kafka-topics.ts";

/**
 * The read_committed records of `topic` once there are at least `until` of them, or `until(records)` holds
 * (or what there is after `timeoutMs`).
 */
export async function committedRecords(bootstrap: string, topic: string, until: number | ((records: StoredRecord[]) => boolean), timeoutMs = 15_000): Promise<StoredRecord[]> {
  const deadline = Date.now() + timeoutMs;
  const done = typeof until === "number" ? (r: StoredRecord[]) => r.length >= until : until;
  for (;;) {
    const records = await readTopic(bootstrap, topic, { committed: true });
    if (done(records) || Date.now() > deadline) return records;
    await new Promise((r) => setTimeout(r, 50));
  }
}
