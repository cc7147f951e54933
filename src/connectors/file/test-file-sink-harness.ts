/**
 * Test helpers of the file sink: a writer driven by hand against a real
 * OperatorStateBackend (snapshot → bytes → restore into a fresh backend = a
 * restart), and readers of what a directory holds.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { Sink, SinkWriter } from "../../core/sink.ts";
import type { CheckpointListener, CheckpointedFunction } from "../../core/checkpointed-function.ts";
import { OperatorStateBackend } from "../../state/index.ts";
import { systemClock, type Clock } from "../../util/clock.ts";
import { createLogger } from "../../util/logger.ts";

/** A writer with the hooks the runtime calls. */
export type DrivenWriter<T> = SinkWriter<T> & CheckpointedFunction & Required<Pick<CheckpointListener, "notifyCheckpointComplete">>;

/** One subtask of a sink, driven by hand. */
export interface DrivenSubtask<T> {
  readonly writer: DrivenWriter<T>;
  /** Barrier `id`: snapshotState, then the operator state as bytes. */
  checkpoint(id: number): Promise<Uint8Array>;
  readonly logs: string[];
}

/** Creates and initializes subtask `subtask` of `sink`, restored from `blobs` when given. */
export async function startSubtask<T>(
  sink: Sink<T>,
  o: { subtask?: number; parallelism?: number; attempt?: number; uid?: string; blobs?: Uint8Array[]; clock?: Clock },
): Promise<DrivenSubtask<T>> {
  const uid = o.uid ?? "files";
  const backend = new OperatorStateBackend({ operatorUid: uid });
  if (o.blobs) backend.restore(o.blobs);
  const logs: string[] = [];
  const writer = sink.createWriter({
    jobId: "test-job",
    subtaskIndex: o.subtask ?? 0,
    parallelism: o.parallelism ?? 1,
    operatorUid: uid,
    attempt: o.attempt ?? 0,
    reportResult: () => undefined,
    clock: o.clock ?? systemClock,
    logger: createLogger({ level: "debug", destination: (r) => void logs.push(r.msg) }),
  }) as DrivenWriter<T>;
  await writer.initializeState({ isRestored: () => o.blobs !== undefined, getOperatorStateStore: () => backend });
  return {
    writer,
    logs,
    checkpoint: async (id) => {
      writer.snapshotState({ getCheckpointId: () => id });
      return backend.snapshot(id).serialize();
    },
  };
}

/** A fresh temporary directory. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "weir-file-sink-"));
}

/** Every file under `dir` (relative paths, sorted), hidden ones included. */
export function listFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as { name: string; parentPath?: string; path?: string; isFile(): boolean }[])
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath ?? e.path ?? dir, e.name)))
    .sort();
}

/** The hidden (in-progress or pending) files under `dir`. */
export function hiddenFiles(dir: string): string[] {
  return listFiles(dir).filter((f) => f.split("/").at(-1)!.startsWith("."));
}

/** The committed part files under `dir`. */
export function committedFiles(dir: string): string[] {
  return listFiles(dir).filter((f) => !f.split("/").at(-1)!.startsWith("."));
}

/** The lines of every committed part under `dir`, sorted. */
export function committedLines(dir: string): string[] {
  return committedFiles(dir)
    .flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n").filter((l) => l !== ""))
    .sort();
}

/** `files` with the run id (a UUID) of each part name replaced by `<run>`, sorted: names to compare without their randomness. */
export function withoutRunIds(files: readonly string[]): string[] {
  return files.map((f) => f.replace(/-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-/, "-<run>-")).sort();
}

/** The content of the one committed part under `dir` named `name` once its run id is replaced by `<run>` (see {@link withoutRunIds}). */
export function readPart(dir: string, name: string): string {
  const found = committedFiles(dir).filter((f) => withoutRunIds([f])[0] === name);
  if (found.length !== 1) throw new Error(`${found.length} committed parts named ${name} under ${dir}: ${committedFiles(dir).join(", ")}`);
  return readFileSync(join(dir, found[0]!), "utf8");
}
