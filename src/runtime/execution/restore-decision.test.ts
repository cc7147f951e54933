import { describe, expect, it } from "vitest";
import { CorruptCheckpointError, type DamagedCheckpoint, type LatestCompleted } from "../../checkpoint/storage/index.ts";
import type { CompletedCheckpoint } from "../../checkpoint/types.ts";
import { DamagedCheckpointError, JobFailedError } from "./job-errors.ts";
import { describeRestore, failoverRestore, nextCheckpointId, runOrigin, type RunOrigin } from "./restore-decision.ts";

const checkpoint = (id: number, savepoint = false): CompletedCheckpoint => ({
  version: 1,
  jobName: "job",
  checkpointId: id,
  timestamp: 0,
  completedAt: 0,
  savepoint,
  graphFingerprint: "fp",
  states: [],
  directory: savepoint ? `/sp/savepoint-job-${id}` : `/ck/chk-${id}`,
});

const damaged = (id: number): DamagedCheckpoint => ({
  checkpointId: id,
  location: `/ck/chk-${id}`,
  error: new CorruptCheckpointError(`/ck/chk-${id}/_metadata`, "checksum mismatch (header 0badf00d, body 12345678)"),
});

const stored = (latest: CompletedCheckpoint | null, ...bad: DamagedCheckpoint[]): LatestCompleted => ({ checkpoint: latest, damaged: bad });

describe("runOrigin", () => {
  it("--fresh starts empty and --from-savepoint from the savepoint, whatever the checkpoint directory holds", () => {
    expect(runOrigin({ kind: "fresh" })).toEqual({ value: { kind: "empty", fresh: true }, warnings: [] });
    const savepoint = checkpoint(17, true);
    expect(runOrigin({ kind: "savepoint", savepoint })).toEqual({ value: { kind: "savepoint", checkpoint: savepoint }, warnings: [] });
  });

  it("resumes the newest intact checkpoint, warning about newer damaged ones", () => {
    const latest = checkpoint(7);
    expect(runOrigin({ kind: "resume", stored: stored(latest) })).toEqual({ value: { kind: "checkpoint", checkpoint: latest }, warnings: [] });
    const { value, warnings } = runOrigin({ kind: "resume", stored: stored(latest, damaged(9), damaged(8)) });
    expect(value).toEqual({ kind: "checkpoint", checkpoint: latest });
    expect(warnings).toEqual([
      expect.stringMatching(/^skipping checkpoint 9 at \/ck\/chk-9, falling back to checkpoint 7: corrupt checkpoint file \/ck\/chk-9\/_metadata: checksum mismatch/),
      expect.stringMatching(/^skipping checkpoint 8 at \/ck\/chk-8, falling back to checkpoint 7/),
    ]);
  });

  it("starts empty when the directory holds no completed checkpoint (partial ones do not count)", () => {
    expect(runOrigin({ kind: "resume", stored: stored(null) })).toEqual({ value: { kind: "empty", fresh: false }, warnings: [] });
  });

  it("refuses to start when every checkpoint is damaged: names the newest, what is wrong, and the ways out", () => {
    const attempt = () => runOrigin({ kind: "resume", stored: stored(null, damaged(5), damaged(4)) });
    expect(attempt).toThrow(DamagedCheckpointError);
    expect(attempt).toThrow(JobFailedError);
    let error: DamagedCheckpointError | undefined;
    try {
      attempt();
    } catch (e) {
      error = e as DamagedCheckpointError;
    }
    expect(error).toMatchObject({ checkpointId: 5, location: "/ck/chk-5" });
    expect(error!.reason).toBe("corrupt checkpoint file /ck/chk-5/_metadata: checksum mismatch (header 0badf00d, body 12345678)");
    expect(error!.message).toMatch(/^checkpoint 5 at \/ck\/chk-5 is damaged: corrupt checkpoint file \/ck\/chk-5\/_metadata: checksum mismatch/);
    expect(error!.message).toMatch(/no older intact checkpoint exists/);
    expect(error!.message).toMatch(/--fresh .*--from-savepoint PATH/);
  });
});

describe("failoverRestore", () => {
  const sp = checkpoint(17, true);
  const resumedFrom = checkpoint(40);
  const fresh: RunOrigin = { kind: "empty", fresh: true };
  const savepoint: RunOrigin = { kind: "savepoint", checkpoint: sp };
  const resumed: RunOrigin = { kind: "checkpoint", checkpoint: resumedFrom };

  it("goes back to the run's origin while the run has no checkpoint of its own", () => {
    // `own` comes from storage.latestCompleted(firstOwnId): an older run's checkpoints are not in it
    expect(failoverRestore(fresh, stored(null)).value).toBeNull();
    expect(failoverRestore(savepoint, stored(null)).value).toBe(sp);
    expect(failoverRestore(resumed, stored(null)).value).toBe(resumedFrom);
  });

  it("restores the run's newest intact own checkpoint once it has one, whatever the origin", () => {
    const own = checkpoint(45);
    for (const origin of [fresh, savepoint, resumed]) expect(failoverRestore(origin, stored(own))).toEqual({ value: own, warnings: [] });
    const { value, warnings } = failoverRestore(fresh, stored(own, damaged(46)));
    expect(value).toBe(own);
    expect(warnings).toEqual([expect.stringMatching(/^skipping checkpoint 46 at \/ck\/chk-46, falling back to checkpoint 45/)]);
  });

  it("refuses when the run's own checkpoints are all damaged, rather than rewind to its origin", () => {
    for (const origin of [fresh, savepoint, resumed]) {
      expect(() => failoverRestore(origin, stored(null, damaged(46)))).toThrow(
        /checkpoint 46 at \/ck\/chk-46 is damaged: .*this run has no older intact checkpoint/,
      );
    }
  });
});

describe("nextCheckpointId", () => {
  it("continues above the directory, the ids this process used, and the restored checkpoint", () => {
    expect(nextCheckpointId(0, 0, undefined)).toBe(1);
    expect(nextCheckpointId(12, 0, undefined)).toBe(13); // a --fresh run after an older one
    expect(nextCheckpointId(12, 15, 12)).toBe(16); // checkpoint 15 was in flight when attempt 0 failed, and discarded
    expect(nextCheckpointId(0, 0, 17)).toBe(18); // from a savepoint into an empty directory
  });
});

describe("describeRestore", () => {
  it("says what a restart restores", () => {
    const sp = checkpoint(17, true);
    expect(describeRestore(null, { kind: "empty", fresh: true })).toBe("empty state, where this --fresh run started (it has no checkpoint of its own yet)");
    expect(describeRestore(null, { kind: "empty", fresh: false })).toBe("empty state (no checkpoint yet)");
    expect(describeRestore(sp, { kind: "savepoint", checkpoint: sp })).toBe(
      "savepoint 17 (/sp/savepoint-job-17), where this run started (it has no checkpoint of its own yet)",
    );
    expect(describeRestore(checkpoint(20), { kind: "savepoint", checkpoint: sp })).toBe("checkpoint 20");
  });
});
