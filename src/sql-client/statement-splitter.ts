/**
 * Splits SQL text into statements at each `;` outside string literals,
 * quoted identifiers and comments, as the SQL client reads its input: the
 * REPL to know when a statement is complete, a script to run statement by
 * statement with each statement's place in the file.
 */

/** A statement of a script, without its `;`, with where it starts in the script. */
export interface ScriptStatement {
  /** The text from its first character (after blanks and comments) up to (not including) its `;`. */
  readonly text: string;
  /** 0-based offset of `text` in the script. */
  readonly offset: number;
  /** 1-based line of `text`'s first character in the script. */
  readonly line: number;
  /** 1-based column of `text`'s first character in the script. */
  readonly column: number;
}

/** The complete statements of `sql` and what follows the last `;`. */
export interface SplitResult {
  readonly statements: ScriptStatement[];
  /** The text after the last `;`: an unfinished statement, or only blanks and comments. */
  readonly rest: ScriptStatement;
  /** Whether `rest` holds more than blanks and comments. */
  readonly restHasContent: boolean;
}

/**
 * Splits `sql` at `;` outside quotes (`'…'`, `"…"`, `` `…` ``) and comments
 * (`-- …`, `/* … *\/`), and outside `EXECUTE STATEMENT SET BEGIN … END`;
 * statements of blanks and comments only are dropped.
 *
 * @example
 * ```ts
 * const { statements, restHasContent } = splitStatements("SET 'a' = 'b;c';\nSELECT 1;\nSELECT");
 * statements.map((s) => s.text.trim()); // ["SET 'a' = 'b;c'", "SELECT 1"]
 * restHasContent; // true: "SELECT" waits for its ';'
 * ```
 */
export function splitStatements(sql: string): SplitResult {
  const statements: ScriptStatement[] = [];
  let start = 0;
  let startLine = 1;
  let startColumn = 1;
  let line = 1;
  let column = 1;
  let content = false;
  let i = 0;
  const markContent = () => {
    if (content) return;
    content = true;
    start = i;
    startLine = line;
    startColumn = column;
  };
  const advance = (n: number) => {
    for (let k = 0; k < n && i < sql.length; k++, i++) {
      if (sql[i] === "\n") {
        line++;
        column = 1;
      } else column++;
    }
  };
  while (i < sql.length) {
    const ch = sql[i]!;
    if (ch === "-" && sql[i + 1] === "-") {
      while (i < sql.length && sql[i] !== "\n") advance(1);
    } else if (ch === "/" && sql[i + 1] === "*") {
      advance(2);
      while (i < sql.length && !(sql[i] === "*" && sql[i + 1] === "/")) advance(1);
      advance(2);
    } else if (ch === "'" || ch === '"' || ch === "`") {
      markContent();
      advance(1);
      for (;;) {
        if (i >= sql.length) break;
        if (sql[i] === ch) {
          if (sql[i + 1] === ch) advance(2); // a doubled quote is the quote itself
          else {
            advance(1);
            break;
          }
        } else advance(1);
      }
    } else if (ch === ";" && content && insideStatementSet(sql.slice(start, i))) {
      advance(1); // a ';' between the INSERTs of EXECUTE STATEMENT SET BEGIN … END
    } else if (ch === ";") {
      if (content) statements.push({ text: sql.slice(start, i), offset: start, line: startLine, column: startColumn });
      advance(1);
      start = i;
      startLine = line;
      startColumn = column;
      content = false;
    } else {
      if (!/\s/.test(ch)) markContent();
      advance(1);
    }
  }
  return { statements, rest: { text: sql.slice(start), offset: start, line: startLine, column: startColumn }, restHasContent: content };
}

/** Whether `text` (a statement up to a `;`) is an `EXECUTE STATEMENT SET` whose `END` has not come yet. */
function insideStatementSet(text: string): boolean {
  return /^EXECUTE\s+STATEMENT\s+SET\b/i.test(text) && !/\bEND\s*$/i.test(stripComments(text));
}

/** `text` without `--` and block comments at its end (a statement set's `END -- done`). */
function stripComments(text: string): string {
  return text.replace(/--[^\n]*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, "").trimEnd();
}
