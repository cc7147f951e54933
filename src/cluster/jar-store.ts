/**
 * Job bundles by their content: the job manager stores each uploaded bundle
 * as `<sha256>.<ext>` (`web.upload.dir`), a task manager caches the bundles
 * it fetched the same way (`blob.storage.directory`). Written atomically: a
 * reader never sees half a bundle.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { writeFileAtomic } from "../util/fs-atomic.ts";

/** Extensions of job bundles: an ES module job, or a SQL script. */
export const JAR_EXTENSIONS = ["mjs", "js", "sql"] as const;

/** A stored bundle: its id (`<sha256>.<ext>`), the name it was uploaded with, when, and its size. */
export interface StoredJar {
  readonly id: string;
  readonly sha: string;
  readonly ext: string;
  readonly name: string;
  readonly uploaded: number;
  readonly size: number;
}

/** `<sha256>.<ext>` split, or undefined when `id` is not a bundle id. */
export function parseJarId(id: string): { sha: string; ext: string } | undefined {
  const m = /^([0-9a-f]{64})\.([a-z]+)$/.exec(id);
  return m && (JAR_EXTENSIONS as readonly string[]).includes(m[2]!) ? { sha: m[1]!, ext: m[2]! } : undefined;
}

/**
 * @example
 * ```ts
 * const store = new JarStore(".weir/jars");
 * const jar = await store.add(bytes, "job.mjs"); // { id: "3fa4….mjs", … }
 * ```
 */
export class JarStore {
  readonly dir: string;
  /** Names the bundles were uploaded with (this process's uploads). */
  private readonly names = new Map<string, string>();

  /**
   * `dir`: where bundles are run from (a job manager's bundle imports "weirjs" from beside it);
   * `highAvailabilityDir`: a copy of each upload every job manager reaches (`high-availability.storageDir`), where a
   * new leader finds the bundles of the jobs it recovers.
   */
  constructor(
    dir: string,
    private readonly highAvailabilityDir?: string,
  ) {
    this.dir = resolve(dir);
    mkdirSync(this.dir, { recursive: true });
    if (highAvailabilityDir !== undefined) mkdirSync(highAvailabilityDir, { recursive: true });
  }

  /** Stores `bytes` uploaded as `filename` (its extension must be one of {@link JAR_EXTENSIONS}). */
  async upload(bytes: Uint8Array, filename: string): Promise<StoredJar> {
    const ext = /\.([a-z]+)$/.exec(filename)?.[1];
    if (!ext || !(JAR_EXTENSIONS as readonly string[]).includes(ext)) throw new Error(`a job bundle is a .mjs, .js or .sql file, got '${filename}'`);
    const sha = createHash("sha256").update(bytes).digest("hex");
    const id = `${sha}.${ext}`;
    if (!existsSync(this.path(id))) await writeFileAtomic(this.path(id), bytes);
    if (this.highAvailabilityDir !== undefined && !existsSync(join(this.highAvailabilityDir, id))) await writeFileAtomic(join(this.highAvailabilityDir, id), bytes);
    this.names.set(id, basename(filename));
    return this.describe(id)!;
  }

  /** Stores bytes fetched by their sha256 (checked). */
  async addFetched(sha: string, ext: string, bytes: Uint8Array): Promise<string> {
    const actual = createHash("sha256").update(bytes).digest("hex");
    if (actual !== sha) throw new Error(`job bundle ${sha} arrived with sha256 ${actual}`);
    const id = `${sha}.${ext}`;
    if (!existsSync(this.path(id))) await writeFileAtomic(this.path(id), bytes);
    return this.path(id);
  }

  /** Copies bundle `id` from the high-availability directory when it is not here (uploaded to another job manager); whether it is here now. */
  async recover(id: string): Promise<boolean> {
    if (this.has(id)) return true;
    if (this.highAvailabilityDir === undefined || parseJarId(id) === undefined) return false;
    const copy = join(this.highAvailabilityDir, id);
    if (!existsSync(copy)) return false;
    await writeFileAtomic(this.path(id), await readFile(copy));
    return true;
  }

  has(id: string): boolean {
    return parseJarId(id) !== undefined && existsSync(this.path(id));
  }

  /** Absolute path of bundle `id`. */
  path(id: string): string {
    return join(this.dir, id);
  }

  async read(id: string): Promise<Uint8Array> {
    return readFile(this.path(id));
  }

  /** A stored bundle, or undefined. */
  describe(id: string): StoredJar | undefined {
    const parsed = parseJarId(id);
    if (!parsed || !existsSync(this.path(id))) return undefined;
    const st = statSync(this.path(id));
    return { id, ...parsed, name: this.names.get(id) ?? id, uploaded: st.mtimeMs, size: st.size };
  }

  /** Every stored bundle, newest first. */
  list(): StoredJar[] {
    return readdirSync(this.dir)
      .flatMap((f) => this.describe(f) ?? [])
      .sort((a, b) => b.uploaded - a.uploaded);
  }
}
