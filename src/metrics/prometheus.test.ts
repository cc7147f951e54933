import { describe, expect, it } from "vitest";
import { MetricRegistry } from "./metric-registry.ts";
import { NO_WATERMARK_VALUE } from "./metric-snapshot.ts";
import { PrometheusPortError, renderPrometheus, startPrometheusServer } from "./prometheus.ts";
import { parsePrometheusText } from "../../test/support/prometheus-text.ts";

const job = { jobId: "0123456789abcdef0123456789abcdef", jobName: "orders" };
const task = { ...job, vertexId: "aa".repeat(16), taskName: "Source: in -> Map", subtaskIndex: 0, taskManagerId: "in-process" };
const operator = { ...task, operatorId: "bb".repeat(16), operatorName: "Map" };

describe("Prometheus text", () => {
  it("names and labels as Flink's PrometheusReporter, for each scope", async () => {
    const registry = new MetricRegistry();
    registry.group(job).gauge("numRestarts", () => 2);
    registry.group(task).counter("numRecordsIn").inc(12);
    const op = registry.group(operator);
    op.gauge("currentOutputWatermark", () => NO_WATERMARK_VALUE);
    op.addGroup("cache").counter("hits").inc(3);
    const samples = parsePrometheusText(await renderPrometheus(registry.snapshot()));
    expect(samples).toContainEqual({ name: "flink_jobmanager_job_numRestarts", labels: { job_id: job.jobId, job_name: "orders" }, value: 2 });
    expect(samples).toContainEqual({
      name: "flink_taskmanager_job_task_numRecordsIn",
      labels: { job_id: job.jobId, job_name: "orders", task_id: task.vertexId, task_name: "Source: in -> Map", subtask_index: "0", tm_id: "in-process" },
      value: 12,
    });
    expect(samples).toContainEqual({
      name: "flink_taskmanager_job_task_operator_cache_hits",
      labels: { ...Object.fromEntries([["job_id", job.jobId], ["job_name", "orders"], ["task_id", task.vertexId], ["task_name", "Source: in -> Map"], ["subtask_index", "0"]]), operator_id: operator.operatorId, operator_name: "Map", tm_id: "in-process" },
      value: 3,
    });
    expect(samples.find((s) => s.name === "flink_taskmanager_job_task_operator_currentOutputWatermark")?.value).toBeLessThan(-9e18);
  });

  it("a histogram is its quantiles and its count; label values are escaped", async () => {
    const registry = new MetricRegistry();
    const h = registry.group({ ...operator, operatorName: 'say "hi"\\' }).histogram("latencyMs");
    for (let i = 1; i <= 100; i++) h.update(i);
    const text = await renderPrometheus(registry.snapshot());
    const samples = parsePrometheusText(text);
    const q = (quantile: string) => samples.find((s) => s.name === "flink_taskmanager_job_task_operator_latencyMs" && s.labels["quantile"] === quantile)?.value;
    expect(q("0.5")).toBeCloseTo(50.5);
    expect(q("0.99")).toBeCloseTo(99.01);
    expect(samples.find((s) => s.name === "flink_taskmanager_job_task_operator_latencyMs_count")?.value).toBe(100);
    expect(samples[0]!.labels["operator_name"]).toBe('say "hi"\\');
    expect(text).toContain("# TYPE flink_taskmanager_job_task_operator_latencyMs gauge");
  });

  it("serves /metrics on its own port; other paths are 404; a taken port is an error naming it", async () => {
    const server = await startPrometheusServer({ host: "127.0.0.1", port: 0 }, () => renderPrometheus([{ scope: job, name: "uptime", kind: "gauge", value: 5 }]));
    try {
      const res = await fetch(server.url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(parsePrometheusText(await res.text())).toEqual([{ name: "flink_jobmanager_job_uptime", labels: { job_id: job.jobId, job_name: "orders" }, value: 5 }]);
      expect((await fetch(server.url.replace("/metrics", "/other"))).status).toBe(404);
      await expect(startPrometheusServer({ host: "127.0.0.1", port: server.port }, () => "")).rejects.toThrow(PrometheusPortError);
      await expect(startPrometheusServer({ host: "127.0.0.1", port: server.port }, () => "")).rejects.toThrow(`127.0.0.1:${server.port}`);
    } finally {
      await server.close();
    }
  });
});
