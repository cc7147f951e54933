import { describe, expect, it } from "vitest";
import { CheckpointAbortedError, TolerableCheckpointFailuresExceeded } from "../../checkpoint/coordinator/index.ts";
import { failureCause, userCodeLocation } from "./failure-cause.ts";

const OWN = "/opt/weir/src/";
const CWD = "/home/me/jobs";

/** An error as it arrives from a task: message prefixed by the job master, stack from the task's thread. */
function taskError(message: string, frames: string[]): Error {
  const e = new Error(`task 'Sequence -> Map -> Print' 1/2 failed: ${message}`);
  e.stack = [`Error: ${message}`, ...frames.map((f) => `    at ${f}`)].join("\n");
  return e;
}

const userFrames = (line: number) => [
  `MapOperator.<anonymous> (${CWD}/orders.ts:${line}:25)`,
  `MapOperator.processElement (${OWN}runtime/operators/element-operators.ts:21:27)`,
  `async StreamTask.run (${OWN}runtime/task/stream-task.ts:131:35)`,
];

describe("userCodeLocation", () => {
  it("is the first frame outside Weir, node_modules and Node.js internals, relative to the working directory", () => {
    const stack = [
      "Error: boom",
      `    at Object.collect (${OWN}runtime/task/operator-chain.ts:95:45)`,
      "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)",
      "    at parse (/home/me/jobs/node_modules/some-lib/index.js:3:9)",
      `    at file://${CWD}/lib/parse.ts:12:7`,
      `    at MapOperator.<anonymous> (${CWD}/orders.ts:7:25)`,
    ].join("\n");
    expect(userCodeLocation(stack, OWN, CWD)).toBe("lib/parse.ts:12:7");
    expect(userCodeLocation(stack, OWN, "/elsewhere")).toBe(`${CWD}/lib/parse.ts:12:7`);
  });

  it("is undefined when every frame is Weir's own (an input error names its file and line in the message)", () => {
    expect(userCodeLocation(`Error: x\n    at read (${OWN}connectors/file/file-source-reader.ts:80:11)`, OWN, CWD)).toBeUndefined();
    expect(userCodeLocation(undefined, OWN, CWD)).toBeUndefined();
  });
});

describe("failureCause", () => {
  it("describes the task, the error and where the user code threw", () => {
    const cause = failureCause(taskError("boom at 50", userFrames(7)), "v1#0", OWN, CWD);
    expect(cause.description).toBe("task 'Sequence -> Map -> Print' 1/2 failed: boom at 50 (at orders.ts:7:25)");
  });

  it("is the same for the same task, error and place, and differs otherwise", () => {
    const key = (message: string, taskId = "v1#0", line = 7) => failureCause(taskError(message, userFrames(line)), taskId, OWN, CWD).key;
    expect(key("in/a.jsonl:2: invalid JSON")).toBe(key("in/a.jsonl:2: invalid JSON"));
    expect(key("in/a.jsonl:2: invalid JSON")).not.toBe(key("in/a.jsonl:3: invalid JSON")); // another input position
    expect(key("boom")).not.toBe(key("boom", "v1#1")); // another subtask
    expect(key("boom")).not.toBe(key("boom", "v1#0", 8)); // another place in the code
  });

  it("recognizes a checkpoint failure that comes back with a new checkpoint id in every attempt", () => {
    const exceeded = (id: number, detail = "declined by task v2#0: EPERM: operation not permitted, mkdir '/ro/ck'") =>
      new TolerableCheckpointFailuresExceeded("job", 0, 1, new CheckpointAbortedError(id, "declined", `Checkpoint ${id} of job "job" ${detail}`));
    const key = (e: Error) => failureCause(e, undefined, OWN, CWD).key;
    expect(key(exceeded(3))).toBe(key(exceeded(4)));
    expect(key(exceeded(3))).not.toBe(key(exceeded(4, "declined by task v2#0: ENOSPC: no space left on device")));
    expect(failureCause(exceeded(4), undefined, OWN, CWD).description).toMatch(/Checkpoint 4 of job "job" declined by task v2#0: EPERM/);
  });
});
