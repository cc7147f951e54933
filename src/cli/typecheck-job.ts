/**
 * `weir run job.ts` type-checks the job file and its local imports before it
 * runs them (as Deno does), with the TypeScript installed in the job's
 * project; without one it does not check. An unchanged job is not checked
 * again: the check is cached under the job's `.weir/typecheck/`. TypeScript 7
 * and later have no compiler API in their package: their `tsc` command checks
 * the job (typecheck-with-tsc.ts).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve } from "node:path";
import { tsconfigChain } from "./tsconfig-chain.ts";
import { checkWithTsc } from "./typecheck-with-tsc.ts";

/** The outcome of {@link typecheckJob}. */
export type TypecheckOutcome =
  /** TypeScript is not installed in the job's project: not checked. */
  | { readonly kind: "no-typescript" }
  /** No error; `cached` when the files (and tsconfigs) had not changed since the last check without errors. */
  | { readonly kind: "ok"; readonly cached: boolean; readonly files: number; readonly version: string }
  /** Type errors, one line each: `job.ts:12:7: TS2322: Type 'string' is not assignable to type 'number'.` */
  | { readonly kind: "errors"; readonly errors: readonly string[] };

/** What the cache file keeps: the key of the settings, and the hash of every local file checked. */
interface CacheEntry {
  readonly key: string;
  readonly files: Record<string, string>;
}

/** The compiler options of a job without a tsconfig.json: strict, for Node's ES modules, no output. */
const DEFAULT_OPTIONS = {
  strict: true,
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  skipLibCheck: true,
  allowImportingTsExtensions: true,
  noEmit: true,
} as const;

/** A path inside some `node_modules` (a package's files: not the job's, not hashed, not reported). */
const IN_NODE_MODULES = /[\\/]node_modules[\\/]/;

/**
 * Type-checks `jobFile` and the files it imports that are not in
 * `node_modules`, with the `typescript` package that `jobFile`'s folder
 * resolves and its nearest `tsconfig.json` (else strict ES2022/NodeNext
 * defaults), never emitting. Locations are relative to `cwd`. `onCheck` is
 * called when the files changed since the last check, before the (slow) check.
 *
 * @example
 * ```ts
 * const outcome = typecheckJob(resolve("job.ts"));
 * if (outcome.kind === "errors") for (const line of outcome.errors) console.error(line); // job.ts:3:7: TS2322: …
 * ```
 */
export function typecheckJob(jobFile: string, cwd: string = process.cwd(), onCheck: () => void = () => {}): TypecheckOutcome {
  const jobDir = dirname(jobFile);
  const require = createRequire(join(jobDir, "noop.js"));
  let tsPath: string;
  try {
    tsPath = require.resolve("typescript");
  } catch {
    return { kind: "no-typescript" };
  }
  const version = String((require("typescript/package.json") as { version?: unknown }).version);
  const configPath = findConfig(jobDir);
  const key = sha256(JSON.stringify([version, configPath ?? null, configPath ? readFileSync(configPath, "utf8") : DEFAULT_OPTIONS]));
  const cacheFile = join(jobDir, ".weir", "typecheck", `${basename(jobFile)}-${sha256(jobFile).slice(0, 12)}.json`);
  const cached = readCache(cacheFile);
  if (cached?.key === key && Object.keys(cached.files).length > 0 && Object.entries(cached.files).every(([file, hash]) => hashOf(file) === hash)) {
    return { kind: "ok", cached: true, files: Object.keys(cached.files).length, version };
  }
  onCheck();
  const ts = require(tsPath) as typeof import("typescript");
  if (typeof ts.createProgram !== "function") {
    const checked = checkWithTsc(dirname(require.resolve("typescript/package.json")), jobFile, configPath, DEFAULT_OPTIONS, cwd);
    if (checked.errors.length > 0) return { kind: "errors", errors: checked.errors };
    return { kind: "ok", cached: false, files: cacheChecked(cacheFile, key, [...checked.files, ...(configPath ? tsconfigChain(configPath) : [])]), version };
  }
  const { options, configErrors, extendedConfigs } = compilerOptions(ts, configPath);
  const program = ts.createProgram({ rootNames: [jobFile], options, host: jobFilesAsModules(ts, options) });
  const local = program.getSourceFiles().filter((sf) => !IN_NODE_MODULES.test(sf.fileName));
  const diagnostics = [
    ...configErrors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...local.flatMap((sf) => [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]),
  ].filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (diagnostics.length > 0) return { kind: "errors", errors: diagnostics.map((d) => formatDiagnostic(ts, d, cwd)) };
  // the configs a tsconfig extends are checked like sources: a change to one checks again
  return { kind: "ok", cached: false, files: cacheChecked(cacheFile, key, [...local.map((sf) => sf.fileName), ...extendedConfigs]), version };
}

