/**
 * A damaged checkpoint with nothing older to fall back on: `weir run` of the
 * file-to-file running-total job finished and left its final checkpoint (the
 * only one retained); the checkpoint is damaged; the same command again
 * refuses to start — naming the checkpoint, the damaged file and what is
 * wrong, offering --fresh and --from-savepoint — exits non-zero, and writes
 * nothing to the sink. An empty start would read all input again and commit
 * every result a second time.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./support/cli-process.ts";
import { completedCheckpointIds } from "./support/e2e-kill-loop.ts";
import { writeOrders } from "./support/e2e-orders.ts";

const JOB = "test/fixtures/e2e-running-total-job.ts";
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Every file under `dir` (hidden ones too) with its content. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out[join(entry.parentPath, entry.name)] = readFileSync(join(entry.parentPath, entry.name), "utf8");
  }
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("weir run with a damaged only checkpoint", () => {
  const corruptions: [string, (chk: string) => string, RegExp][] = [
    [
      "a flipped byte in _metadata",
      (chk) => {
        const bytes = readFileSync(join(chk, "_metadata"));
        bytes[bytes.length >> 1] ^= 0xff;
        writeFileSync(join(chk, "_metadata"), bytes);
        return join(chk, "_metadata");
      },
      /: checksum mismatch/,
    ],
    [
      "a truncated state file",
      (chk) => {
        const file = join(chk, readdirSync(chk).find((n) => n.startsWith("running-total-"))!);
        truncateSync(file, statSync(file).size >> 1);
        return file;
      },
      /: size is \d+ bytes, expected \d+/,
    ],
  ];

  for (const [what, corrupt, reason] of corruptions) {
    it(`${what}: refuses to start, names the damage and the way out, exits non-zero, writes nothing`, async () => {
      const root = mkdtempSync(join(tmpdir(), "weir-corrupt-"));
      dirs.push(root);
      const [input, output, checkpoints] = ["in", "out", "chk"].map((d) => join(root, d)) as [string, string, string];
      writeOrders(input, 7, 2, 500, 5);
      const command = ["run", JOB, "--checkpoint-interval", "100", "--checkpoint-dir", checkpoints, "--", input, output];
      const first = await runCli(command, 60_000);
      expect(first.code, first.stderr).toBe(0);
      const ids = completedCheckpointIds(checkpoints);
      expect(ids, "one retained checkpoint").toHaveLength(1);
      const before = snapshot(output);
      expect(Object.keys(before).length).toBeGreaterThan(0);

      const chk = join(checkpoints, `chk-${ids[0]}`);
      const damaged = corrupt(chk);
      const second = await runCli(command, 60_000);
      expect(second.code, second.stderr).toBe(1);
      const lines = second.stderr.trim().split("\n");
      // the cause, then the summary line
      const message = lines.at(-2)!;
      expect(lines.at(-1)).toMatch(/^weir: error: job '\S+' failed after [\d.]+ s: 0 records in, 0 out, 0 checkpoints, 0 restarts; exit 1$/);
      expect(message).toMatch(new RegExp(`^weir: error: DamagedCheckpointError: checkpoint ${ids[0]} at ${escape(chk)} is damaged: corrupt checkpoint file ${escape(damaged)}`));
      expect(message).toMatch(reason);
      expect(message).toMatch(/no older intact checkpoint exists/);
      expect(message).toMatch(/run with --fresh to start over from empty state on purpose, or with --from-savepoint PATH/);
      expect(second.stderr).not.toMatch(/restored from/);
      expect(snapshot(output), "the sink's directory changed").toEqual(before);
    });
  }
});
