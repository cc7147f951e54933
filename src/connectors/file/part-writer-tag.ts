/**
 * Who writes a hidden part file, as its name says: the run of the job (a
 * hash of `SinkContext.jobId`) and the process (pid, start time, a hash of
 * the host name). The file sink's start-up clean-up reads it to delete only
 * the files of its own earlier attempts and of processes that are provably
 * dead, never those of another run that still writes (see `leftoverVerdict`).
 */
import { crc32, crc32Hex } from "../../util/crc32.ts";
import { processLiveness, thisProcess, type Liveness, type ProcessIdentity } from "../../util/process-liveness.ts";

/** The writer of a hidden part file. */
export interface PartWriterTag {
  /** 8 hex digits: CRC-32 of the run's job id. */
  readonly job: string;
  readonly pid: number;
  /** Start of the writing process, epoch ms. */
  readonly processStartedAt: number;
  /** 8 hex digits: CRC-32 of the writing process's host name. */
  readonly host: string;
}

const hash = (s: string): string => crc32Hex(crc32(new TextEncoder().encode(s)));

/** The tag's shape inside a file name. */
export const WRITER_TAG = "[0-9a-f]{8}-[0-9]+-[0-9a-z]+-[0-9a-f]{8}";

let me: Required<ProcessIdentity> | undefined;

/** This process with its host hashed as in tags (computed once: pid, start and host do not change). */
function thisProcessTagged(): Required<ProcessIdentity> {
  if (me === undefined) {
    const p = thisProcess();
    me = { ...p, host: hash(p.host) };
  }
  return me;
}

/**
 * The tag of the files that this process writes for run `jobId`.
 *
 * @example
 * ```ts
 * formatWriterTag(writerTag("9b2f…")); // "1c3d5e7f-4242-mfx3k2a1-0a1b2c3d"
 * ```
 */
export function writerTag(jobId: string): PartWriterTag {
  const p = thisProcessTagged();
  return { job: hash(jobId), pid: p.pid, processStartedAt: p.processStartedAt, host: p.host };
}

/** The tag as it appears in a file name: `<job>-<pid>-<start, base 36>-<host>`. */
export function formatWriterTag(tag: PartWriterTag): string {
  return `${tag.job}-${tag.pid}-${tag.processStartedAt.toString(36)}-${tag.host}`;
}

/** The tag of a file name's `WRITER_TAG` part. */
export function parseWriterTag(text: string): PartWriterTag {
  const [job, pid, start, host] = text.split("-") as [string, string, string, string];
  return { job, pid: Number(pid), processStartedAt: parseInt(start, 36), host };
}

/** What the clean-up does with a hidden file that no restored transaction owns. */
export type LeftoverVerdict =
  /** Written by an earlier attempt of this run, by a process that is dead, or by a Weir that did not tag files: delete. */
  | "delete"
  /** Written by another run that may still write it (alive, another run in this process, or on another host): keep. */
  | "keep";

/**
 * Whether the clean-up of run `jobId` deletes a leftover hidden file written
 * by `writer` (null: an untagged file of an earlier Weir). Pure apart from
 * `liveness` (default: `processLiveness` against this process).
 *
 * @example
 * ```ts
 * leftoverVerdict(writerTag(ctx.jobId), ctx.jobId);           // "delete": an earlier attempt of this run
 * leftoverVerdict({ ...tag, job: "00000000" }, ctx.jobId);     // "keep": another run in this very process
 * ```
 */
export function leftoverVerdict(
  writer: PartWriterTag | null,
  jobId: string,
  liveness: (p: ProcessIdentity) => Liveness = (p) => processLiveness(p, thisProcessTagged()),
): LeftoverVerdict {
  if (writer === null) return "delete";
  if (writer.job === hash(jobId)) return "delete"; // this run: earlier attempts are over (attempts never overlap)
  return liveness(writer) === "dead" ? "delete" : "keep";
}
