/**
 * Section `cluster` of the bench: the keyed count and Nexmark q5 (DataStream; bench/jobs/cluster-job.ts) on a
 * cluster of 1, 2 and 4 task manager processes (`weir taskmanager`, 1 slot each, parallelism = task managers,
 * records between them over TCP) with one job manager, all started by the bench on 127.0.0.1, against the same
 * job in one `weir run` process at the same parallelism, on as many worker threads (records between them
 * through shared memory) and in-process (every task in the main thread). Every run is the same bundle
 * (bundled as `weir run -m` bundles a job) on the shipped command (dist/).
 *
 * Figures per run, in the steady state (20–90 % of the records, from marks the job writes; bench/steady-rate.ts):
 * records/s, and the CPU time per record summed over the processes of the run (`/proc/<pid>/stat`: the job
 * manager and the task managers, or the `weir run` process; bench/process-cpu-timeline.ts). Of the cluster runs
 * also the bytes the batch codec wrote per record crossing to another task manager on the source vertex's
 * outputs (from `write-bytes` and `write-records` of the job manager's `/jobs/:jid`). Every run's rows and digest must equal those of the in-process run at
 * the same parallelism, and the keyed count's rows its records (`BenchIntegrityError`).
 *
 * @example
 * ```ts
 * const f = await measureCluster(console.error, { records: 6_000_000, keys: 10_000, events: 800_000 });
 * console.log(formatCluster(f));
 * ```
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { bundleJob } from "../src/cluster/job-bundle.ts";
import { ROOT, startCli, type RunningCli } from "../test/support/cli-process.ts";
import { jobDetails, processDir, runJar, startJobManager, startTaskManager, uploadJar, type StartedTaskManager } from "../test/support/cluster-processes.ts";
import { cpuBetween, type CpuTimeline } from "./cpu-timeline.ts";
import { BenchIntegrityError } from "./integrity-error.ts";
import type { ClusterJobKind, ClusterSinkReport } from "./jobs/cluster-job-report.ts";
import { readSourceMarks, SOURCE_MARK_EVERY } from "./jobs/source-marks.ts";
import { processCpuTimeline } from "./process-cpu-timeline.ts";
import { table } from "./report.ts";
import { steadyWindow } from "./steady-rate.ts";

const JOB_FILE = fileURLToPath(new URL("./jobs/cluster-job.ts", import.meta.url));
/** Task managers (= parallelism) of the cluster runs. */
export const CLUSTER_SIZES = [1, 2, 4] as const;
/** Records of a keyed-count run and events of a q5 run without `--records` / `--nexmark-events`. */
export const CLUSTER_DEFAULT_RECORDS = 6_000_000;
export const CLUSTER_DEFAULT_EVENTS = 800_000;
/** Longest a run may take (a loaded machine). */
const RUN_DEADLINE_MS = 300_000;

/** Where a run's tasks ran. */
export type ClusterRunMode = "in-process" | "threads" | "cluster";

/** One run's figures. */
export interface ClusterRunFigures {
  readonly job: ClusterJobKind;
  readonly parallelism: number;
  readonly mode: ClusterRunMode;
  readonly records: number;
  readonly steadyRecordsPerSecond: number;
  /** CPU time of all processes of the run per record, in the steady window. */
  readonly cpuNsPerRecord: number;
  /** Spawn (or submission) to the end of the job, ms. */
  readonly wallMs: number;
  readonly rows: number;
  readonly digest: number;
  /**
   * Cluster runs at parallelism > 1: bytes the batch codec wrote per record that crossed to another task manager
   * on the source vertex's outputs, undefined elsewhere (see `bytesPerCrossingRecord`).
   */
  readonly bytesPerCrossingRecord: number | undefined;
}

/** All runs, in the order they ran. */
export interface ClusterFigures {
  readonly keys: number;
  readonly runs: readonly ClusterRunFigures[];
}

