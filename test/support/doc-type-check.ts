/**
 * Type-checks documentation modules with the TypeScript compiler API, as a
 * user's project would: the repository's compiler options (strict, NodeNext),
 * every module an ES module in this package, and "weirjs" resolved to this
 * repository's `src/index.ts`. The modules live in memory only.
 */
import { join } from "node:path";
import ts from "typescript";
import { sourceLine, type DocModule } from "./doc-code-blocks.ts";

/** A compiler error in a documentation block. */
export interface DocDiagnostic {
  /** `file:line` in the documentation. */
  readonly at: string;
  readonly message: string;
}

/** Options of the repository's tsconfig that only concern emitted files. */
const EMIT_ONLY = ["outDir", "rootDir", "declaration", "declarationMap", "sourceMap", "composite", "incremental", "tsBuildInfoFile"] as const;

/** Type-checks all `modules` in one program; returns their errors (none of `src/`'s own). */
export function typeCheckDocModules(root: string, modules: readonly DocModule[]): DocDiagnostic[] {
  const virtualDir = join(root, ".doc-code");
  const byPath = new Map(modules.map((m, i) => [join(virtualDir, `block-${i}.${m.lang === "ts" ? "ts" : "mjs"}`), m]));
  const options: ts.CompilerOptions = {
    ...repositoryOptions(root),
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
    noUnusedLocals: false, // an example may declare something only to show it
    moduleDetection: ts.ModuleDetectionKind.Force,
    allowJs: true,
    checkJs: true,
    paths: { weirjs: [join(root, "src/index.ts")] },
  };
  for (const emitOnly of EMIT_ONLY) delete options[emitOnly];
  const host = ts.createCompilerHost(options, true);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (f) => byPath.has(f) || fileExists(f);
  host.readFile = (f) => byPath.get(f)?.code ?? readFile(f);
  // The options carry the module format (ESM here, from package.json "type") that NodeNext implies for the file.
  host.getSourceFile = (f, versionAndFormat, onError, shouldCreate) => {
    const m = byPath.get(f);
    return m ? ts.createSourceFile(f, m.code, versionAndFormat, true) : getSourceFile(f, versionAndFormat, onError, shouldCreate);
  };
  const program = ts.createProgram([...byPath.keys()], options, host);
  const found: DocDiagnostic[] = [];
  for (const d of [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]) {
    found.push({ at: "(compiler options)", message: ts.flattenDiagnosticMessageText(d.messageText, "\n") });
  }
  for (const [path, module] of byPath) {
    const file = program.getSourceFile(path)!;
    for (const d of [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]) {
      const line = d.start === undefined ? 0 : file.getLineAndCharacterOfPosition(d.start).line;
      found.push({ at: sourceLine(module, line), message: `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}` });
    }
  }
  return found;
}

/** The compiler options of the repository's tsconfig.json. */
function repositoryOptions(root: string): ts.CompilerOptions {
  const path = join(root, "tsconfig.json");
  const config = ts.readConfigFile(path, ts.sys.readFile);
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, "\n"));
  return ts.parseJsonConfigFileContent(config.config, ts.sys, root, undefined, path).options;
}
