/**
 * A JDBC sink's batch: records become rows of statement parameters as they arrive (so the record may be
 * changed afterwards by nobody's business), and a full batch becomes a list of statements run in one round
 * trip each — multi-row where the statement allows it. `JdbcStatementBatch` is the sink of a user's SQL;
 * the SQL upsert sink has its own batch (jdbc-table-sink.ts) reduced by key.
 */
import { createHash } from "node:crypto";
import { multiRowText, rowsPerStatement, type JdbcStatement } from "./jdbc-statement.ts";
import { errorCode } from "./postgres-errors.ts";

/** A statement with its parameters (`name`: prepared once per connection under this name). */
export interface JdbcQuery {
  text: string;
  values?: unknown[];
  name?: string;
}

/**
 * What a batch needs of a connection: the `pg` client's `query` (typed here, so that the public types of
 * the sink do not reach the client's).
 */
export interface JdbcQueryClient {
  query(query: string | JdbcQuery, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** One statement with its parameters; `fallback` runs instead when a multi-row upsert hits one key twice. */
export interface JdbcStep {
  readonly query: JdbcQuery;
  readonly fallback?: readonly JdbcQuery[];
}

/** Rows taken out of a batch: the statements that write them (may run more than once: retries). */
export interface JdbcWork {
  readonly rows: number;
  readonly steps: readonly JdbcStep[];
}

/** The rows waiting in one subtask of a sink. */
export interface JdbcBatch<T> {
  /** Adds a record (synchronous; a record that cannot be written throws). */
  add(value: T): void;
  /** Rows waiting (after any reduction). */
  readonly size: number;
  /** Takes every waiting row out. */
  take(): JdbcWork;
  /** Takes every waiting row out as plain data (kept in a checkpoint), for {@link putBack}. */
  takePending(): unknown[];
  /** Adds rows taken by {@link takePending} (before any newer row). */
  putBack(pending: readonly unknown[]): void;
  /** The statements as text, for messages. */
  describe(): string;
  /** Checks the statements against the server before the first row (unknown table or column). */
  check(client: JdbcQueryClient): Promise<void>;
}

/**
 * Runs `steps` on `client`. Outside a transaction, more than one step run in one (`BEGIN … COMMIT`), so a
 * batch is written whole or not at all and a retry writes nothing twice. A step with a fallback runs in a
 * savepoint inside a transaction: when its multi-row upsert touches a key twice (SQLSTATE 21000), its
 * rows run one statement each instead.
 */
export async function runSteps(client: JdbcQueryClient, steps: readonly JdbcStep[], inTransaction: boolean): Promise<void> {
  const wrap = !inTransaction && steps.length > 1;
  if (wrap) await client.query("BEGIN");
  try {
    for (const step of steps) await runStep(client, step, inTransaction || wrap);
    if (wrap) await client.query("COMMIT");
  } catch (e) {
    if (wrap) await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  }
}

async function runStep(client: JdbcQueryClient, step: JdbcStep, inTransaction: boolean): Promise<void> {
  if (step.fallback === undefined) {
    await client.query(step.query);
    return;
  }
  if (inTransaction) await client.query("SAVEPOINT weir_batch");
  try {
    await client.query(step.query);
  } catch (e) {
    if (errorCode(e) !== "21000") throw e;
    if (inTransaction) await client.query("ROLLBACK TO SAVEPOINT weir_batch");
    for (const q of step.fallback) await client.query(q);
  }
  if (inTransaction) await client.query("RELEASE SAVEPOINT weir_batch");
}

/** Checks a statement by `PREPARE` (parsed and analysed, never run), then forgets it. */
export async function checkStatement(client: JdbcQueryClient, text: string): Promise<void> {
  await client.query(`PREPARE weir_sink_check AS ${text}`);
  await client.query("DEALLOCATE weir_sink_check");
}

/**
 * The steps writing `rows` (each `statement.parameterCount` parameters) with `statement`: multi-row
 * statements of up to `rowsPerStatement` rows where possible, else one per row. Full multi-row statements
 * and the single-row one are named (prepared once per connection).
 */
export function statementSteps(statement: JdbcStatement, rows: readonly unknown[][], batchSize: number, upsertFallback: boolean): JdbcStep[] {
  const name = `weir_${createHash("sha1").update(statement.text).digest("hex").slice(0, 16)}`;
  const single = (values: unknown[]): JdbcQuery => ({ name: `${name}_1`, text: statement.text, values });
  if (statement.multiRow === undefined) return rows.map((values) => ({ query: single(values) }));
  const per = rowsPerStatement(statement, batchSize);
  const steps: JdbcStep[] = [];
  for (let i = 0; i < rows.length; i += per) {
    const chunk = rows.slice(i, i + per);
    if (chunk.length === 1) {
      steps.push({ query: single(chunk[0]!) });
      continue;
    }
    const query: JdbcQuery = { text: multiRowText(statement, chunk.length), values: chunk.flat() };
    if (chunk.length === per) query.name = `${name}_${per}`;
    steps.push(upsertFallback && statement.upsert ? { query, fallback: chunk.map(single) } : { query });
  }
  return steps;
}

/** The batch of a sink with the user's SQL: one row of parameters per record, in arrival order. */
export class JdbcStatementBatch<T> implements JdbcBatch<T> {
  private rows: unknown[][] = [];

  constructor(
    private readonly statement: JdbcStatement,
    private readonly parameters: (value: T) => unknown[],
    private readonly batchSize: number,
  ) {}

  add(value: T): void {
    this.rows.push(this.parameters(value));
  }

  get size(): number {
    return this.rows.length;
  }

  take(): JdbcWork {
    const rows = this.rows;
    this.rows = [];
    return { rows: rows.length, steps: statementSteps(this.statement, rows, this.batchSize, true) };
  }

  takePending(): unknown[] {
    const rows = this.rows;
    this.rows = [];
    return rows;
  }

  putBack(pending: readonly unknown[]): void {
    this.rows.push(...(pending as unknown[][]));
  }

  describe(): string {
    return this.statement.text;
  }

  check(client: JdbcQueryClient): Promise<void> {
    return checkStatement(client, this.statement.text);
  }
}
