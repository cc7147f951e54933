/**
 * The keyed lookup of a `jdbc` table (Flink's `JdbcRowDataLookupFunction`): `SELECT <columns> FROM <table>
 * WHERE k1 = $1 AND …` per key on one connection per parallel instance. A transient failure (a lost
 * connection, a server shutting down or starting up, a serialization failure) is retried up to
 * `lookup.max-retries` times after a growing pause (1 s, 2 s, … at most 10 s, on the job's clock), on a new
 * connection when the old one is gone — so a server restart mid-job costs a pause, not the job. Other errors
 * (no such table, a column type that does not fit, a value the declared type cannot hold) fail the job.
 */
import { isTransientPostgresError } from "../../connectors/postgres/postgres-errors.ts";
import type { Clock } from "../../util/clock.ts";
import { getLogger } from "../../util/logger.ts";
import type { Row } from "../data/row.ts";
import type { RowType } from "../expr/type-rules.ts";
import type { LookupCacheOptions } from "../runtime/lookup-cache.ts";
import type { SqlValue } from "../types/sql-value.ts";
import type { LookupFunction, LookupProvider } from "./dynamic-table-factory.ts";
import type { JdbcTableConfig } from "./jdbc-table-config.ts";
import { openJdbcTable, pgRow, type OpenedJdbcTable } from "./jdbc-table-open.ts";
import { pgParam, TEXT_PARSERS } from "./postgres-values.ts";

/** The pause before retry `n` (1-based) in ms. */
function lookupBackoffMs(n: number): number {
  return Math.min(10_000, 1000 * n);
}

/**
 * The lookup of a `jdbc` table by the columns at `lookupKeys`, with the table's PARTIAL cache settings.
 *
 * @example
 * ```ts
 * const provider = jdbcLookupProvider(config, physicalType, [0], systemClock);
 * const lookup = await provider.open();
 * await lookup.lookup(["EUR"]); // the rows of currency 'EUR'
 * ```
 */
export function jdbcLookupProvider(config: JdbcTableConfig, declared: RowType, lookupKeys: readonly number[], clock: Clock): LookupProvider {
  const l = config.lookup;
  const cache: LookupCacheOptions | undefined =
    l.cache === "NONE"
      ? undefined
      : {
          cacheMissingKey: l.cacheMissingKey,
          ...(l.maxRows === undefined ? {} : { maxRows: l.maxRows }),
          ...(l.expireAfterWriteMs === undefined ? {} : { expireAfterWriteMs: l.expireAfterWriteMs }),
          ...(l.expireAfterAccessMs === undefined ? {} : { expireAfterAccessMs: l.expireAfterAccessMs }),
        };
  return {
    ...(cache === undefined ? {} : { cache }),
    open: async () => {
      const f = new JdbcLookupFunction(config, declared, lookupKeys, clock);
      await f.connection();
      return f;
    },
  };
}

class JdbcLookupFunction implements LookupFunction {
  private current: Promise<OpenedJdbcTable> | undefined;
  /** What `current` resolved to. */
  private opened: OpenedJdbcTable | undefined;
  private closed = false;
  /** The last query sent: a connection runs one query at a time, in order. */
  private tail: Promise<unknown> = Promise.resolve();
  private readonly purpose: string;
  /** Every declared column's position: a lookup reads them all. */
  private readonly all: readonly number[];

  constructor(
    private readonly config: JdbcTableConfig,
    private readonly declared: RowType,
    private readonly lookupKeys: readonly number[],
    private readonly clock: Clock,
  ) {
    this.purpose = `weir jdbc lookup ${config.table}`;
    this.all = declared.names.map((_, i) => i);
  }

  /** The open connection, or a new one (shared by the lookups that wait for it). */
  connection(): Promise<OpenedJdbcTable> {
    if (this.current === undefined) {
      const opening = openJdbcTable(this.config, this.declared, this.purpose).then((t) => {
        if (this.current === opening) this.opened = t;
        return t;
      });
      this.current = opening;
      opening.catch(() => {
        if (this.current === opening) this.current = undefined;
      });
    }
    return this.current;
  }

  async lookup(key: readonly SqlValue[]): Promise<readonly Row[]> {
    for (let retry = 0; ; retry++) {
      let table: OpenedJdbcTable | undefined;
      try {
        table = await this.connection();
        return await this.query(table, key);
      } catch (e) {
        if (this.closed || retry >= this.config.lookup.maxRetries || !isTransientPostgresError(e)) throw e;
        if (table !== undefined) this.drop(table);
        const pause = lookupBackoffMs(retry + 1);
        getLogger().warn({ table: this.config.table, retry: retry + 1, pauseMs: pause }, `jdbc lookup of table '${this.config.table}' failed (${(e as Error).message}); retrying`);
        await new Promise<void>((resolve) => this.clock.setTimeout(resolve, pause));
      }
    }
  }

  private async query(table: OpenedJdbcTable, key: readonly SqlValue[]): Promise<Row[]> {
    const { types } = this.declared;
    const where = this.lookupKeys.map((p, i) => `${table.columns[p]} = $${i + 1}`).join(" AND ");
    const query = {
      text: `SELECT ${table.columns.join(", ")} FROM ${table.from} WHERE ${where}`,
      values: this.lookupKeys.map((p, i) => pgParam(key[i]!, types[p]!)),
      rowMode: "array" as const,
      types: TEXT_PARSERS,
    };
    const sent = this.tail.then(() => table.client.query<(string | null)[]>(query));
    this.tail = sent.catch(() => {});
    const result = await sent;
    return result.rows.map((values) => pgRow(this.config, this.declared, this.all, values));
  }

  /** Forgets a connection that failed (the next lookup opens a new one). */
  private drop(table: OpenedJdbcTable): void {
    if (this.opened === table) {
      this.current = undefined;
      this.opened = undefined;
    }
    void table.client.end().catch(() => {});
  }

  async close(): Promise<void> {
    this.closed = true;
    const current = this.current;
    this.current = undefined;
    this.opened = undefined;
    if (current !== undefined) await (await current.catch(() => undefined))?.client.end().catch(() => {});
  }
}
