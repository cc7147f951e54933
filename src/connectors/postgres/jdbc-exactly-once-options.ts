/**
 * Settings of the exactly-once JDBC sink (Flink's `JdbcExactlyOnceOptions`, plus Weir's transaction id
 * prefix): which prepared transactions are this sink's, whether leftovers are rolled back at start, and
 * how often a commit is tried.
 */
import { JdbcConnectionOptionsError } from "./jdbc-connection-options.ts";

/**
 * PostgreSQL allows global transaction ids of up to 200 bytes; the sink appends
 * `-<subtask>-<run>-<attempt>-<n>` (at most 60 characters) to the prefix.
 */
export const MAX_TRANSACTION_ID_PREFIX_LENGTH = 128;

/**
 * Exactly-once settings.
 *
 * @example
 * ```ts
 * const eo = JdbcExactlyOnceOptions.builder().withTransactionIdPrefix("orders-job").build();
 * ```
 */
export class JdbcExactlyOnceOptions {
  private constructor(
    /** Prefix of the prepared transactions' ids (default: `weir-` and the sink's operator uid). Unique per job and database. */
    readonly transactionIdPrefix: string | undefined,
    /** At start, roll back the prepared transactions of this prefix that no restored checkpoint owns (default true). */
    readonly recoveredAndRollback: boolean,
    /** Attempts of a `COMMIT PREPARED` that fails with a transient error before the job fails (default 3). */
    readonly maxCommitAttempts: number,
  ) {}

  static builder(): JdbcExactlyOnceOptionsBuilder {
    return new JdbcExactlyOnceOptionsBuilder();
  }

  /** The defaults. */
  static defaults(): JdbcExactlyOnceOptions {
    return new JdbcExactlyOnceOptionsBuilder().build();
  }

  /** @internal Used by the builder. */
  static create(prefix: string | undefined, rollback: boolean, attempts: number): JdbcExactlyOnceOptions {
    return new JdbcExactlyOnceOptions(prefix, rollback, attempts);
  }
}

/** Builds `JdbcExactlyOnceOptions`. */
export class JdbcExactlyOnceOptionsBuilder {
  private prefix: string | undefined;
  private rollback = true;
  private attempts = 3;

  /** The prefix of this sink's prepared transaction ids: letters, digits, `_`, `.`, `:` and `-`. */
  withTransactionIdPrefix(prefix: string): this {
    if (!/^[A-Za-z0-9_.:-]+$/.test(prefix) || prefix.length > MAX_TRANSACTION_ID_PREFIX_LENGTH)
      throw new JdbcConnectionOptionsError(
        `JdbcExactlyOnceOptions: transaction id prefix '${prefix}' must be 1 to ${MAX_TRANSACTION_ID_PREFIX_LENGTH} letters, digits, '_', '.', ':' or '-'`,
      );
    this.prefix = prefix;
    return this;
  }

  /** Roll back leftover prepared transactions of this prefix at start (Flink's `recoveredAndRollback`, default true). */
  withRecoveredAndRollback(rollback: boolean): this {
    this.rollback = rollback;
    return this;
  }

  /** Attempts of a commit that fails with a transient error (default 3). */
  withMaxCommitAttempts(attempts: number): this {
    if (!(Number.isInteger(attempts) && attempts >= 1)) throw new JdbcConnectionOptionsError(`JdbcExactlyOnceOptions: max commit attempts must be an integer ≥ 1, got ${attempts}`);
    this.attempts = attempts;
    return this;
  }

  build(): JdbcExactlyOnceOptions {
    return JdbcExactlyOnceOptions.create(this.prefix, this.rollback, this.attempts);
  }
}
