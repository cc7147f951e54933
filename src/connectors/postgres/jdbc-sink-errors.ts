/**
 * Errors of the JDBC sink: a statement PostgreSQL refused (naming the sink, the statement, the server's
 * SQLSTATE and what to check), a prepared transaction that was lost, and two-phase commit switched off.
 */
import { errorCode } from "./postgres-errors.ts";

/** What a SQLSTATE usually means for a sink's statement. */
function advice(code: string | undefined): string {
  switch (code) {
    case "42P01":
      return "the table does not exist: create it or fix the table name";
    case "42703":
      return "a column does not exist: check the column names";
    case "22P02":
    case "42804":
    case "22003":
    case "22001":
    case "22007":
    case "22008":
      return "a value does not fit its column's type: check the column types against the values written";
    case "23502":
      return "a NOT NULL column got NULL";
    case "23505":
      return "a row with this key exists: use INSERT … ON CONFLICT … DO UPDATE to upsert";
    case "42501":
      return "the user may not write this table: GRANT it";
    default:
      return "";
  }
}

/** A statement of a JDBC sink that PostgreSQL refused (not worth a retry), or retries that ran out. */
export class JdbcSinkError extends Error {
  /** The server's SQLSTATE, or the socket error's code. */
  readonly code: string | undefined;

  constructor(where: string, statement: string, cause: unknown, attempts = 1) {
    const code = errorCode(cause);
    const message = cause instanceof Error ? cause.message : String(cause);
    const hint = advice(code);
    const sql = statement.length > 300 ? `${statement.slice(0, 300)}…` : statement;
    super(
      `${where}: ${attempts > 1 ? `failed ${attempts} times, last: ` : ""}${message}${code === undefined ? "" : ` (SQLSTATE ${code})`}` +
        `${hint === "" ? "" : `; ${hint}`}\n  statement: ${sql}`,
      { cause },
    );
    this.name = "JdbcSinkError";
    this.code = code;
  }
}

/** PostgreSQL runs with `max_prepared_transactions = 0`: no two-phase commit, so no exactly-once sink. */
export class JdbcPreparedTransactionsDisabledError extends Error {
  constructor(where: string) {
    super(
      `${where}: the exactly-once JDBC sink needs prepared transactions, but the server has max_prepared_transactions = 0. ` +
        "Set max_prepared_transactions in postgresql.conf to at least the sink's parallelism times the checkpoints that may be pending at once " +
        "(e.g. 2 × parallelism + 2) and restart PostgreSQL, or use the at-least-once sink (JdbcSink.sink / 'sink.delivery-guarantee' = 'at-least-once')",
    );
    this.name = "JdbcPreparedTransactionsDisabledError";
  }
}

/**
 * A prepared transaction of a completed checkpoint is gone and PostgreSQL says it was rolled back (or cannot
 * say): its rows are lost. Someone ran `ROLLBACK PREPARED` on it, or another job with the same transaction
 * id prefix rolled it back as its own leftover.
 */
export class JdbcTransactionLostError extends Error {
  constructor(where: string, gid: string, xid: string, checkpointId: number, status: string | null) {
    super(
      `${where}: prepared transaction '${gid}' (xid ${xid}) of completed checkpoint ${checkpointId} no longer exists and PostgreSQL reports it ` +
        `${status === null ? "as too old to know" : `'${status}'`}: its rows are lost. Was it rolled back by hand (ROLLBACK PREPARED), ` +
        "or does another job use the same transaction id prefix? Restore from an older savepoint to write them again",
    );
    this.name = "JdbcTransactionLostError";
  }
}
