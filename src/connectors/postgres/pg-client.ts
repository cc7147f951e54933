/**
 * The PostgreSQL client Weir's connectors use (`pg`, the maintained node-postgres), loaded on first use so
 * that a job without PostgreSQL does not import it at start-up. Not part of the public types (`@types/pg`
 * is a development dependency only).
 */
import type * as Pg from "pg";

/** The client module. */
export type PgModule = typeof Pg;

let loading: Promise<PgModule> | undefined;

/**
 * The client module, imported once per thread on first call.
 *
 * @example
 * ```ts
 * const { Client } = await pgModule();
 * ```
 */
export function pgModule(): Promise<PgModule> {
  loading ??= import("pg").then((m) => m.default as unknown as PgModule);
  return loading;
}
