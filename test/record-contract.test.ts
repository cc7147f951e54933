/**
 * The record contract (fixtures/class-records-job.ts): records that go from
 * one task to another must be plain data, and the rule is enforced the same
 * way in the main thread and on worker threads; inside a chain anything goes.
 */
import { describe, expect, it } from "vitest";
import { jsonResult, runCli } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const tempDir = tempDirs("weir-records-");

function run(workers: number, variant: string) {
  const dir = tempDir();
  return runCli(
    ["run", "test/fixtures/class-records-job.ts", "--parallelism", "2", "--workers", String(workers), "--checkpoint-dir", dir, "--", variant],
    120_000,
  );
}

describe("records between tasks", () => {
  it("class instances used inside a chain and converted before keyBy give the same output in every mode", async () => {
    const [a, b] = await Promise.all([run(0, "chained"), run(2, "chained")]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const records = jsonResult<{ records: string[] }>(a).records;
    expect(records).toHaveLength(1_000);
    expect(records).toContain(JSON.stringify({ k: 7 % 5, euros: 0.07 }));
    expect(jsonResult<{ records: string[] }>(b).records).toEqual(records);
  }, 150_000);

  for (const [variant, what] of [
    ["class", /operator 'Map' \(uid 'wrap'\) emitted a record that contains an instance of class Money at \.m; records sent between tasks .* must be plain data/],
    ["circular", /operator 'Map' \(uid 'wrap'\) emitted a record that is a circular structure/],
  ] as const) {
    it(`a ${variant} record at keyBy fails the job with the operator and field path, in the main thread and on workers`, async () => {
      const [a, b] = await Promise.all([run(0, variant), run(2, variant)]);
      for (const r of [a, b]) {
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(what);
        expect(r.stdout).toBe("");
      }
    }, 150_000);
  }
});
