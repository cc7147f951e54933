/**
 * Exactly-once across a whole cluster under real crashes: a highly available cluster on a private etcd (two job
 * managers, a leader and a standby, and two task managers of one slot each) runs a job submitted with
 * `weir run -m` (KafkaSource of 40 000 keyed orders → keyBy → running count and total in keyed state → a FileSink,
 * a transactional KafkaSink and a JdbcSink with prepared transactions) at parallelism 2 over both task managers.
 * Round after round, once every sink's committed output grew since the last kill, a seeded random process — a
 * task manager or the leading job manager — is SIGKILLed and a replacement started, either a random delay later
 * or at once when the next checkpoint's _metadata appears (while the job manager completes it in etcd and the
 * sinks commit it); then the job runs to its end. Each sink then holds exactly the output of a failure-free run (0 lost, 0 duplicated),
 * no prepared transaction is left in PostgreSQL and no transaction is open in Kafka. Reproduce a failure with
 * WEIR_SEED=<seed>.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { randomInt, seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { startCli, type RunningCli } from "./support/cli-process.ts";
import { clusterSuite, jobDetails, processDir, startJobManager, startTaskManager } from "./support/cluster-processes.ts";
import { latestCheckpointId, pause } from "./support/e2e-kill-loop.ts";
import { committedTotals, describeDiff, diffTotals, expectedTotals, generateOrders, hiddenFiles, type E2eTotal } from "./support/e2e-orders.ts";
import { startEtcd, type EtcdServer } from "./support/etcd-server.ts";
import { committedRecords } from "./support/kafka-committed.ts";
import { createTopic, partitionEnds, produceRecords, readTopic } from "./support/kafka-topics.ts";
import { preparedTransactions, rowCount } from "./support/postgres-wait.ts";
import { sharedKafkaBroker, type SharedKafkaBroker } from "./support/shared-kafka.ts";
import { sharedPostgres, type SharedPostgres } from "./support/shared-postgres.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const JOB = fileURLToPath(new URL("./fixtures/cluster/three-sinks-job.ts", import.meta.url));
const SEED = testSeed();
const PARTITIONS = 4;
const PER_PARTITION = 10_000;
const KILLS = 6;
/** Upper bound of each wait of the loop (a leader, a sink's growth, the job's end): its message says what was missing. */
const WAIT_MS = 90_000;
const tempDir = tempDirs("weir-cluster-kill-loop-");
const started = clusterSuite();
let etcd: EtcdServer;
let broker: SharedKafkaBroker;
let postgres: SharedPostgres;

beforeAll(async () => {
  [etcd, broker, postgres] = await Promise.all([startEtcd(), sharedKafkaBroker(), sharedPostgres()]);
}, 120_000);
afterAll(async () => {
  await etcd?.stop();
  await postgres?.release();
});

/** A process of the cluster as the loop knows it. */
interface Member {
  readonly name: string;
  readonly cli: RunningCli;
  /** The REST address of a job manager. */
  readonly url?: string;
}

/** The committed output of the three sinks so far, in records. */
interface Committed {
  readonly file: number;
  readonly kafka: number;
  readonly postgres: number;
}

