/**
 * The per-user registry of running jobs on this machine: one small JSON file
 * per job in `<weir home>/jobs/<jobId>.json`, written atomically by `weir run`
 * and `weir sql` once the job's REST server is up, and removed when the job
 * ends. `weir list` reads it to find the jobs, `weir cancel/stop/savepoint`
 * to find a job's REST address. A process that dies without removing its
 * entries (SIGKILL, power loss) leaves stale entries: their pid is dead (or
 * reused by another process), which {@link readJobRegistry} detects.
 */
import { mkdirSync, rmSync, unlinkSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "../util/fs-atomic.ts";
import { getLogger } from "../util/logger.ts";
import { processLiveness, thisProcess, type Liveness } from "../util/process-liveness.ts";
import type { JobClient } from "./job-client.ts";

/** What a registry file holds about a running job. */
export interface JobRegistration {
  /** Flink's JobID: 32 lowercase hex. */
  readonly jobId: string;
  readonly name: string;
  /** The process that runs the job (and serves its REST API). */
  readonly pid: number;
  /** When that process started, epoch ms (`thisProcess()`): tells a reused pid apart. */
  readonly processStartedAt: number;
  /** `os.hostname()` of the machine. */
  readonly host: string;
  /** When the job started, epoch ms. */
  readonly startTime: number;
  /** The base address of the job's REST API and dashboard, e.g. `http://127.0.0.1:8081`. */
  readonly webUrl: string;
  /** The token its REST server asks for (`Authorization: Bearer`), if it asks for one. */
  readonly token?: string;
}

/** A registry entry as read: the registration, its file, and whether its process still runs. */
export interface RegistryEntry extends JobRegistration {
  readonly file: string;
  /** "alive": the process runs; "dead": a stale entry (the process ended without removing it); "other-host": a shared home, not checkable here. */
  readonly liveness: Liveness;
}

/**
 * The registry's home: `$WEIR_HOME`, else `$XDG_RUNTIME_DIR/weir` (per user, emptied at logout and reboot),
 * else `~/.weir`.
 *
 * @example
 * ```ts
 * weirHome({ WEIR_HOME: "/tmp/w" }); // "/tmp/w"
 * weirHome({ XDG_RUNTIME_DIR: "/run/user/1000" }); // "/run/user/1000/weir"
 * ```
 */
export function weirHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env["WEIR_HOME"]) return env["WEIR_HOME"];
  if (env["XDG_RUNTIME_DIR"]) return join(env["XDG_RUNTIME_DIR"], "weir");
  return join(homedir(), ".weir");
}

/** The folder of the registry files. */
export function jobRegistryDir(home: string = weirHome()): string {
  return join(home, "jobs");
}

/** A job's registration while it runs; `remove()` (idempotent) ends it. */
export interface Registered {
  readonly file: string;
  remove(): Promise<void>;
}

/** Files of registrations of this process, removed at its exit when nothing removed them before (`process.exit` in a watchdog). */
const ownFiles = new Set<string>();
let exitHookInstalled = false;

function removeOwnFilesAtExit(): void {
  for (const file of ownFiles) {
    try {
      unlinkSync(file);
    } catch {
      // gone already
    }
  }
}

/**
 * Registers a running job of this process: writes its file atomically (mode 0600: it may hold a token) in a
 * registry folder only its user may read. The file is also removed when the process exits normally.
 *
 * @example
 * ```ts
 * const registered = await registerJob({ jobId, name: "sums", startTime: Date.now(), webUrl: server.url });
 * // … the job runs …
 * await registered.remove();
 * ```
 */
export async function registerJob(
  job: Pick<JobRegistration, "jobId" | "name" | "startTime" | "webUrl" | "token">,
  home: string = weirHome(),
): Promise<Registered> {
  if (!/^[0-9a-f]+$/.test(job.jobId)) throw new Error(`job registry: job id '${job.jobId}' is not hex`);
  const dir = jobRegistryDir(home);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${job.jobId}.json`);
  const me = thisProcess();
  const registration: JobRegistration = { ...job, pid: me.pid, processStartedAt: me.processStartedAt, host: me.host };
  await writeFileAtomic(file, JSON.stringify(registration) + "\n", 0o600);
  ownFiles.add(file);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", removeOwnFilesAtExit);
  }
  return {
    file,
    remove: async () => {
      // synchronously: a process that exits right after its job ended leaves no entry behind
      rmSync(file, { force: true });
      ownFiles.delete(file);
    },
  };
}

/**
 * Registers `client`'s job, served at `web`, until it ends (its result settles): what `weir run` and
 * `weir sql` call once the job's REST server is up. Resolves once the entry is written; a registry that
 * cannot be written is a warning (the job runs on, `weir list` just does not see it).
 *
 * @example
 * ```ts
 * await registerUntilEnd(client, { url: server.url, token });
 * ```
 */
export async function registerUntilEnd(client: JobClient, web: { readonly url: string; readonly token?: string }, startTime = Date.now(), home: string = weirHome()): Promise<void> {
  let registered: Registered;
  try {
    registered = await registerJob({ jobId: client.getJobId(), name: client.jobName, startTime, webUrl: web.url, token: web.token }, home);
  } catch (e) {
    getLogger().warn(`could not register the job in ${jobRegistryDir(home)} (weir list will not show it): ${(e as Error).message}`);
    return;
  }
  const remove = () => registered.remove().catch(() => {});
  client.getJobExecutionResult().then(remove, remove);
}

/**
 * Every entry of the registry, oldest job first, each with its liveness; files that are not registrations
 * (torn by a foreign writer, hand-edited) are skipped. An absent registry is empty.
 *
 * @example
 * ```ts
 * const running = (await readJobRegistry()).filter((e) => e.liveness !== "dead");
 * ```
 */
export async function readJobRegistry(home: string = weirHome()): Promise<RegistryEntry[]> {
  const dir = jobRegistryDir(home);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  const entries: RegistryEntry[] = [];
  for (const name of names.filter((n) => n.endsWith(".json") && !n.startsWith("."))) {
    const file = join(dir, name);
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch {
      continue; // removed meanwhile: the job ended
    }
    const registration = parseJobRegistration(text);
    if (registration) entries.push({ ...registration, file, liveness: processLiveness(registration) });
  }
  return entries.sort((a, b) => a.startTime - b.startTime);
}

/** Removes a stale entry (its process is dead). */
export async function removeStaleEntry(entry: RegistryEntry): Promise<void> {
  if (entry.liveness !== "dead") throw new Error(`job registry: ${entry.file} belongs to a running process (pid ${entry.pid})`);
  await rm(entry.file, { force: true });
}

/** The registration in a registry file's text, or undefined when it is not one. */
export function parseJobRegistration(text: string): JobRegistration | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== "object" || v === null) return undefined;
  const o = v as Record<string, unknown>;
  const fields = { jobId: "string", name: "string", pid: "number", processStartedAt: "number", host: "string", startTime: "number", webUrl: "string" } as const;
  for (const [field, type] of Object.entries(fields)) if (typeof o[field] !== type) return undefined;
  if (o["token"] !== undefined && typeof o["token"] !== "string") return undefined;
  return o as unknown as JobRegistration;
}
