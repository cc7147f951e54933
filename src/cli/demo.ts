/**
 * `weir demo` (`npm start`): the seed scenario, narrated — a checkpoint at
 * source offset 5, a failure in sum_odd at 7, restore, rewind, replay — then
 * the sums next to those of a failure-free run.
 */
import { runSeedScenario } from "../demo/seed-scenario.ts";

/** Runs the demo; resolves with the exit code (1 if the sums differ). */
export async function runDemo(print: (line: string) => void = console.log): Promise<number> {
  print("Weir demo: integers 1..10 -> sum_even, sum_odd; exactly-once, in-process, nothing external.\n");
  print("Run 1, with a failure injected in sum_odd at 7:");
  const failed = await runSeedScenario(true, (l) => print(`  ${l}`));
  print("\nRun 2, failure-free:");
  const clean = await runSeedScenario(false, (l) => print(`  ${l}`));
  const rows = [
    ["", "with failure", "failure-free"],
    ["sum_even", String(failed.sumEven), String(clean.sumEven)],
    ["sum_odd", String(failed.sumOdd), String(clean.sumOdd)],
    ["restarts", String(failed.restarts), String(clean.restarts)],
  ];
  print("");
  for (const r of rows) print(`  ${r[0]!.padEnd(10)}${r[1]!.padStart(14)}${r[2]!.padStart(14)}`);
  const equal = failed.sumEven === clean.sumEven && failed.sumOdd === clean.sumOdd;
  print(equal ? "\nThe sums are equal: the failure left no trace (exactly-once)." : "\nTHE SUMS DIFFER: exactly-once was violated.");
  return equal ? 0 : 1;
}