/** Caches a check without errors of `checked` (sources and configs) under `key`; returns how many files that is. */
function cacheChecked(cacheFile: string, key: string, checked: readonly string[]): number {
  const files: Record<string, string> = {};
  for (const file of checked.map((f) => resolve(f))) files[file] = hashOf(file) ?? "";
  writeCache(cacheFile, { key, files });
  return Object.keys(files).length;
}

/**
 * A compiler host that checks `.ts`/`.tsx` files outside `node_modules` as ES
 * modules whatever the nearest package.json says, as `weir run` loads them
 * (see deploy/job-format-hook.ts): a job in a CommonJS project may use
 * `import.meta` and top-level `await`.
 */
function jobFilesAsModules(ts: typeof import("typescript"), options: import("typescript").CompilerOptions): import("typescript").CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, ...rest) => {
    const esm = /\.tsx?$/.test(fileName) && !IN_NODE_MODULES.test(fileName) && typeof languageVersionOrOptions === "object";
    return getSourceFile(fileName, esm ? { ...languageVersionOrOptions, impliedNodeFormat: ts.ModuleKind.ESNext } : languageVersionOrOptions, ...rest);
  };
  return host;
}

/** The nearest `tsconfig.json` from `dir` upward. */
function findConfig(dir: string): string | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    const candidate = join(d, "tsconfig.json");
    if (existsSync(candidate)) return candidate;
    if (dirname(d) === d) return undefined;
  }
}

/** The options of `configPath` (or the defaults), made to check only: no output, `.ts` imports allowed as `weir run` runs them. */
function compilerOptions(
  ts: typeof import("typescript"),
  configPath: string | undefined,
): { options: import("typescript").CompilerOptions; configErrors: readonly import("typescript").Diagnostic[]; extendedConfigs: readonly string[] } {
  const checkOnly = { noEmit: true, allowImportingTsExtensions: true, composite: false, incremental: false, declaration: false, emitDeclarationOnly: false };
  if (configPath === undefined) {
    const { options, errors } = ts.convertCompilerOptionsFromJson(DEFAULT_OPTIONS, ".");
    return { options: { ...options, ...checkOnly }, configErrors: errors, extendedConfigs: [] };
  }
  const configErrors: import("typescript").Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => configErrors.push(d) });
  // the tsconfig's "include" may not list the job: its own errors about the file list do not concern the job
  const NO_INPUTS = 18003;
  for (const d of parsed?.errors ?? []) if (d.code !== NO_INPUTS) configErrors.push(d);
  return { options: { ...(parsed?.options ?? {}), ...checkOnly }, configErrors, extendedConfigs: (parsed?.options.configFile as import("typescript").TsConfigSourceFile | undefined)?.extendedSourceFiles ?? [] };
}

/** `job.ts:12:7: TS2322: message` (1-based line and column, relative to `cwd`). */
function formatDiagnostic(ts: typeof import("typescript"), d: import("typescript").Diagnostic, cwd: string): string {
  const message = `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n  ")}`;
  if (!d.file || d.start === undefined) return message;
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return `${relative(cwd, d.file.fileName) || d.file.fileName}:${line + 1}:${character + 1}: ${message}`;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Hash of a file's content, or undefined when it cannot be read. */
function hashOf(file: string): string | undefined {
  try {
    return createHash("sha256").update(readFileSync(file)).digest("hex");
  } catch {
    return undefined;
  }
}

function readCache(file: string): CacheEntry | undefined {
  try {
    const entry = JSON.parse(readFileSync(file, "utf8")) as CacheEntry;
    return typeof entry.key === "string" && entry.files && typeof entry.files === "object" ? entry : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the cache entry (to a temporary name, renamed into place); a folder Weir may not write in just means no cache. */
function writeCache(file: string, entry: CacheEntry): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(entry));
    renameSync(tmp, file);
  } catch {
    // no cache: the next run checks again
  }
}
