/**
 * An in-memory catalog with Flink's `default_catalog.default_database`
 * semantics: case-sensitive names, temporary objects that shadow permanent
 * ones of the same name, and Flink's messages for missing and existing
 * objects.
 */
import type { QualifiedName, SourceLoc, StatementOf } from "../sql/ast.ts";
import { type CatalogObject, type CatalogTable, type CatalogView, tableFromStatement, viewFromStatement } from "./catalog-table.ts";
import {
  DEFAULT_CATALOG,
  DEFAULT_DATABASE,
  type ObjectIdentifier,
  identifierString,
  quotedIdentifierString,
  resolveIdentifier,
} from "./object-identifier.ts";
import { didYouMean } from "../validation/nearest-name.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";

/**
 * The tables and views of a session. Only `default_catalog` and its
 * `default_database` exist; names naming another catalog or database are
 * rejected.
 *
 * @example
 * ```ts
 * const catalog = new Catalog();
 * catalog.createTable(parseStatement("CREATE TABLE t (a INT) WITH ('connector' = 'blackhole')") as StatementOf<"createTable">);
 * catalog.listTables(); // ["t"]
 * catalog.getObject(parseQualifiedName("t")).kind; // "table"
 * ```
 */
export class Catalog {
  private readonly permanent = new Map<string, CatalogObject>();
  private readonly temporary = new Map<string, CatalogObject>();

  /**
   * Registers the table of a `CREATE [TEMPORARY] TABLE [IF NOT EXISTS]`
   * statement. Returns `false` when it already existed under `IF NOT EXISTS`.
   *
   * @throws {SqlValidationError} when the name is taken (without `IF NOT EXISTS`) or the schema is invalid.
   */
  createTable(stmt: StatementOf<"createTable">): boolean {
    const id = this.identifier(stmt.name);
    const table = tableFromStatement(stmt, id);
    return this.register(table, stmt.ifNotExists, stmt.name[0]!.loc);
  }

  /**
   * Registers the view of a `CREATE [TEMPORARY] VIEW [IF NOT EXISTS]`
   * statement. Returns `false` when it already existed under `IF NOT EXISTS`.
   *
   * @throws {SqlValidationError} when the name is taken (without `IF NOT EXISTS`).
   */
  createView(stmt: StatementOf<"createView">): boolean {
    const id = this.identifier(stmt.name);
    return this.register(viewFromStatement(stmt, id), stmt.ifNotExists, stmt.name[0]!.loc);
  }

  /**
   * Drops the object of a `DROP [TEMPORARY] TABLE|VIEW [IF EXISTS]`
   * statement. Returns `false` when it did not exist under `IF EXISTS`.
   *
   * @throws {SqlValidationError} when it does not exist, is of the other kind, or (as in Flink) `DROP TABLE|VIEW`
   * without `TEMPORARY` names a temporary object.
   */
  drop(stmt: StatementOf<"drop">): boolean {
    const id = this.identifier(stmt.name);
    const key = id.object;
    const noun = stmt.object === "TABLE" ? "Table" : "View";
    const kind = stmt.object === "TABLE" ? "table" : "view";
    const loc = stmt.name[0]!.loc;
    if (!stmt.temporary && this.temporary.get(key)?.kind === kind) {
      throw new SqlValidationError(
        `Temporary ${kind} with identifier '${identifierString(id)}' exists. Drop it first before removing the permanent ${kind}.`,
        loc,
      );
    }
    const scope = stmt.temporary ? this.temporary : this.permanent;
    const found = scope.get(key);
    if (found === undefined || found.kind !== kind) {
      if (found !== undefined) {
        throw new SqlValidationError(
          `${noun} with identifier '${identifierString(id)}' does not exist: it is a ${found.kind}. Use DROP ${found.kind.toUpperCase()}.`,
          loc,
        );
      }
      if (stmt.ifExists) return false;
      const temp = stmt.temporary ? "Temporary " : "";
      throw new SqlValidationError(`${temp}${temp === "" ? noun : kind} with identifier '${identifierString(id)}' does not exist.`, loc);
    }
    scope.delete(key);
    return true;
  }

  /**
   * The table or view `name` refers to, the temporary one first.
   *
   * @throws {SqlValidationError} `Object 'x' not found within 'default_catalog.default_database'` with the nearest existing name suggested.
   */
  getObject(name: QualifiedName): CatalogObject {
    const id = this.identifier(name);
    const found = this.lookup(id.object);
    if (found !== undefined) return found;
    const last = name.at(-1)!;
    throw new SqlValidationError(
      `Object '${id.object}' not found within '${id.catalog}.${id.database}'.${didYouMean(id.object, this.names())}`,
      last.loc,
    );
  }

  /** The table or view named `object` in the default database, temporary first, if any. */
  lookup(object: string): CatalogObject | undefined {
    return this.temporary.get(object) ?? this.permanent.get(object);
  }

  /**
   * The table `name` refers to.
   *
   * @throws {SqlValidationError} when it does not exist or is a view.
   */
  getTable(name: QualifiedName): CatalogTable {
    const o = this.getObject(name);
    if (o.kind !== "table") throw new SqlValidationError(`'${identifierString(o.identifier)}' is a view, not a table.`, name.at(-1)!.loc);
    return o;
  }

  /** Names of all tables and views, temporary and permanent, sorted: what `SHOW TABLES` lists. */
  listTables(): string[] {
    return this.names().sort(compareNames);
  }

  /** Names of all views, temporary and permanent, sorted: what `SHOW VIEWS` lists. */
  listViews(): string[] {
    return this.names()
      .filter((n) => this.lookup(n)!.kind === "view")
      .sort(compareNames);
  }

  private names(): string[] {
    return [...new Set([...this.temporary.keys(), ...this.permanent.keys()])];
  }

  private register(o: CatalogTable | CatalogView, ifNotExists: boolean, loc: SourceLoc): boolean {
    const scope = o.temporary ? this.temporary : this.permanent;
    if (scope.has(o.identifier.object)) {
      if (ifNotExists) return false;
      const id = o.identifier;
      throw new SqlValidationError(
        o.temporary
          ? `Temporary ${o.kind} '${quotedIdentifierString(id)}' already exists`
          : `Table (or view) ${id.database}.${id.object} already exists in Catalog ${id.catalog}.`,
        loc,
      );
    }
    scope.set(o.identifier.object, o);
    return true;
  }

  private identifier(name: QualifiedName): ObjectIdentifier {
    const id = resolveIdentifier(name);
    if (id.catalog !== DEFAULT_CATALOG) {
      throw new SqlValidationError(`Catalog '${id.catalog}' does not exist.${didYouMean(id.catalog, [DEFAULT_CATALOG])}`, name[0]!.loc);
    }
    if (id.database !== DEFAULT_DATABASE) {
      throw new SqlValidationError(
        `A database with name [${id.database}] does not exist in the catalog: [${id.catalog}].${didYouMean(id.database, [DEFAULT_DATABASE])}`,
        name.at(-2)!.loc,
      );
    }
    return id;
  }
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
