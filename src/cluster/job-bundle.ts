/**
 * The job bundle of `weir run -m host:port job.ts`: the job module and
 * everything it imports, TypeScript compiled, as one ES module, so that a
 * cluster can ship it to its task managers (as Flink ships a job's jar through
 * its blob server). Weir itself stays outside: the bundle imports `weirjs`
 * (and Node's built-in modules) by name, and the process that loads it
 * supplies its own Weir; an import of Weir's entry file by path (the
 * repository's own jobs import `src/index.ts`) becomes `weirjs` too. Other
 * packages the job imports are bundled in, as in a fat jar.
 *
 * `import.meta.url` (and `import.meta.filename` / `dirname`) of every bundled
 * module keeps the URL of its source file on the submitting machine: a job
 * that reads a file next to itself reads that path on the task managers too
 * (a shared file system, or the same path on each host).
 *
 * esbuild compiles and bundles. It is not a dependency of Weir: it comes with
 * tsx (an optional peer dependency, which TypeScript jobs need anyway) and is
 * resolved when a job is bundled.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, extname, join, relative, resolve as resolvePath } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type * as Esbuild from "esbuild";
import { OWN_PACKAGE_JSON, OWN_ROOT } from "../util/own-files.ts";

/** A bundled job: its code, the sha256 of the code (its content address), and the name to upload it as. */
export interface JobBundle {
  /** The ES module, UTF-8. */
  readonly code: Uint8Array;
  /** sha256 of `code`, 64 hex digits. */
  readonly sha256: string;
  /** `<job file's name>.mjs`: the `x-weir-filename` of the upload. */
  readonly filename: string;
  /** Absolute paths of the job's own files in the bundle (not under `node_modules`), the job file first. */
  readonly files: readonly string[];
}

/** The job did not bundle; `errors` are located, one per line: `job.ts:3:18: Expected ";" but found "x"`. */
export class JobBundleError extends Error {
  override name = "JobBundleError";
  constructor(
    readonly jobFile: string,
    readonly errors: readonly string[],
  ) {
    super(`${errors.join("\n")}\n${relativeToCwd(jobFile)} did not bundle (${errors.length} error${errors.length === 1 ? "" : "s"}): nothing was submitted`);
  }
}

/** esbuild could not be found: neither beside Weir nor through the tsx of the job's project. */
export class EsbuildMissingError extends Error {
  override name = "EsbuildMissingError";
}

/** How esbuild is imported: `import(specifier)` from Weir's own location, or a file URL. A seam for tests. */
export type ModuleImporter = (specifier: string) => Promise<unknown>;

/** Loaders of the files the bundle compiles, by extension. */
const LOADERS: Readonly<Record<string, Esbuild.Loader>> = { ".ts": "ts", ".mts": "ts", ".cts": "ts", ".tsx": "tsx", ".js": "js", ".mjs": "js", ".cjs": "js", ".jsx": "jsx" };

/** Names the bundle replaces `import.meta.*` with: module-level variables that each module that uses them declares (esbuild renames them apart). */
const META = { url: "__weirImportMetaUrl", filename: "__weirImportMetaFilename", dirname: "__weirImportMetaDirname" } as const;

/** Weir's package folder (beside its package.json). */
const OWN_PACKAGE = new URL("./", OWN_PACKAGE_JSON);

/** Weir's folders of code: its own (`src/` or `dist/`), and `src/` (a repository's test bundle runs from elsewhere). */
const OWN_FOLDERS = [fileURLToPath(OWN_ROOT), fileURLToPath(new URL("src/", OWN_PACKAGE))];

/** Weir's public entry file (`src/index.ts` from source, `dist/index.js` compiled): imported by path, it is `weirjs`. */
const OWN_ENTRIES = new Set([...OWN_FOLDERS.flatMap((f) => [join(f, "index.ts"), join(f, "index.js")])]);

/**
 * Bundles `jobFile` (absolute) and its imports into one ES module.
 *
 * @throws {JobBundleError} when esbuild reports errors (each located as `file:line:column: text`)
 * @throws {EsbuildMissingError} when esbuild cannot be found (install tsx)
 * @example
 * ```ts
 * const bundle = await bundleJob(resolve("job.ts"));
 * console.log(bundle.filename, bundle.sha256, bundle.code.length); // job.mjs 3f2a… 1834
 * ```
 */
