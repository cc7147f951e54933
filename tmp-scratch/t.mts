import { StreamExecutionEnvironment } from "../src/api/environment.ts";
import { nexmarkTestStream, runNexmarkQueries, writeSideInput } from "../test/support/nexmark-sql.ts";
import { NEXMARK_SQL_QUERIES } from "../bench/jobs/nexmark/sql-queries.ts";
writeSideInput("/tmp/nx");
const only = process.argv[2] ? process.argv[2].split(",") as any : NEXMARK_SQL_QUERIES;
const t0 = Date.now();
const run = await runNexmarkQueries(StreamExecutionEnvironment.create({ parallelism: 2 }), nexmarkTestStream("/tmp/nx"), only);
console.log("ms", Date.now() - t0, [...run.changelogs].map(([q, r]) => `${q}:${r.length}`).join(" "));
