import { describe, expect, it } from "vitest";
import type { Deployment, TaskManagerEvents } from "../../runtime/execution/deployment.ts";
import { WorkerDriver, type WorkerTransport } from "./worker-driver.ts";
import type { ToWorker } from "./worker-protocol.ts";

const events = { acknowledge() {}, decline() {}, running() {}, endOfData() {}, finished() {}, failed() {}, fatal() {}, watermark() {} } as TaskManagerEvents;
const deployment = (attempt: number) => ({ jobId: "j", jobName: "job", attempt }) as unknown as Deployment;

/** A transport that, like a cluster's, keeps a deployment until its worker has a slot (`place`), and withdraws it on a cancel. */
function slotTransport() {
  const posted: [number, ToWorker][] = [];
  const queued = new Map<number, () => void>();
  const transport: WorkerTransport = {
    post: (i, m) => {
      if (m.type === "cancel" && queued.delete(i)) return;
      posted.push([i, m]);
    },
    whenDeployable: (i, _crashed, _d, deploy) => void queued.set(i, deploy),
    blocked: () => ({ forMs: 0, activeTask: undefined }),
    shutdown: async () => {},
  };
  const place = () => {
    for (const deploy of queued.values()) deploy();
    queued.clear();
  };
  return { transport, posted, place };
}

describe("WorkerDriver", () => {
  it("withdraws the waiting deployment of a crashed worker when its attempt is cancelled: only the next attempt reaches it", async () => {
    const { transport, posted, place } = slotTransport();
    const driver = new WorkerDriver([0], events, transport);
    const worker = driver.handle(0);
    driver.crashed(0, new Error("its task manager was lost"));
    worker.deploy(deployment(4)); // waits for a slot
    expect(await worker.cancel(4)).toEqual({}); // attempt 4 failed elsewhere meanwhile
    place(); // a slot, before attempt 5 is deployed
    driver.restarted(0);
    worker.deploy(deployment(5));
    place();
    expect(posted.filter(([, m]) => m.type === "deploy").map(([, m]) => (m as { deployment: Deployment }).deployment.attempt)).toEqual([5]);
  });

  it("cancels a live worker's attempt by asking it, and resolves with what it answers", async () => {
    const { transport, posted } = slotTransport();
    const driver = new WorkerDriver([0], events, transport);
    const cancelled = driver.handle(0).cancel(2);
    expect(posted).toEqual([[0, { type: "cancel", attempt: 2, graceful: false }]]);
    driver.receive(0, { type: "cancelled", attempt: 2, positions: { src: [1] } });
    expect(await cancelled).toEqual({ src: [1] });
  });
});
