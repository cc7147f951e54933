/**
 * Flink's client-side statement set: after `BEGIN STATEMENT SET;` the
 * client collects INSERT statements (each checked when it is added) until
 * `END;`, which runs them as one job, as `EXECUTE STATEMENT SET` does.
 */
import type { StreamTableEnvironment } from "../table/api/table-environment.ts";
import { parseStatement } from "../table/sql/parser.ts";
import { SqlValidationError } from "../table/validation/sql-validation-error.ts";

/**
 * @example
 * ```ts
 * const set = new PendingStatementSet();
 * set.add(tEnv, "INSERT INTO a SELECT * FROM clicks");
 * set.add(tEnv, "INSERT INTO b SELECT * FROM clicks");
 * tEnv.executeSql(set.sql()); // one job
 * ```
 */
export class PendingStatementSet {
  private readonly inserts: string[] = [];

  /**
   * Adds an INSERT, planned now so that a mistake is reported at its statement.
   *
   * @throws SqlParseError | SqlValidationError when `text` is not a valid INSERT.
   */
  add(tEnv: StreamTableEnvironment, text: string): void {
    const stmt = parseStatement(text);
    if (stmt.kind !== "insert") throw new SqlValidationError(`Only INSERT statements can be added to a statement set, not ${stmt.kind.toUpperCase()}; END; runs the set`, stmt.loc);
    tEnv.explainSql(text);
    this.inserts.push(text);
  }

  /** Whether no INSERT was added. */
  isEmpty(): boolean {
    return this.inserts.length === 0;
  }

  /** The `EXECUTE STATEMENT SET` of the INSERTs added. */
  sql(): string {
    return `EXECUTE STATEMENT SET BEGIN\n${this.inserts.map((i) => `${i};`).join("\n")}\nEND`;
  }
}