it(`a cluster of 2 job managers (HA) and 2 task managers, a process SIGKILLed ${KILLS} times (seed ${SEED}): the FileSink, Kafka and PostgreSQL outputs are exact`, async () => {
  const t0 = Date.now();
  const dir = tempDir();
  const random = seededRandom(SEED);
  const interval = randomInt(random, 200, 500);
  const orders = generateOrders(SEED, PARTITIONS, PER_PARTITION, 10);
  const expected = expectedTotals(orders);
  const [input, output] = [broker.name("orders"), broker.name("totals")];
  await createTopic(broker.bootstrap, [input, output], PARTITIONS);
  for (let p = 0; p < PARTITIONS; p++) await produceRecords(broker.bootstrap, input, orders[p]!.map((o) => ({ key: o.key, value: JSON.stringify(o), partition: p })));
  const db = await postgres.createDatabase("cluster_kill_loop");
  await postgres.query("CREATE TABLE totals (id BIGINT NOT NULL, key TEXT NOT NULL, count INT NOT NULL, total BIGINT NOT NULL)", [], db);
  const [files, gate] = [join(dir, "out", "files"), join(dir, "out", "gate")];
  mkdirSync(join(dir, "out"), { recursive: true });

  const ha = [
    ...["-D", "high-availability.type=etcd", "-D", `high-availability.etcd.endpoints=${etcd.endpoint}`, "-D", `high-availability.storageDir=${join(dir, "ha")}`],
    ...["-D", "high-availability.etcd.lease-ttl=3 s", "-D", `high-availability.cluster-id=kill-loop-${SEED}`],
  ];
  const members: Member[] = [];
  const killed: Member[] = [];
  let serial = 0;
  const addJobManager = async () => {
    const jm = await startJobManager(processDir(dir, `jm-${++serial}`), ha);
    started.push(jm.cli);
    members.push({ name: `jm-${serial}`, cli: jm.cli, url: jm.url });
  };
  const addTaskManager = async () => {
    const tm = await startTaskManager(processDir(dir, `tm-${++serial}`), 1, 1, ha);
    started.push(tm.cli);
    members.push({ name: `tm-${serial}`, cli: tm.cli });
  };
  /** The leading job manager: the one alive that logged its leadership (nobody is cut from etcd here, so none steps down). */
  const leader = () => members.find((m) => m.url !== undefined && /leads 'jobmanager' with epoch/.test(m.cli.stderr()));

  /** What each sink committed so far; Kafka's read (the dearest) only when `readKafka` says so after the others. */
  const committed = async (readKafka: (c: Omit<Committed, "kafka">) => boolean = () => true): Promise<Committed> => {
    const others = { file: existsSync(files) ? committedTotals(files).length : 0, postgres: await rowCount(postgres, db, "totals") };
    return { ...others, kafka: readKafka(others) ? (await readTopic(broker.bootstrap, output, { committed: true })).length : -1 };
  };
  let client: RunningCli | undefined;
  let jobId: string | undefined;
  const kills: { victim: string; moment: string }[] = [];
  /** What a failure message needs: the seed, the kills, who runs and leads, what each sink committed, the job's state, the leader's and the task managers' logs. */
  const situation = async () => {
    const lead = leader();
    const state = lead && jobId ? await jobDetails(lead.url!, jobId).then((d) => d.state, (e: Error) => e.message) : "unknown";
    const now = await committed().catch((e: Error) => e.message);
    return [
      `seed ${SEED} (WEIR_SEED=${SEED}), checkpoint interval ${interval} ms, kills ${JSON.stringify(kills)}`,
      `running ${members.map((m) => `${m.name} (pid ${m.cli.child.pid}${m.cli.child.exitCode !== null ? `, exited ${m.cli.child.exitCode}` : ""})`).join(", ")}; killed ${killed.map((m) => m.name).join(", ") || "none"}`,
      `leader ${lead?.name ?? "none"}, job ${jobId ?? "not submitted"} ${state}; committed ${JSON.stringify(now)} of ${expected.size}`,
      `leader's log (tail):\n${(lead ?? members.at(-1))?.cli.stderr().slice(-3000)}`,
      `client's log (tail):\n${client?.stderr().slice(-2000)}`,
      // a task manager that did not come back to the leader says why in its own log
      ...members.filter((m) => m.url === undefined).map((m) => `${m.name}'s log (tail):\n${m.cli.stderr().slice(-1500)}`),
    ].join("\n");
  };
  /** Polls `condition` until it holds; after WAIT_MS fails with `what` and the situation. */
  const until = async (what: string, condition: () => boolean | Promise<boolean>, everyMs = 100) => {
    const deadline = Date.now() + WAIT_MS;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out after ${WAIT_MS} ms waiting for ${what}\n${await situation()}`);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  };

  await addJobManager();
  await until("the first job manager to lead", () => leader() !== undefined);
  await addJobManager();
  await addTaskManager();
  await addTaskManager();
  const checkpoints = join(dir, "checkpoints");
  client = startCli(
    [
      "run", "-m", leader()!.url!, JOB, "-p", "2", "--checkpoint-interval", String(interval), "--mode", "exactly-once", "--checkpoint-dir", checkpoints,
      "-D", "restart-strategy.type=fixed-delay", "-D", "restart-strategy.fixed-delay.attempts=100", "-D", "restart-strategy.fixed-delay.delay=200 ms",
      // small channel batches: a barrier waits behind fewer gated orders, so checkpoints (and kills) come often
      "-D", "weir.batch-size=64",
      ...ha, "--", broker.bootstrap, input, output, broker.name("three-sinks"), files, postgres.jdbcUrl(db), gate,
    ],
    {},
    { cwd: processDir(dir, "client"), shipped: true },
  );
  started.push(client);
  const submitted = () => /submitted job ([0-9a-f]{32})/.exec(client!.stderr())?.[1];
  await until("the client's submission", () => submitted() !== undefined || client!.child.exitCode !== null);
  jobId = submitted();
  expect(jobId, await situation()).toBeDefined();

  // at least one kill of each kind: a task manager and the leading job manager
  const victims = Array.from({ length: KILLS }, () => (randomInt(random, 0, 2) === 0 ? "job manager" : "task manager"));
  for (const kind of ["job manager", "task manager"] as const) if (!victims.includes(kind)) victims[randomInt(random, 0, KILLS - 1)] = kind;
  let last: Committed = { file: 0, kafka: 0, postgres: 0 };
  for (const kind of victims) {
    // progress since the last kill: every sink committed more (a checkpoint of the restarted job, or the one it restored)
    let now = last;
    await until(`every sink's committed output to grow past ${JSON.stringify(last)}`, async () => {
      if (client!.child.exitCode !== null) throw new Error(`the job ended before kill ${kills.length + 1} of ${KILLS} (more input would keep it running)\n${await situation()}`);
      now = await committed((c) => c.file > last.file && c.postgres > last.postgres);
      return now.file > last.file && now.postgres > last.postgres && now.kafka > last.kafka;
    });
    // the moment: a random delay after the commits, or at once when the next checkpoint's _metadata is written
    // (before or while the job manager completes it in etcd and the sinks commit it)
    const atCheckpoint = randomInt(random, 0, 1) === 1;
    const delayMs = atCheckpoint ? 0 : randomInt(random, 0, 400);
    let written = latestCheckpointId(checkpoints);
    if (atCheckpoint) {
      const before = written;
      await until(`a checkpoint after ${before} in ${checkpoints}`, () => (written = latestCheckpointId(checkpoints)) > before, 5);
    } else await pause(delayMs);
    const tms = members.filter((m) => m.url === undefined);
    const victim = kind === "job manager" ? leader()! : tms[randomInt(random, 0, tms.length - 1)]!;
    victim.cli.child.kill("SIGKILL");
    await victim.cli.done;
    members.splice(members.indexOf(victim), 1);
    killed.push(victim);
    const moment = atCheckpoint ? `as checkpoint ${written} was written` : `${delayMs} ms after the sinks committed ${JSON.stringify(now)}`;
    kills.push({ victim: victim.name, moment });
    console.log(`cluster kill loop (seed ${SEED}), ${((Date.now() - t0) / 1000).toFixed(1)} s: killed ${victim.name} (${kind}) ${moment}`);
    if (kind === "job manager") await addJobManager();
    else await addTaskManager();
    last = now;
  }
  // the job runs on at full speed to its end; the attached client follows it to whichever job manager leads
  writeFileSync(gate, "");
  await until("the job to end (the client to exit)", () => client!.child.exitCode !== null);
  const where = await situation();
  expect(client.child.exitCode, where).toBe(0);
  const lead = leader();
  expect(lead, where).toBeDefined();
  expect((await jobDetails(lead!.url!, jobId!)).state, where).toBe("FINISHED");

  // the job manager that leads now took over from a killed one: it ran the job again from a checkpoint committed in etcd
  expect(lead!.cli.stderr(), where).toMatch(/restored from checkpoint \d+/);
  const fromFiles = committedTotals(files);
  const fromKafka = (await committedRecords(broker.bootstrap, output, expected.size)).map((r) => JSON.parse(r.value!) as E2eTotal);
  const rows = await postgres.query<{ id: string; key: string; count: number; total: string }>("SELECT id, key, count, total FROM totals", [], db);
  const fromPostgres = rows.map((r) => ({ id: Number(r.id), key: r.key, count: r.count, total: Number(r.total) }));
  console.log(`cluster kill loop (seed ${SEED}), ${((Date.now() - t0) / 1000).toFixed(1)} s: ${kills.length} kills; expected ${expected.size}, committed: files ${fromFiles.length}, Kafka ${fromKafka.length}, PostgreSQL ${fromPostgres.length}`);
  for (const [sink, actual] of [["FileSink", fromFiles], ["KafkaSink", fromKafka], ["JdbcSink", fromPostgres]] as const) {
    const diff = diffTotals(expected, actual);
    expect(diff.missing.length + diff.duplicated.length + diff.wrong.length, `${sink}: ${describeDiff(diff)}\n${where}`).toBe(0);
  }
  expect(hiddenFiles(files), `in-progress or pending part files left\n${where}`).toEqual([]);
  expect(await preparedTransactions(postgres, db), `prepared transactions left\n${where}`).toEqual([]);
  // no transaction left open: every partition becomes stable up to its end (commit markers land just after a commit)
  let ends = await partitionEnds(broker.bootstrap, output);
  for (const deadline = Date.now() + 15_000; ends.some((p) => p.lastStable !== p.high) && Date.now() < deadline; ends = await partitionEnds(broker.bootstrap, output)) {
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(ends.filter((p) => p.lastStable !== p.high), `partitions with an open transaction\n${where}`).toEqual([]);
}, 360_000);