export async function bundleJob(jobFile: string, importer: ModuleImporter = (s) => import(s)): Promise<JobBundle> {
  const esbuild = await loadEsbuild(jobFile, importer);
  const shifted = new Map<string, number>();
  let result: Esbuild.BuildResult<{ write: false; metafile: true }>;
  try {
    result = await esbuild.build({
      entryPoints: [jobFile],
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      write: false,
      metafile: true,
      // stack traces of the job on the task managers name its source files
      sourcemap: "inline",
      sourcesContent: false,
      absWorkingDir: "/",
      sourceRoot: "file:///",
      external: ["weirjs", "weirjs/*"],
      define: { "import.meta.url": META.url, "import.meta.filename": META.filename, "import.meta.dirname": META.dirname },
      // a CommonJS package bundled into an ES module may call require() of a built-in module
      banner: { js: 'import { createRequire as __weirCreateRequire } from "node:module"; const require = __weirCreateRequire(import.meta.url);' },
      logLevel: "silent",
      plugins: [weirAsPackage(), sourceImportMeta(shifted)],
    });
  } catch (e) {
    const failure = e as { errors?: Esbuild.Message[] };
    if (!Array.isArray(failure.errors)) throw e;
    throw new JobBundleError(jobFile, failure.errors.map((m) => locatedMessage(m, shifted)));
  }
  const code = result.outputFiles[0]!.contents;
  const files = Object.keys(result.metafile.inputs)
    .map((p) => resolvePath("/", p))
    .filter((p) => !/[\\/]node_modules[\\/]/.test(p));
  return {
    code,
    sha256: createHash("sha256").update(code).digest("hex"),
    filename: `${basename(jobFile, extname(jobFile))}.mjs`,
    files: [jobFile, ...files.filter((f) => f !== jobFile)],
  };
}

/**
 * esbuild's JS API: beside Weir (a development install, or a project that has it), else through the tsx that
 * the job's project installed (esbuild is a dependency of tsx).
 */
async function loadEsbuild(jobFile: string, importer: ModuleImporter): Promise<typeof Esbuild> {
  const attempts: string[] = [];
  try {
    return esbuildApi(await importer("esbuild"));
  } catch (e) {
    if (!isModuleNotFound(e)) throw e;
    attempts.push("beside weir");
  }
  try {
    const tsxPackage = createRequire(join(dirname(jobFile), "noop.js")).resolve("tsx/package.json");
    return esbuildApi(await importer(pathToFileURL(createRequire(tsxPackage).resolve("esbuild")).href));
  } catch (e) {
    if (!isModuleNotFound(e)) throw e;
    attempts.push(`through tsx in the project of ${relativeToCwd(jobFile)}`);
  }
  throw new EsbuildMissingError(
    `bundling a job for a cluster needs esbuild, which comes with tsx: install tsx in the job's project (npm i -D tsx); not found ${attempts.join(", nor ")}`,
  );
}

/** The module namespace of esbuild (ES, or CommonJS through `default`). */
function esbuildApi(ns: unknown): typeof Esbuild {
  const m = ns as typeof Esbuild & { default?: typeof Esbuild };
  return typeof m.build === "function" ? m : m.default!;
}

function isModuleNotFound(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

/** Imports of Weir's entry file by path stay outside the bundle as `weirjs`; Weir's other files may not be imported. */
function weirAsPackage(): Esbuild.Plugin {
  return {
    name: "weir-as-package",
    setup(build) {
      build.onResolve({ filter: /^(\.\.?\/|\/|file:)/ }, (args) => {
        const path = args.path.startsWith("file:") ? fileURLToPath(args.path) : resolvePath(args.resolveDir, args.path);
        if (OWN_ENTRIES.has(path)) return { path: "weirjs", external: true };
        if (OWN_FOLDERS.some((f) => path.startsWith(f)) && !path.includes("/node_modules/") && args.kind !== "entry-point") {
          return { errors: [{ text: `${args.path} is a module inside Weir: import Weir through its package, "weirjs"` }] };
        }
        return undefined;
      });
    },
  };
}

/**
 * Declares each module's `import.meta` values from its source file (see META), on its first line so that line
 * numbers stay; `shifted` gets how many characters that line moved right, by path.
 */
function sourceImportMeta(shifted: Map<string, number>): Esbuild.Plugin {
  return {
    name: "source-import-meta",
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
        const loader = LOADERS[extname(args.path)];
        if (loader === undefined || args.namespace !== "file") return undefined;
        const text = readFileSync(args.path, "utf8");
        if (!text.includes("import.meta")) return undefined;
        const declarations =
          `var ${META.url} = ${JSON.stringify(pathToFileURL(args.path).href)}, ` +
          `${META.filename} = ${JSON.stringify(args.path)}, ${META.dirname} = ${JSON.stringify(dirname(args.path))};`;
        // after a `#!` line, which must stay first
        const shebang = text.startsWith("#!") ? text.indexOf("\n") + 1 : 0;
        shifted.set(args.path, declarations.length);
        const contents = shebang > 0 ? text.slice(0, shebang) + declarations + text.slice(shebang) : declarations + text;
        return { contents, loader };
      });
    },
  };
}

/**
 * An esbuild message as `file:line:column: text` (column 1-based, as editors count; file relative to the working
 * directory), in the file as written (without the declarations of `sourceImportMeta`).
 */
function locatedMessage(m: Esbuild.Message, shifted: ReadonlyMap<string, number>): string {
  const l = m.location;
  if (!l) return m.text;
  const file = resolvePath("/", l.file);
  const shift = shifted.get(file);
  const onDeclarationsLine = shift !== undefined && l.line === (readFileSync(file, "utf8").startsWith("#!") ? 2 : 1);
  const column = onDeclarationsLine ? Math.max(0, l.column - shift) : l.column;
  return `${relativeToCwd(file)}:${l.line}:${column + 1}: ${m.text}`;
}

function relativeToCwd(path: string): string {
  return relative(process.cwd(), path) || path;
}
