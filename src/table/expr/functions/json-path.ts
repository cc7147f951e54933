/**
 * SQL/JSON path expressions as JSON_VALUE and JSON_EXISTS read them:
 * `[lax|strict] $` followed by `.name`, `."quoted name"`, `['name']` (also
 * written `.['name']`), `[n]` (0-based), `[*]` and `.*`. Lax mode (the default) unwraps an array when a
 * member is asked of it and turns a missing member into an empty result;
 * strict mode makes those errors.
 */

/** One step of a path. */
type Step = { kind: "member"; name: string } | { kind: "index"; index: number } | { kind: "anyIndex" } | { kind: "anyMember" };

/** A compiled path. */
export interface JsonPath {
  strict: boolean;
  steps: Step[];
  /** Whether the path can select more than one item (a wildcard). */
  wildcard: boolean;
}

/** A path that does not parse, or a strict-mode structural error. */
export class JsonPathError extends Error {}

/**
 * Parses a path.
 *
 * @throws JsonPathError
 * @example
 * ```ts
 * parseJsonPath("$.a.b[0]").steps.length; // 3
 * ```
 */
export function parseJsonPath(text: string): JsonPath {
  let s = text.trim();
  let strict = false;
  const mode = /^(lax|strict)\s+/i.exec(s);
  if (mode !== null) {
    strict = mode[1]!.toLowerCase() === "strict";
    s = s.slice(mode[0].length);
  }
  if (s[0] !== "$") throw new JsonPathError(`Illegal JSON path '${text}': it must start with '$'`);
  const steps: Step[] = [];
  let i = 1;
  const fail = (): never => { throw new JsonPathError(`Illegal JSON path '${text}' at position ${i + text.length - s.length}`); };
  while (i < s.length) {
    if (s[i] === ".") {
      i++;
      if (s[i] === "[") continue; // `$.['a b']` as Flink's documentation writes it
      if (s[i] === "*") { steps.push({ kind: "anyMember" }); i++; continue; }
      if (s[i] === '"') {
        const end = s.indexOf('"', i + 1);
        if (end < 0) fail();
        steps.push({ kind: "member", name: s.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
      const m = /^[A-Za-z_$][\w$]*/.exec(s.slice(i));
      if (m === null) fail();
      steps.push({ kind: "member", name: m![0] });
      i += m![0].length;
    } else if (s[i] === "[") {
      const m = /^\[\s*(?:(\*)|(\d+)|'([^']*)'|"([^"]*)")\s*\]/.exec(s.slice(i));
      if (m === null) fail();
      if (m![1] !== undefined) steps.push({ kind: "anyIndex" });
      else if (m![2] !== undefined) steps.push({ kind: "index", index: Number(m![2]) });
      else steps.push({ kind: "member", name: m![3] ?? m![4]! });
      i += m![0].length;
    } else if (/\s/.test(s[i]!)) {
      i++;
    } else {
      fail();
    }
  }
  return { strict, steps, wildcard: steps.some((x) => x.kind === "anyIndex" || x.kind === "anyMember") };
}

/**
 * The items `path` selects in a parsed JSON document.
 *
 * @throws JsonPathError in strict mode when a step does not apply
 */
export function evaluateJsonPath(path: JsonPath, doc: unknown): unknown[] {
  let items: unknown[] = [doc];
  for (const step of path.steps) {
    const next: unknown[] = [];
    for (const item of items) {
      const isArray = Array.isArray(item);
      switch (step.kind) {
        case "member":
        case "anyMember": {
          const targets = isArray && !path.strict ? (item as unknown[]) : [item];
          for (const t of targets) {
            if (typeof t !== "object" || t === null || Array.isArray(t)) {
              if (path.strict) throw new JsonPathError("member access on a value that is not an object");
              continue;
            }
            const o = t as Record<string, unknown>;
            if (step.kind === "anyMember") next.push(...Object.values(o));
            else if (Object.hasOwn(o, step.name)) next.push(o[step.name]);
            else if (path.strict) throw new JsonPathError(`no member '${step.name}'`);
          }
          break;
        }
        case "index":
        case "anyIndex": {
          if (!isArray) {
            if (path.strict) throw new JsonPathError("array access on a value that is not an array");
            if (step.kind === "anyIndex" || step.index === 0) next.push(item);
            break;
          }
          const arr = item as unknown[];
          if (step.kind === "anyIndex") next.push(...arr);
          else if (step.index < arr.length) next.push(arr[step.index]);
          else if (path.strict) throw new JsonPathError(`array index ${step.index} out of bounds`);
          break;
        }
      }
    }
    items = next;
  }
  return items;
}
