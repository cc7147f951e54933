/**
 * Tab completion of the SQL client: SQL keywords, the session's table and
 * view names, and the configuration keys `SET` knows.
 */

/** Keywords offered by completion (Flink's statements and the common clauses). */
const KEYWORDS = [
  "SELECT", "FROM", "WHERE", "GROUP", "BY", "HAVING", "ORDER", "LIMIT", "OFFSET", "UNION", "ALL", "DISTINCT", "AS", "ON",
  "JOIN", "LEFT", "RIGHT", "FULL", "INNER", "OUTER", "CROSS", "LATERAL", "TABLE", "VIEW", "FUNCTION", "TEMPORARY",
  "CREATE", "DROP", "IF", "NOT", "EXISTS", "INSERT", "INTO", "VALUES", "WITH", "WATERMARK", "FOR", "INTERVAL",
  "PRIMARY", "KEY", "ENFORCED", "EXECUTE", "STATEMENT", "SET", "RESET", "SHOW", "TABLES", "VIEWS", "FUNCTIONS",
  "JOBS", "STOP", "JOB", "SAVEPOINT", "DESCRIBE", "EXPLAIN", "CHANGELOG_MODE", "BEGIN", "END", "CASE", "WHEN",
  "THEN", "ELSE", "AND", "OR", "IS", "NULL", "IN", "BETWEEN", "LIKE", "CAST", "TUMBLE", "HOP", "CUMULATE",
  "SESSION", "DESCRIPTOR", "OVER", "PARTITION", "ROWS", "RANGE", "PRECEDING", "FOLLOWING", "CURRENT", "ROW",
  "COUNT", "SUM", "AVG", "MIN", "MAX", "STRING", "INT", "BIGINT", "DOUBLE", "BOOLEAN", "DECIMAL", "TIMESTAMP",
  "TIMESTAMP_LTZ", "DATE", "TIME", "ARRAY", "MAP", "PROCTIME", "HELP", "QUIT", "EXIT", "CLEAR",
];

/**
 * A readline completer: the candidates for the word before the cursor.
 * Keywords complete in the case the word was typed in.
 *
 * @example
 * ```ts
 * const complete = sqlCompleter(() => ["clicks"], () => ["pipeline.name"]);
 * complete("SELECT * FROM cl"); // [["clicks"], "cl"]
 * ```
 */
export function sqlCompleter(tables: () => readonly string[], keys: () => readonly string[]): (line: string) => [string[], string] {
  return (line) => {
    const inQuote = /'([^']*)$/.exec(line);
    if (inQuote && /\bSET\s+'[^']*$/i.test(line)) {
      const word = inQuote[1]!;
      return [keys().filter((k) => k.startsWith(word)), word];
    }
    const word = /[\w.$`]*$/.exec(line)![0];
    if (word === "") return [[], word];
    const lower = word === word.toLowerCase();
    const upper = word.toUpperCase();
    const keywords = KEYWORDS.filter((k) => k.startsWith(upper)).map((k) => (lower ? k.toLowerCase() : k));
    const names = tables().filter((t) => t.toLowerCase().startsWith(word.toLowerCase()));
    return [[...new Set([...names, ...keywords])].sort(), word];
  };
}
