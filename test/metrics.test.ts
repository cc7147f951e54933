/**
 * Metrics of real jobs: the same record counts in one thread and on two
 * workers, user metrics in operator scope, checkpoint metrics of the job, the
 * Prometheus text of a running job, a task stuck in user code on a worker
 * shown 100 % busy, and an idle source shown idle.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { operatorHexId } from "../src/graph/operator-hex-id.ts";
import { StreamExecutionEnvironment, type MetricSnapshot } from "../src/index.ts";
import { renderPrometheus } from "../src/metrics/prometheus.ts";
import { parsePrometheusText } from "./support/prometheus-text.ts";
import { collectSink } from "../src/connectors/builtin/collect-sink.ts";
import { startMetricsJob } from "./fixtures/metrics-job.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const RECORDS = 10_000;
const tempDir = tempDirs("weir-metrics-");

/** Waits until `probe` returns a value (polling every 50 ms), or fails after `ms` naming `what`. */
async function until<T>(what: string, probe: () => T | undefined, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Sum of metric `name` over the snapshots that `where` accepts. */
function sum(metrics: readonly MetricSnapshot[], name: string, where: (m: MetricSnapshot) => boolean = () => true): number {
  return metrics.filter((m) => m.name === name && where(m)).reduce((s, m) => s + m.value, 0);
}

const task = (m: MetricSnapshot) => m.scope.vertexId !== undefined && m.scope.operatorId === undefined;
const operator = (uid: string) => (m: MetricSnapshot) => m.scope.operatorId === operatorHexId(uid);

describe("metrics of a running job", () => {
  it.each([0, 2])("counts records, user metrics and checkpoints the same way on %i worker threads", async (workers) => {
    const client = await startMetricsJob({ kind: "count", workers, records: RECORDS, checkpointDir: tempDir() });
    const result = await client.getJobExecutionResult();
    expect(result.getCollected("sums").length).toBe(RECORDS);
    const m = client.getMetrics();
    expect(client.getRecordCounts()).toEqual({ in: RECORDS, out: RECORDS });
    // operator scope: the source emitted, the map took and gave, the sink took every record
    expect(sum(m, "numRecordsOut", operator("numbers"))).toBe(RECORDS);
    expect(sum(m, "numRecordsIn", operator("counting"))).toBe(RECORDS);
    expect(sum(m, "numRecordsOut", operator("counting"))).toBe(RECORDS);
    expect(sum(m, "numRecordsIn", operator("out"))).toBe(RECORDS);
    // task scope: the source tasks read RECORDS, the sum tasks got RECORDS through the keyed edge
    const sourceTasks = (s: MetricSnapshot) => task(s) && s.scope.taskName!.startsWith("Source: ");
    expect(sum(m, "numRecordsIn", sourceTasks)).toBe(RECORDS);
    expect(sum(m, "numRecordsOut", sourceTasks)).toBe(RECORDS);
    expect(sum(m, "numRecordsIn", (s) => task(s) && !sourceTasks(s))).toBe(RECORDS);
    // bytes: encoded batches between threads only
    const bytesOut = sum(m, "numBytesOut", task);
    if (workers === 0) expect(bytesOut).toBe(0);
    else {
      expect(bytesOut).toBeGreaterThan(RECORDS);
      expect(sum(m, "numBytesIn", task)).toBe(bytesOut);
    }
    // user metrics, operator scope, names joined by '.'
    expect(sum(m, "parity.even", operator("counting"))).toBe(RECORDS / 2);
    expect(sum(m, "parity.odd", operator("counting"))).toBe(RECORDS / 2);
    const values = m.filter((s) => s.name === "values" && operator("counting")(s));
    expect(values.map((s) => s.kind)).toEqual(["histogram", "histogram"]);
    expect(Math.max(...values.map((s) => s.histogram!.max))).toBe(RECORDS);
    expect(values.reduce((n, s) => n + s.histogram!.count, 0)).toBe(RECORDS);
    expect(values[0]!.scope).toMatchObject({ jobName: "metrics-count", operatorName: "Counting", taskManagerId: workers === 0 ? "in-process" : expect.stringMatching(/^worker-\d$/) });
    expect(busyTaskName(m)).toMatch(/^Source: .* -> Counting$/);
    // keyed state size of the sum operator in its last checkpoint
    expect(sum(m, "stateSize", operator("sum"))).toBeGreaterThan(0);
    // job scope
    const job = (name: string) => m.find((s) => s.name === name && s.scope.vertexId === undefined)?.value;
    expect(job("numberOfCompletedCheckpoints")).toBeGreaterThanOrEqual(1);
    expect(job("lastCheckpointSize")).toBeGreaterThan(0);
    expect(job("lastCheckpointDuration")).toBeGreaterThanOrEqual(0);
    expect(job("numRestarts")).toBe(0);
    expect(job("uptime")).toBe(-1);
  }, 120_000);

  it("a map stuck in user code on a worker thread shows 100 % busy; the Prometheus text of the running job says so", async () => {
    const gate = join(tempDir(), "gate");
    const client = await startMetricsJob({ kind: "stuck", workers: 1, records: 0, checkpointDir: tempDir(), gate });
    try {
      const busy = await until("the stuck task's busy time", () => {
        const b = client.getMetrics().find((s) => task(s) && s.name === "busyTimeMsPerSecond" && s.scope.taskName!.includes("Spin"));
        return b && b.value === 1000 ? b : undefined;
      });
      expect(busy.scope.taskManagerId).toBe("worker-0");
      expect(client.getMetrics().find((s) => task(s) && s.name === "idleTimeMsPerSecond")?.value).toBe(0);
      const samples = parsePrometheusText(await renderPrometheus(client.getMetrics()));
      const prom = samples.find((s) => s.name === "flink_taskmanager_job_task_busyTimeMsPerSecond");
      expect(prom).toEqual({
        name: "flink_taskmanager_job_task_busyTimeMsPerSecond",
        labels: { job_id: client.getJobId(), job_name: "metrics-stuck", task_id: busy.scope.vertexId, task_name: busy.scope.taskName, subtask_index: "0", tm_id: "worker-0" },
        value: 1000,
      });
      const uptime = samples.find((s) => s.name === "flink_jobmanager_job_uptime");
      expect(uptime?.labels).toEqual({ job_id: client.getJobId(), job_name: "metrics-stuck" });
      expect(uptime?.value).toBeGreaterThan(0);
      expect(samples.some((s) => s.name === "flink_taskmanager_job_task_operator_numRecordsOut" && s.labels["operator_name"] === "Spin")).toBe(true);
    } finally {
      writeFileSync(gate, "");
      await client.cancel();
    }
  }, 120_000);

  it("a source with nothing to read shows idle time", async () => {
    const env = StreamExecutionEnvironment.create({ parallelism: 1, log: () => {} });
    env.fromAsyncIterable(() => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<number>>(() => {}) }) })).sinkTo(collectSink("never"));
    const client = await env.executeAsync("idle");
    try {
      const idle = await until("idle time of the idle source", () => {
        const m = client.getMetrics();
        const v = m.find((s) => task(s) && s.name === "idleTimeMsPerSecond")?.value;
        return v !== undefined && v > 900 ? m : undefined;
      });
      expect(idle.find((s) => task(s) && s.name === "busyTimeMsPerSecond")!.value).toBeLessThan(100);
      expect(idle.find((s) => task(s) && s.name === "currentInputWatermark")!.value).toBeLessThan(-9e18);
    } finally {
      await client.cancel();
    }
  }, 60_000);
});

/** The name of the first source task. */
function busyTaskName(m: readonly MetricSnapshot[]): string | undefined {
  return m.find((s) => task(s) && s.scope.taskName!.startsWith("Source: "))?.scope.taskName;
}
