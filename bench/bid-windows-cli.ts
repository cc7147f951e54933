/**
 * Runs one bid-window job (bench/jobs/bid-windows.ts) a few times and prints
 * its throughput (per wall and per CPU second of the process: on a shared
 * machine the latter is steadier) and checkpoint figures: for profiling the window operator,
 * e.g. `node --cpu-prof --import tsx bench/bid-windows-cli.ts hop 1000000`.
 *
 * Usage: `bid-windows-cli.ts hop|tumble <bids> [checkpoint interval ms, 0 = off] [runs]`
 */
import { runBidWindows } from "./jobs/bid-windows.ts";

const [job, bids, interval, runs] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4] ?? 0), Number(process.argv[5] ?? 1)];
if ((job !== "hop" && job !== "tumble") || !Number.isSafeInteger(bids) || bids < 1) {
  console.error("usage: bid-windows-cli.ts hop|tumble <bids> [checkpoint interval ms] [runs]");
  process.exit(2);
}
for (let i = 0; i < runs; i++) {
  const m = await runBidWindows({ job, bids, checkpointIntervalMs: interval });
  const cps = m.checkpoints?.history.completed ?? [];
  const ms = (xs: number[]) => xs.map((x) => Math.round(x)).join("/");
  console.log(
    `${job} ${bids} bids, checkpoints ${interval > 0 ? `${interval} ms` : "off"}: ${Math.round((bids / m.elapsedMs) * 1000).toLocaleString("en-US")} bids/s` +
      ` (${Math.round(m.elapsedMs)} ms; ${Math.round((bids / m.cpuMs) * 1000).toLocaleString("en-US")} per CPU second), results ${m.results}, check ${m.check}, late ${m.lateBids}` +
      (cps.length > 0
        ? `; ${cps.length} checkpoints: duration ${ms(cps.map((c) => c.durationMs))} ms, sync ${ms(cps.map((c) => c.maxSyncMs))}, async ${ms(cps.map((c) => c.maxAsyncMs))}, align ${ms(cps.map((c) => c.maxAlignmentMs))}, state ${ms(cps.map((c) => c.stateSize / 1024))} KiB`
        : ""),
  );
}
