/**
 * The exactly-once Kafka sink through the real command line and a real broker, with crashes:
 * WEIR_FAULT=kill-before-commit SIGKILLs `weir run` after a checkpoint completed and before its Kafka
 * transaction was committed. Rerun with the same checkpoint directory, the job commits that transaction
 * from the checkpoint (EndTxn with the stored producer id and epoch, no InitProducerId) and aborts what
 * the killed run left open: each record once, and a read_committed consumer is not stuck behind a
 * lingering transaction. A fresh start with the same prefix aborts the killed run's open transactions too.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, startCli } from "./support/cli-process.ts";
import { completedCheckpointIds, finish } from "./support/e2e-kill-loop.ts";
import { sharedKafkaBroker, type SharedKafkaBroker } from "./support/shared-kafka.ts";
import { createTopic, produceRecords, readTopic } from "./support/kafka-topics.ts";
import { committedRecords } from "./support/kafka-committed.ts";
import { tempDirs } from "./support/temp-dirs.ts";

let broker: SharedKafkaBroker;
beforeAll(async () => {
  broker = await sharedKafkaBroker();
}, 90_000);
const tempDir = tempDirs("weir-kafka-crash-");

const COUNT = 1500;
const expected = Array.from({ length: COUNT }, (_, i) => `v-${i}`).sort();

function command(topic: string, prefix: string, checkpoints: string): string[] {
  return ["run", "test/fixtures/kafka-sink-job.ts", "--parallelism", "2", "--checkpoint-interval", "100", "--mode", "exactly-once", "--checkpoint-dir", checkpoints, "--", broker.bootstrap, topic, prefix, String(COUNT)];
}

async function values(topic: string, committed: boolean): Promise<string[]> {
  return (await readTopic(broker.bootstrap, topic, { committed })).map((r) => r.value!);
}

/** Runs the job with the fault: it dies with a completed checkpoint whose transaction is still open. Then a marker is written (not transactional). */
async function crash(topic: string, prefix: string, checkpoints: string): Promise<void> {
  await createTopic(broker.bootstrap, topic, 2);
  const crashed = await finish(startCli(command(topic, prefix, checkpoints), { WEIR_FAULT: "kill-before-commit" }), 60_000);
  expect(crashed.signal, `the run was not killed (exit ${crashed.code})\n${crashed.stderr}`).toBe("SIGKILL");
  expect(completedCheckpointIds(checkpoints).length).toBeGreaterThan(0);
  expect((await values(topic, false)).length, "the killed run wrote nothing").toBeGreaterThan(0);
  await produceRecords(broker.bootstrap, topic, [{ value: "marker", partition: 0 }, { value: "marker", partition: 1 }]);
  // The open transactions hold back the last stable offset: read_committed sees nothing after them.
  expect(await values(topic, true)).not.toContain("marker");
}

describe("EXACTLY_ONCE KafkaSink through weir run, with kills", () => {
  it("killed before the commit: the rerun commits the checkpoint's transaction and aborts the lingering ones; each record once", async () => {
    const [topic, prefix, checkpoints] = [broker.name("crash-out"), broker.name("crash-job"), tempDir()];
    await crash(topic, prefix, checkpoints);
    const rerun = await runCli(command(topic, prefix, checkpoints), 60_000);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/restored from checkpoint \d+/);
    expect(rerun.stderr).toMatch(new RegExp(`committed Kafka transaction '${prefix}-\\d-\\d+' of checkpoint \\d+`));
    const committed = (await committedRecords(broker.bootstrap, topic, COUNT + 2)).map((r) => r.value!); // markers included
    expect(committed.filter((v) => v === "marker")).toHaveLength(2);
    expect(committed.filter((v) => v !== "marker").sort()).toEqual(expected);
  }, 90_000);

  it("a fresh start with the same prefix aborts what a killed run left open (the last stable offset advances)", async () => {
    const [topic, prefix] = [broker.name("fresh-out"), broker.name("fresh-job")];
    await crash(topic, prefix, tempDir());
    const other = broker.name("fresh-out-2");
    await createTopic(broker.bootstrap, other, 1);
    const fresh = await runCli(command(other, prefix, tempDir()), 60_000);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stderr).toMatch(new RegExp(`aborted lingering Kafka transaction '${prefix}-\\d-\\d+'`));
    const records = await committedRecords(broker.bootstrap, topic, (r) => r.filter((x) => x.value === "marker").length >= 2);
    expect(records.filter((r) => r.value === "marker")).toHaveLength(2);
    expect((await committedRecords(broker.bootstrap, other, COUNT)).map((r) => r.value!).sort()).toEqual(expected);
  }, 90_000);
});
