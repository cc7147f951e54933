/**
 * The code blocks of the documentation as modules to type-check and run: ```ts,
 * ```typescript and ```js blocks of Markdown files, and the TSDoc `@example`
 * blocks of `src/` that import from "weirjs". HTML comments right above a
 * block's fence are its markers (docs/architecture.md, "Code in the docs"):
 * `<!-- continues -->` appends the block to the previous checked block of the
 * same file, `<!-- fragment: reason -->` leaves it unchecked, `<!-- run -->`
 * also runs the module.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";

/** A fenced code block of a checked language. */
export interface DocBlock {
  /** Path relative to the repository root. */
  readonly file: string;
  /** 1-based line, in `file`, of the block's first code line. */
  readonly line: number;
  readonly lang: "ts" | "js";
  readonly code: string;
  readonly continues: boolean;
  readonly run: boolean;
  /** Why the block is not checked (`<!-- fragment: reason -->`). */
  readonly fragment?: string;
}

/** One or more blocks checked (and maybe run) as one module. */
export interface DocModule {
  /** `file:line` of its first block: the module's name in messages. */
  readonly name: string;
  readonly lang: "ts" | "js";
  readonly code: string;
  readonly run: boolean;
  /** The blocks in order, with the 0-based line of the module each starts at. */
  readonly parts: readonly { readonly block: DocBlock; readonly moduleLine: number }[];
}

const CHECKED: Record<string, "ts" | "js"> = { ts: "ts", typescript: "ts", js: "js", javascript: "js" };
const MARKER = /^<!--\s*(.*?)\s*-->$/;
const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/;

/** The checked-language blocks of a Markdown text; throws on a malformed or misplaced marker. */
export function markdownBlocks(file: string, text: string): DocBlock[] {
  const lines = text.split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const close = new RegExp(`^\\s*\\${fence![0]}{${fence!.length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !close.test(lines[end]!)) end++;
    const markers = markersAbove(lines, i);
    const lang = CHECKED[info!.toLowerCase()];
    if (lang === undefined) {
      if (markers.length > 0) throw new Error(`${file}:${i + 1}: markers ${markers.join(", ")} on a block that is not checked (\`\`\`${info})`);
    } else {
      const code = lines.slice(i + 1, end).map((l) => (l.startsWith(indent!) ? l.slice(indent!.length) : l)).join("\n");
      blocks.push(block(file, i + 2, lang, code, markers));
    }
    i = end;
  }
  return blocks;
}

/** The consecutive HTML comments directly above line `fence` (blank lines between them allowed). */
function markersAbove(lines: readonly string[], fence: number): string[] {
  const markers: string[] = [];
  for (let j = fence - 1; j >= 0; j--) {
    const l = lines[j]!.trim();
    if (l === "") continue;
    const m = MARKER.exec(l);
    if (!m) break;
    markers.unshift(m[1]!);
  }
  return markers;
}

function block(file: string, line: number, lang: "ts" | "js", code: string, markers: readonly string[]): DocBlock {
  let continues = false;
  let run = false;
  let fragment: string | undefined;
  for (const m of markers) {
    if (m === "continues") continues = true;
    else if (m === "run") run = true;
    else if (m.startsWith("fragment")) {
      fragment = /^fragment:\s*(\S.*)$/.exec(m)?.[1];
      if (fragment === undefined) throw new Error(`${file}:${line - 1}: <!-- fragment --> needs a reason: <!-- fragment: why it cannot be a module -->`);
    } else throw new Error(`${file}:${line - 1}: unknown marker <!-- ${m} --> (known: continues, run, fragment: reason)`);
  }
  if (fragment !== undefined && (continues || run)) throw new Error(`${file}:${line - 1}: a fragment is not checked, so it cannot continue or run`);
  return { file, line, lang, code, continues, run, fragment };
}

/**
 * The TSDoc `@example` blocks of a source file that are complete modules (they
 * import from "weirjs"); the others show a call in context and are not checked.
 */
export function tsdocExamples(file: string, text: string): DocBlock[] {
  const lines = text.split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*\*\s*@example\s*$/.test(lines[i]!) || !/^\s*\*\s*```(ts|typescript)\s*$/.test(lines[i + 1] ?? "")) continue;
    let end = i + 2;
    while (end < lines.length && !/^\s*\*\s*```\s*$/.test(lines[end]!)) end++;
    const code = lines.slice(i + 2, end).map((l) => l.replace(/^\s*\* ?/, "")).join("\n");
    if (/from "weirjs"/.test(code)) blocks.push(block(file, i + 3, "ts", code, []));
    i = end;
  }
  return blocks;
}

/** Reads the Markdown files (absolute paths) and returns their blocks, with paths relative to `root`. */
export function readMarkdownBlocks(root: string, files: readonly string[]): DocBlock[] {
  return files.flatMap((f) => markdownBlocks(relative(root, f), readFileSync(f, "utf8")));
}

/** Groups checked blocks into modules (a continuation joins the previous checked block of its file). */
export function docModules(blocks: readonly DocBlock[]): DocModule[] {
  const modules: { name: string; lang: "ts" | "js"; run: boolean; parts: { block: DocBlock; moduleLine: number }[]; lines: number }[] = [];
  for (const b of blocks) {
    if (b.fragment !== undefined) continue;
    const last = modules.at(-1);
    if (b.continues) {
      if (!last || last.parts[0]!.block.file !== b.file) throw new Error(`${b.file}:${b.line - 1}: <!-- continues --> without a previous checked block in the file`);
      if (last.lang !== b.lang) throw new Error(`${b.file}:${b.line - 1}: <!-- continues --> joins a ${b.lang} block to a ${last.lang} block`);
      last.parts.push({ block: b, moduleLine: last.lines });
      last.lines += b.code.split("\n").length;
      last.run ||= b.run;
    } else {
      modules.push({ name: `${b.file}:${b.line}`, lang: b.lang, run: b.run, parts: [{ block: b, moduleLine: 0 }], lines: b.code.split("\n").length });
    }
  }
  return modules.map((m) => ({ name: m.name, lang: m.lang, run: m.run, parts: m.parts, code: m.parts.map((p) => p.block.code).join("\n") }));
}

/** `file:line` of a 0-based line of a module's code. */
export function sourceLine(module: DocModule, moduleLine: number): string {
  let part = module.parts[0]!;
  for (const p of module.parts) if (p.moduleLine <= moduleLine) part = p;
  return `${part.block.file}:${part.block.line + moduleLine - part.moduleLine}`;
}