/** Sizes of the section's runs. */
export interface ClusterSizes {
  readonly records: number;
  readonly keys: number;
  readonly events: number;
}

/** Builds dist/, bundles the job, starts the cluster and measures every run; stops the processes in the end. */
export async function measureCluster(progress: (line: string) => void, sizes: ClusterSizes): Promise<ClusterFigures> {
  const build = spawnSync(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) throw new Error(`scripts/build.mjs failed (exit ${build.status})`);
  const dir = mkdtempSync(join(tmpdir(), "weir-bench-cluster-"));
  const processes: RunningCli[] = [];
  try {
    const bundle = await bundleJob(JOB_FILE);
    const single = processDir(dir, "single");
    const bundleFile = join(single, bundle.filename);
    writeFileSync(bundleFile, bundle.code);
    progress("cluster: starting a job manager");
    // heartbeats that a loaded machine does not mistake for a lost task manager
    const jm = await startJobManager(processDir(dir, "jm"), ["-D", "heartbeat.timeout=120 s"]);
    processes.push(jm.cli);
    const jar = await uploadJar(jm.url, bundleFile, bundle.filename);
    const tms: StartedTaskManager[] = [];
    const runs: ClusterRunFigures[] = [];
    let runNumber = 0;
    for (const n of CLUSTER_SIZES) {
      while (tms.length < n) {
        progress(`cluster: starting task manager ${tms.length + 1}`);
        const tm = await startTaskManager(processDir(dir, `tm-${tms.length + 1}`), jm.rpcPort, 1);
        tms.push(tm);
        processes.push(tm.cli);
      }
      for (const job of ["keyed-count", "q5"] as const) {
        const records = job === "keyed-count" ? sizes.records : sizes.events;
        const args = [job, String(records), String(sizes.keys)];
        const byMode: ClusterRunFigures[] = [];
        for (const mode of ["in-process", "threads", "cluster"] as const) {
          const out = join(dir, "runs", String(++runNumber));
          mkdirSync(out, { recursive: true });
          progress(`cluster: ${job}, parallelism ${n}, ${mode} (${records.toLocaleString("en-US")} ${job === "q5" ? "events" : "records"})`);
          const run: RunContext = { job, parallelism: n, mode, records, out, args: [...args, out] };
          const figures =
            mode === "cluster"
              ? await clusterRun(run, jm.url, jar, [jm.cli, ...tms.map((t) => t.cli)])
              : await singleProcessRun(run, single, bundleFile, mode === "threads" ? n : 0);
          const reference = byMode[0];
          if (job === "keyed-count" && figures.rows !== records) throw new BenchIntegrityError(label(figures), "rows the sinks received", records, figures.rows);
          if (reference && figures.rows !== reference.rows) throw new BenchIntegrityError(label(figures), "rows (against the in-process run)", reference.rows, figures.rows);
          if (reference && figures.digest !== reference.digest) throw new BenchIntegrityError(label(figures), "digest of the rows (against the in-process run)", reference.digest, figures.digest);
          byMode.push(figures);
          runs.push(figures);
        }
      }
    }
    return { keys: sizes.keys, runs };
  } finally {
    for (const p of processes.reverse()) {
      if (p.child.exitCode === null) p.child.kill("SIGTERM");
      await p.done;
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What a run is. */
interface RunContext {
  readonly job: ClusterJobKind;
  readonly parallelism: number;
  readonly mode: ClusterRunMode;
  readonly records: number;
  /** The job's output folder (marks and sink reports). */
  readonly out: string;
  /** The job's arguments. */
  readonly args: readonly string[];
}

/** `weir run` of the bundle in one process, on `workers` worker threads (0: in-process). */
async function singleProcessRun(run: RunContext, cwd: string, bundleFile: string, workers: number): Promise<ClusterRunFigures> {
  const started = performance.now();
  const p = String(run.parallelism);
  const cli = startCli(
    ["run", bundleFile, "-p", p, "--workers", String(workers), "--checkpoint-interval", "0", "--fresh", "--no-web", "--checkpoint-dir", join(run.out, "checkpoints"), "--", ...run.args],
    {},
    { cwd, shipped: true },
  );
  const cpu = processCpuTimeline([cli.child.pid!]);
  const timer = setTimeout(() => cli.child.kill("SIGKILL"), RUN_DEADLINE_MS);
  const end = await cli.done.finally(() => {
    clearTimeout(timer);
    cpu.stop();
  });
  if (end.code !== 0) throw new Error(`${label(run)}: weir run ended with ${end.code ?? end.signal}\n${end.stderr}`);
  return figuresOf(run, cpu, performance.now() - started, undefined);
}

/** The bundle on the cluster at parallelism `run.parallelism`; CPU of the job manager and every task manager. */
async function clusterRun(run: RunContext, url: string, jar: string, processes: readonly RunningCli[]): Promise<ClusterRunFigures> {
  const started = performance.now();
  const cpu = processCpuTimeline(processes.map((p) => p.child.pid!));
  let details: { state: string } & Record<string, unknown>;
  try {
    const jobId = await runJar(url, jar, {
      programArgsList: run.args,
      parallelism: run.parallelism,
      flinkConfiguration: { "state.checkpoints.dir": join(run.out, "checkpoints") },
    });
    for (;;) {
      details = await jobDetails(url, jobId);
      if (["FINISHED", "FAILED", "CANCELED"].includes(details.state)) break;
      if (performance.now() - started > RUN_DEADLINE_MS) throw new Error(`${label(run)}: the job is ${details.state} after ${RUN_DEADLINE_MS} ms`);
      // polled seldom: the job manager's CPU counts in the run's
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    cpu.stop();
  }
  if (details.state !== "FINISHED") throw new Error(`${label(run)}: the job ended ${details.state}: ${JSON.stringify(details)}`);
  return figuresOf(run, cpu, performance.now() - started, bytesPerCrossingRecord(details, run.parallelism));
}

/** The figures of a finished run from its output folder and its CPU samples. */
function figuresOf(run: RunContext, cpu: CpuTimeline, wallMs: number, bytesPerCrossingRecord: number | undefined): ClusterRunFigures {
  const files = readdirSync(run.out);
  const sinks = files.filter((f) => f.startsWith("sink-")).map((f) => JSON.parse(readFileSync(join(run.out, f), "utf8")) as ClusterSinkReport);
  if (sinks.length !== run.parallelism) throw new Error(`${label(run)}: ${sinks.length} sink reports, expected ${run.parallelism}`);
  const steady = steadyWindow(readSourceMarks(run.out), SOURCE_MARK_EVERY, run.records);
  const cpuMs = cpuBetween(cpu.samples, steady.startAt, steady.endAt);
  return {
    job: run.job,
    parallelism: run.parallelism,
    mode: run.mode,
    records: run.records,
    steadyRecordsPerSecond: steady.recordsPerSecond,
    cpuNsPerRecord: (cpuMs * 1e6) / steady.records,
    wallMs,
    rows: sinks.reduce((a, s) => a + s.rows, 0),
    digest: sinks.reduce((a, s) => (a + s.digest) >>> 0, 0),
    bytesPerCrossingRecord,
  };
}

/**
 * Bytes per record crossing between task managers on the keyed exchange after the job's first vertex (the
 * source with the operators chained to it): its `write-bytes` count only what the batch codec encoded for
 * other task managers (a subtask's records to the subtask of its own worker are handed over unencoded), and
 * with keys spread evenly (parallelism − 1) / parallelism of its `write-records` cross.
 */
function bytesPerCrossingRecord(details: Record<string, unknown>, parallelism: number): number | undefined {
  const vertices = details.vertices as { metrics?: { "write-bytes": number; "write-records": number } }[] | undefined;
  const m = vertices?.[0]?.metrics;
  if (parallelism < 2 || !m || m["write-records"] === 0 || m["write-bytes"] === 0) return undefined;
  return m["write-bytes"] / ((m["write-records"] * (parallelism - 1)) / parallelism);
}

function label(r: { job: string; parallelism: number; mode: string }): string {
  return `${r.job}, parallelism ${r.parallelism}, ${r.mode}`;
}

/** The figure of the run of `job` at `parallelism` in `mode`. */
function find(f: ClusterFigures, job: ClusterJobKind, parallelism: number, mode: ClusterRunMode): ClusterRunFigures {
  return f.runs.find((r) => r.job === job && r.parallelism === parallelism && r.mode === mode)!;
}

/** The ratios of the section, by name (into the bench report's ratios). */
export function clusterRatios(f: ClusterFigures): Record<string, number> {
  const ratios: Record<string, number> = {};
  for (const job of ["keyed-count", "q5"] as const) {
    const name = job === "keyed-count" ? "keyed count" : "Nexmark q5";
    for (const n of CLUSTER_SIZES) {
      const [inProcess, threads, cluster] = (["in-process", "threads", "cluster"] as const).map((m) => find(f, job, n, m));
      ratios[`${name}, ${n} task manager${n === 1 ? "" : "s"} / in-process, steady throughput`] = cluster!.steadyRecordsPerSecond / inProcess!.steadyRecordsPerSecond;
      ratios[`${name}, ${n} task manager${n === 1 ? "" : "s"} / ${n} worker thread${n === 1 ? "" : "s"}, steady throughput`] = cluster!.steadyRecordsPerSecond / threads!.steadyRecordsPerSecond;
      ratios[`${name}, ${n} task manager${n === 1 ? "" : "s"} / ${n} worker thread${n === 1 ? "" : "s"}, CPU per record (TCP / threads)`] = cluster!.cpuNsPerRecord / threads!.cpuNsPerRecord;
    }
  }
  return ratios;
}

/** The runs as a table per job. */
export function formatCluster(f: ClusterFigures): string {
  const rate = (v: number) => Math.round(v).toLocaleString("en-US");
  const parts: string[] = [];
  for (const job of ["keyed-count", "q5"] as const) {
    const runs = f.runs.filter((r) => r.job === job);
    const what = job === "keyed-count" ? `keyed count, ${runs[0]!.records.toLocaleString("en-US")} records, ${f.keys.toLocaleString("en-US")} keys` : `Nexmark q5 (DataStream), ${runs[0]!.records.toLocaleString("en-US")} events`;
    parts.push(
      `${what}, no checkpoints; task managers (1 slot each) on 127.0.0.1 against one weir run process (steady state, CPU of all processes of the run):`,
      table(
        ["parallelism", "where", "steady rec/s", "/ in-process", "CPU ns/record", "CPU / threads", "bytes/crossing record", "wall s", "rows", "digest"],
        runs.map((r) => {
          const inProcess = find(f, job, r.parallelism, "in-process");
          const threads = find(f, job, r.parallelism, "threads");
          return [
            String(r.parallelism),
            r.mode === "cluster" ? `${r.parallelism} task manager${r.parallelism === 1 ? "" : "s"}` : r.mode === "threads" ? `${r.parallelism} worker thread${r.parallelism === 1 ? "" : "s"}` : "in-process",
            rate(r.steadyRecordsPerSecond),
            (r.steadyRecordsPerSecond / inProcess.steadyRecordsPerSecond).toFixed(2),
            r.cpuNsPerRecord.toFixed(0),
            (r.cpuNsPerRecord / threads.cpuNsPerRecord).toFixed(2),
            r.bytesPerCrossingRecord === undefined ? "" : r.bytesPerCrossingRecord.toFixed(1),
            (r.wallMs / 1000).toFixed(1),
            String(r.rows),
            r.digest.toString(16),
          ];
        }),
      ),
      "",
    );
  }
  return parts.join("\n").trimEnd();
}
