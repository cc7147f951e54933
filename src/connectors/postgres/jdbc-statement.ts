/**
 * The SQL of a JDBC sink: JDBC's `?` placeholders become PostgreSQL's `$n` (`??` is a literal `?`, as in
 * pgjdbc, for jsonb's `?` operators), and a single-row `INSERT … VALUES (…) [ON CONFLICT …] [RETURNING …]`
 * is rewritten into multi-row statements (pgjdbc's `reWriteBatchedInserts`): one round trip for many rows.
 * Quotes, quoted identifiers, dollar-quoted strings and comments are never touched.
 */
import { JdbcConnectionOptionsError } from "./jdbc-connection-options.ts";

/** PostgreSQL's limit of parameters in one statement. */
export const MAX_PARAMETERS = 65_535;

/** A statement of a JDBC sink, ready to run. */
export interface JdbcStatement {
  /** The SQL with `$1…$n`. */
  readonly text: string;
  readonly parameterCount: number;
  /** How to write many rows in one statement, when the statement allows it. */
  readonly multiRow: MultiRowPlan | undefined;
  /** An `INSERT … ON CONFLICT … DO UPDATE`: a multi-row statement fails when two of its rows hit the same key. */
  readonly upsert: boolean;
}

/** A single-row INSERT cut around its row: `head` `VALUES` rows `tail`. */
export interface MultiRowPlan {
  readonly head: string;
  /** The row `( … )` with `$1…$n`, split at its parameters: `parts[i]` precedes parameter `params[i]`. */
  readonly parts: readonly string[];
  readonly params: readonly number[];
  readonly tail: string;
}

/**
 * `sql` with every quoted string, quoted identifier and comment blanked out (same length): a copy to search
 * for keywords and placeholders in.
 */
export function maskSql(sql: string): string {
  const out = sql.split("");
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (c === "-" && next === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end < 0 ? sql.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === "/" && next === "*") {
      let depth = 1;
      let j = i + 2;
      while (j < sql.length && depth > 0) {
        if (sql[j] === "/" && sql[j + 1] === "*") (depth++, (j += 2));
        else if (sql[j] === "*" && sql[j + 1] === "/") (depth--, (j += 2));
        else j++;
      }
      blank(i, j);
      i = j;
    } else if (c === "'" || c === '"') {
      const escapes = c === "'" && i > 0 && /[eE]/.test(sql[i - 1]!) && !/[A-Za-z0-9_]/.test(sql[i - 2] ?? " ");
      let j = i + 1;
      while (j < sql.length) {
        if (escapes && sql[j] === "\\") j += 2;
        else if (sql[j] === c && sql[j + 1] === c) j += 2;
        else if (sql[j] === c) break;
        else j++;
      }
      blank(i, Math.min(j + 1, sql.length));
      i = j + 1;
    } else if (c === "$" && !/[A-Za-z0-9_]/.test(sql[i - 1] ?? " ")) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i));
      if (tag === null) {
        i++;
        continue;
      }
      const end = sql.indexOf(tag[0], i + tag[0].length);
      const stop = end < 0 ? sql.length : end + tag[0].length;
      blank(i, stop);
      i = stop;
    } else i++;
  }
  return out.join("");
}

/**
 * Compiles a sink's SQL: `?` → `$1…$n` (or the SQL's own `$n` when it has no `?`), and the multi-row plan.
 *
 * @example
 * ```ts
 * const s = jdbcStatement("INSERT INTO t (id, name) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name");
 * s.text; // "INSERT INTO t (id, name) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name"
 * multiRowText(s, 2); // "… VALUES ($1, $2),($3, $4) ON CONFLICT …"
 * ```
 */
export function jdbcStatement(sql: string): JdbcStatement {
  const trimmed = sql.trim().replace(/;\s*$/, "");
  if (trimmed === "") throw new JdbcConnectionOptionsError("JdbcSink: the SQL statement is empty");
  const masked = maskSql(trimmed);
  let text = "";
  let count = 0;
  let maskedText = "";
  for (let i = 0; i < trimmed.length; i++) {
    if (masked[i] === "?" && masked[i + 1] === "?") {
      text += "?";
      maskedText += "?";
      i++;
    } else if (masked[i] === "?") {
      const p = `$${++count}`;
      text += p;
      maskedText += p;
    } else {
      text += trimmed[i];
      maskedText += masked[i];
    }
  }
  if (count === 0) for (const m of maskedText.matchAll(/\$(\d+)/g)) count = Math.max(count, Number(m[1]));
  const upsert = /^\s*INSERT\b[\s\S]*\bON\s+CONFLICT\b[\s\S]*\bDO\s+UPDATE\b/i.test(maskedText);
  return { text, parameterCount: count, multiRow: multiRowPlan(text, maskedText, count), upsert };
}

function multiRowPlan(text: string, masked: string, count: number): MultiRowPlan | undefined {
  if (count === 0 || !/^\s*INSERT\s+INTO\b/i.test(masked)) return undefined;
  const values = /\bVALUES\s*\(/i.exec(masked);
  if (values === null || /\bVALUES\b/i.test(masked.slice(values.index + 6))) return undefined;
  const open = values.index + values[0].length - 1;
  let depth = 0;
  let close = -1;
  for (let i = open; i < masked.length; i++) {
    if (masked[i] === "(") depth++;
    else if (masked[i] === ")" && --depth === 0) {
      close = i;
      break;
    }
  }
  if (close < 0 || /^\s*,/.test(masked.slice(close + 1))) return undefined;
  const params: number[] = [];
  const parts: string[] = [];
  let from = open;
  for (const m of masked.slice(open, close + 1).matchAll(/\$(\d+)/g)) {
    parts.push(text.slice(from, open + m.index));
    params.push(Number(m[1]));
    from = open + m.index + m[0].length;
  }
  parts.push(text.slice(from, close + 1));
  const outside = [...(masked.slice(0, open) + masked.slice(close + 1)).matchAll(/\$\d+/g)];
  if (outside.length > 0 || new Set(params).size !== count) return undefined;
  return { head: text.slice(0, values.index) + "VALUES ", parts, params, tail: text.slice(close + 1) };
}

/**
 * The statement for `rows` rows of the plan: row `r` uses parameters `r·n+1 … r·n+n`.
 */
export function multiRowText(statement: JdbcStatement, rows: number): string {
  const plan = statement.multiRow;
  if (plan === undefined) throw new Error("multiRowText: the statement has no multi-row form");
  const n = statement.parameterCount;
  const out: string[] = [];
  for (let r = 0; r < rows; r++) {
    let row = plan.parts[0]!;
    for (let i = 0; i < plan.params.length; i++) row += `$${plan.params[i]! + r * n}` + plan.parts[i + 1]!;
    out.push(row);
  }
  return plan.head + out.join(",") + plan.tail;
}

/** Rows per multi-row statement: as many as PostgreSQL's parameter limit allows, at most `batchSize`. */
export function rowsPerStatement(statement: JdbcStatement, batchSize: number): number {
  if (statement.multiRow === undefined) return 1;
  return Math.max(1, Math.min(batchSize, Math.floor(MAX_PARAMETERS / statement.parameterCount)));
}
