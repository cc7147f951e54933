/**
 * The process as Flink's cluster: `/config` (the dashboard's settings),
 * `/overview` (task managers, slots, jobs by state) and `/taskmanagers`
 * (the worker threads of the running jobs, or the job's own thread in-process).
 */
import { readFileSync } from "node:fs";
import { OWN_PACKAGE_JSON } from "../../util/own-files.ts";
import type { RestContext } from "../rest-context.ts";
import { ok, type Router } from "../router.ts";
import { clusterTaskManagerJson, taskManagersJson } from "./task-managers.ts";

/** Weir's version, shown where Flink shows its own. */
const VERSION = (JSON.parse(readFileSync(OWN_PACKAGE_JSON, "utf8")) as { version: string }).version;

function dashboardConfigJson(now: number): object {
  const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return {
    "refresh-interval": 3000,
    "timezone-name": timezone,
    "timezone-offset": -new Date(now).getTimezoneOffset() * 60_000,
    "flink-version": VERSION,
    "flink-revision": `weir ${VERSION}`,
    features: { "web-submit": false, "web-cancel": true, "web-rescale": false, "web-history": false },
  };
}

function overviewJson(context: RestContext): object {
  const jobs = context.jobs();
  const running = jobs.filter((j) => !["FINISHED", "FAILED", "CANCELED"].includes(j.getJobStatus()));
  const cluster = context.taskManagers?.();
  const managers = cluster ? cluster.length : running.reduce((n, j) => n + Math.max(1, j.getWorkerThreadCount()), 0);
  const slots = cluster ? cluster.reduce((n, tm) => n + tm.slots, 0) : running.reduce((n, j) => n + j.getExecutionPlan().tasks.length, 0);
  const count = (status: string) => jobs.filter((j) => j.getJobStatus() === status).length;
  return {
    taskmanagers: managers,
    "taskmanagers-blocked": 0,
    "slots-total": slots,
    "slots-available": cluster ? cluster.reduce((n, tm) => n + tm.freeSlots, 0) : 0,
    "slots-free-and-blocked": 0,
    "jobs-running": running.length,
    "jobs-finished": count("FINISHED"),
    "jobs-cancelled": count("CANCELED"),
    "jobs-failed": count("FAILED"),
    "flink-version": VERSION,
    "flink-commit": `weir ${VERSION}`,
  };
}

/** Adds the cluster routes to `router`. */
export function clusterRoutes(router: Router, context: RestContext): void {
  router
    .get("/config", () => ok(dashboardConfigJson(context.now())))
    .get("/overview", () => ok(overviewJson(context)))
    .get("/taskmanagers", () => {
      const cluster = context.taskManagers?.();
      if (cluster) return ok({ taskmanagers: cluster.map((tm) => clusterTaskManagerJson(tm, context.now())) });
      const running = context.jobs().filter((j) => !["FINISHED", "FAILED", "CANCELED"].includes(j.getJobStatus()));
      return ok({ taskmanagers: running.flatMap((j) => taskManagersJson(j)) });
    });
}
