/**
 * Runs one Nexmark query a few times in this process (parallelism 2; its tasks in-process or on worker threads) and prints each
 * round's events per second, GC share and CPU per event: for A/B comparisons of one query and for
 * profiling it, e.g. `node --cpu-prof --import tsx bench/nexmark-query-cli.ts q1 2000000 twin 0 4`.
 * The first round warms the code up; compare the later ones.
 *
 * Usage: `nexmark-query-cli.ts <query> <events> ds|twin|pub|pubd [checkpoint interval ms, 0 = off] [rounds] [worker threads, 0 = in-process]`
 * (`ds`: the DataStream version; `twin`: its SQL twin; `pub`: the published Nexmark SQL on the `nexmark`
 * connector, its rows counted; `pubd`: the same, each row made the DataStream version's row and digested)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runNexmarkQuery } from "./jobs/nexmark/nexmark-job.ts";
import { sourceOf } from "./nexmark.ts";
import { NEXMARK_QUERIES, type NexmarkQueryName } from "./jobs/nexmark/nexmark-query.ts";
import { NEXMARK_SQL_QUERIES, type NexmarkSqlQueryName } from "./jobs/nexmark/sql-queries.ts";
import { hasSqlTwin } from "./jobs/nexmark/sql-twins.ts";

const [query, events, runner, interval, rounds, workers] = [process.argv[2] ?? "", Number(process.argv[3]), process.argv[4], Number(process.argv[5] ?? 0), Number(process.argv[6] ?? 3), Number(process.argv[7] ?? 0)];
const published = runner === "pub" || runner === "pubd";
const known = published
  ? (NEXMARK_SQL_QUERIES as readonly string[]).includes(query)
  : (NEXMARK_QUERIES as readonly string[]).includes(query) && (runner === "ds" || (runner === "twin" && hasSqlTwin(query as NexmarkQueryName)));
if (!known || !Number.isSafeInteger(events) || events < 1 || !(interval >= 0) || !Number.isSafeInteger(rounds) || rounds < 1 || !Number.isSafeInteger(workers) || workers < 0) {
  console.error("usage: nexmark-query-cli.ts <query> <events> ds|twin|pub|pubd [checkpoint interval ms] [rounds] [workers] (twin: q0, q1, q2, q5, q7)");
  process.exit(2);
}
const source = sourceOf(events);
const dir = published ? await mkdtemp(join(tmpdir(), "weir-nexmark-query-")) : undefined;
try {
  for (let r = 0; r < rounds; r++) {
    const cpu = process.cpuUsage();
    const m = await runNexmarkQuery({
      query: query as NexmarkQueryName | NexmarkSqlQueryName,
      source,
      parallelism: 2,
      workers,
      checkpointIntervalMs: interval,
      ...(runner === "twin" ? { connector: { twin: true } } : dir !== undefined ? { connector: { dir, digest: runner === "pubd" } } : {}),
    });
    const used = process.cpuUsage(cpu);
    console.log(
      `${query} ${runner} round ${r}: ${Math.round(events / (m.processingMs / 1000)).toLocaleString("en-US")} events/s, ` +
        `GC ${(((m.gcMs ?? 0) / m.elapsedMs) * 100).toFixed(1)} %, CPU ${Math.round(((used.user + used.system) * 1000) / events)} ns/event, ${m.rows} rows`,
    );
  }
} finally {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
}
