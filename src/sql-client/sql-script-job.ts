/**
 * Weir's SQL script job: the module `weir sql -f job.sql` runs as its client
 * program (as `weir run` runs a job file), so the script's jobs get the
 * command-line flags, checkpoints, resume and stop-with-savepoint of
 * `weir run`. Worker threads import it too and run the same script to
 * rebuild the same jobs. Unlike Flink's client, a script's jobs checkpoint
 * every 10 s by default, so that they are exactly-once and resume.
 */
import { relative } from "node:path";
import { getJobArgs } from "../deploy/launch-context.ts";
import { StreamExecutionEnvironment } from "../api/environment.ts";
import { StreamTableEnvironment } from "../table/api/table-environment.ts";
import { decodeScriptArgs, readScripts, scriptJobName } from "./sql-script-args.ts";
import { runSqlScript } from "./sql-script.ts";

/** A script's jobs checkpoint this often unless it SETs another interval or `--checkpoint-interval` is given. */
const DEFAULT_CHECKPOINT_INTERVAL = "10 s";

const scripts = decodeScriptArgs(getJobArgs());
const tEnv = StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment());
tEnv.executeSql(`SET 'execution.checkpointing.interval' = '${DEFAULT_CHECKPOINT_INTERVAL}'`);
await runSqlScript(tEnv, readScripts(scripts, (p) => relative(process.cwd(), p) || p), scriptJobName(scripts), (line) => process.stdout.write(line + "\n"));
