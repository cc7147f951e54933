import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { jsonResult, runCli } from "./support/cli-process.ts";
import { seededRandom, testSeed } from "../src/util/seeded-random.ts";
import { randomEvents, windowOracle } from "./support/window-oracle.ts";

const dir = mkdtempSync(join(tmpdir(), "weir-windows-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Out {
  results: string[];
  late: number[];
  joined: string[];
}

describe("windows across worker threads", () => {
  it("session windows and a window join give the same results with 1 and 2 workers (and equal the model)", async () => {
    const seed = testSeed();
    const run = async (workers: number) => {
      const r = await runCli(["run", "test/fixtures/windows-job.ts", "--parallelism", "3", "--workers", String(workers), "--fresh", "--checkpoint-interval", "100", "--checkpoint-dir", join(dir, `w${workers}`), "--", String(seed)], 60_000);
      expect(r.code, `WEIR_SEED=${seed}\n${r.stderr}`).toBe(0);
      return jsonResult<Out>(r);
    };
    const [one, two] = [await run(1), await run(2)];
    const msg = `WEIR_SEED=${seed}`;
    expect(two, msg).toEqual(one);
    const expected = windowOracle(randomEvents(seededRandom(seed), 1200, 6, 300, 0.05, 200), { type: "session", gap: 150 }, 200, 800);
    expect(one.results, msg).toEqual(expected.results);
    expect(one.late, msg).toEqual(expected.late);
    expect(one.joined.length, msg).toBeGreaterThan(1200);
  }, 120_000);
});
