/**
 * The optional asynchronous hooks of `TwoPhaseCommitSink`: `flush` (before the barrier, the durable part
 * of the pre-commit, may complete the handle) and `blocked` (backpressure of the open transaction), with
 * an in-memory transactional store whose writes complete later, as a broker's or database's do.
 */
import { describe, expect, it } from "vitest";
import { startSubtask, tempDir } from "../file/test-file-sink-harness.ts";
import { FileSink } from "../file/file-sink.ts";
import type { TransactionContext } from "./transaction-context.ts";
import { TwoPhaseCommitSink } from "./two-phase-commit-sink.ts";

interface Txn {
  readonly name: string;
  /** Assigned by the store when the first write of the transaction is acknowledged. */
  storeId: number;
}

/** Writes go out at once and are acknowledged on `ack()`; the store holds acknowledged writes per transaction. */
class AsyncStoreSink extends TwoPhaseCommitSink<string, Txn, { n: number }> {
  readonly acked = new Map<string, string[]>();
  readonly inFlight: { txn: Txn; value: string; resolve: () => void }[] = [];
  readonly committed: string[] = [];
  readonly recovered: Txn[] = [];
  failNextFlush: Error | undefined;
  limit = Infinity;
  private nextStoreId = 100;
  private readonly waiting = new Map<string, Promise<void>[]>();

  override initializeUserContext(): { n: number } {
    return { n: 0 };
  }
  beginTransaction(ctx: TransactionContext<{ n: number }>): Txn {
    return { name: `t${ctx.userContext.n++}`, storeId: -1 };
  }
  invoke(txn: Txn, value: string): void {
    const done = new Promise<void>((resolve) => this.inFlight.push({ txn, value, resolve }));
    this.waiting.set(txn.name, [...(this.waiting.get(txn.name) ?? []), done]);
  }
  ack(): void {
    for (const w of this.inFlight.splice(0)) {
      if (w.txn.storeId === -1) w.txn.storeId = this.nextStoreId++;
      this.acked.set(w.txn.name, [...(this.acked.get(w.txn.name) ?? []), w.value]);
      w.resolve();
    }
  }
  override blocked(txn: Txn): Promise<void> | undefined {
    const open = this.inFlight.filter((w) => w.txn === txn);
    return open.length < this.limit ? undefined : Promise.all(open.map((w) => this.waiting.get(w.txn.name)!.at(-1))).then(() => undefined);
  }
  override async flush(txn: Txn): Promise<void> {
    if (this.failNextFlush) throw this.failNextFlush;
    await Promise.all(this.waiting.get(txn.name) ?? []);
  }
  preCommit(txn: Txn): void {
    if (this.inFlight.some((w) => w.txn === txn)) throw new Error(`pre-commit of ${txn.name} before its writes were acknowledged`);
  }
  commit(txn: Txn): void {
    this.committed.push(...(this.acked.get(txn.name) ?? []));
  }
  abort(txn: Txn): void {
    this.acked.delete(txn.name);
  }
  override recoverAndCommit(txn: Txn): void {
    this.recovered.push({ ...txn });
    this.commit(txn);
  }
}

describe("TwoPhaseCommitSink's asynchronous hooks", () => {
  it("flush waits for the open transaction's writes; what it fills into the handle is in the checkpoint", async () => {
    const sink = new AsyncStoreSink();
    const t = await startSubtask<string>(sink, { uid: "store" });
    t.writer.write("a");
    t.writer.write("b");
    let flushed = false;
    const flushing = Promise.resolve(t.writer.flush!()).then(() => (flushed = true));
    await new Promise((r) => setTimeout(r, 0));
    expect(flushed).toBe(false);
    sink.ack();
    await flushing;
    const blob = await t.checkpoint(1);
    t.writer.write("c"); // into t1, never acknowledged: the process dies
    // the restored handle carries the store id that flush saw
    const restoredSink = new AsyncStoreSink();
    await startSubtask<string>(restoredSink, { uid: "store", blobs: [blob], attempt: 1 });
    expect(restoredSink.recovered).toEqual([{ name: "t0", storeId: 100 }]);
  });

  it("a flush that fails rejects the writer's flush (the checkpoint fails); the default hooks do nothing", async () => {
    const sink = new AsyncStoreSink();
    const t = await startSubtask<string>(sink, { uid: "store" });
    t.writer.write("a");
    sink.failNextFlush = new Error("store unreachable");
    await expect(Promise.resolve(t.writer.flush!())).rejects.toThrow("store unreachable");
    const files = await startSubtask<string>(FileSink.forLines(tempDir()), {});
    files.writer.write("x");
    expect(files.writer.blocked!()).toBeUndefined();
    expect(files.writer.flush!()).toBeUndefined();
  });

  it("blocked asks the open transaction; it resolves once the store acknowledged", async () => {
    const sink = new AsyncStoreSink();
    sink.limit = 2;
    const t = await startSubtask<string>(sink, { uid: "store" });
    t.writer.write("a");
    expect(t.writer.blocked!()).toBeUndefined();
    t.writer.write("b");
    const blocked = t.writer.blocked!();
    expect(blocked).toBeInstanceOf(Promise);
    sink.ack();
    await blocked;
    expect(t.writer.blocked!()).toBeUndefined();
    await t.writer.close!();
    expect(t.writer.blocked!()).toBeUndefined(); // closed: no open transaction
  });
});
