/**
 * The full name of a catalog object, `catalog.database.object`, as Flink
 * resolves a possibly partial name against the current catalog and database.
 */
import type { QualifiedName } from "../sql/ast.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";

/** Flink's built-in catalog name. */
export const DEFAULT_CATALOG = "default_catalog";
/** Flink's built-in database name. */
export const DEFAULT_DATABASE = "default_database";

/** A fully qualified object name. */
export interface ObjectIdentifier {
  catalog: string;
  database: string;
  object: string;
}

/**
 * Completes `name` (`t`, `db.t` or `cat.db.t`) with the default catalog and
 * database.
 *
 * @throws {SqlValidationError} for a name of more than three parts.
 * @example
 * ```ts
 * resolveIdentifier(stmt.name); // { catalog: "default_catalog", database: "default_database", object: "clicks" }
 * ```
 */
export function resolveIdentifier(name: QualifiedName): ObjectIdentifier {
  const parts = name.map((p) => p.value);
  if (parts.length === 0 || parts.length > 3) {
    throw new SqlValidationError(`Object identifier '${parts.join(".")}' must have one to three parts: [catalog.][database.]object`, name[0]?.loc);
  }
  const object = parts.at(-1)!;
  const database = parts.length >= 2 ? parts.at(-2)! : DEFAULT_DATABASE;
  const catalog = parts.length === 3 ? parts[0]! : DEFAULT_CATALOG;
  return { catalog, database, object };
}

/** `default_catalog.default_database.t`, as Flink's messages print an identifier. */
export function identifierString(id: ObjectIdentifier): string {
  return `${id.catalog}.${id.database}.${id.object}`;
}

/** `` `default_catalog`.`default_database`.`t` ``, Flink's quoted form. */
export function quotedIdentifierString(id: ObjectIdentifier): string {
  return `\`${id.catalog}\`.\`${id.database}\`.\`${id.object}\``;
}
