/**
 * The schema of a table made from a DataStream (Flink's `Schema`): its
 * columns with SQL types, computed columns, the stream's record timestamp as
 * a metadata column, a watermark and a primary key. JavaScript has no
 * run-time types, so every physical column is declared.
 */
import type { ResolvedColumn, ResolvedSchema } from "../catalog/resolved-schema.ts";
import { parseExpression } from "../sql/parse-expression.ts";
import { parseDataType } from "../sql/parse-type.ts";
import { TokenCursor } from "../sql/token-cursor.ts";
import type { Expr } from "../sql/ast.ts";
import { toLogicalType } from "../types/logical-type.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";

const NO_LOC = { line: 1, column: 1, offset: 0 };

function parseAll<T>(text: string, what: string, parse: (c: TokenCursor) => T): T {
  const c = new TokenCursor(text);
  const v = parse(c);
  if (!c.atEnd()) throw c.error(`unexpected text after the ${what}`);
  return v;
}

/** A column of a {@link Schema}. */
export type SchemaColumn =
  | { kind: "physical"; name: string; type: string }
  | { kind: "computed"; name: string; expr: string }
  | { kind: "metadata"; name: string; type: string };

/**
 * @example
 * ```ts
 * const schema = Schema.newBuilder()
 *   .column("user", "STRING")
 *   .column("cTime", "TIMESTAMP(3)")
 *   .watermark("cTime", "cTime - INTERVAL '1' SECOND")
 *   .build();
 * ```
 */
export class Schema {
  private constructor(
    readonly columns: readonly SchemaColumn[],
    readonly watermark: { column: string; expr: string } | undefined,
    readonly primaryKey: readonly string[] | undefined,
  ) {}

  /** A builder of a schema. */
  static newBuilder(): SchemaBuilder {
    return new SchemaBuilder();
  }

  /** @internal */
  static of(columns: SchemaColumn[], watermark: { column: string; expr: string } | undefined, primaryKey: string[] | undefined): Schema {
    return new Schema(columns, watermark, primaryKey);
  }

  /**
   * @internal The schema resolved as a table's: types parsed, the metadata
   * column `rowtime` reads the record timestamp, `SOURCE_WATERMARK()` keeps the
   * stream's watermarks (no watermark of the table's own).
   */
  resolve(): { schema: ResolvedSchema; metadata: string | undefined; sourceWatermark: boolean } {
    const columns: ResolvedColumn[] = [];
    let metadata: string | undefined;
    for (const c of this.columns) {
      if (c.kind === "computed") {
        columns.push({ kind: "computed", name: c.name, expr: parseAll(c.expr, "expression", parseExpression), loc: NO_LOC });
        continue;
      }
      const type = toLogicalType(parseAll(c.type, "type", parseDataType));
      if (c.kind === "metadata") {
        if (metadata !== undefined) throw new SqlValidationError("A stream has one metadata column: its record timestamp");
        if (type.kind !== "timestamp" || type.precision !== 3) throw new SqlValidationError(`The metadata column '${c.name}' must be TIMESTAMP_LTZ(3) or TIMESTAMP(3)`);
        metadata = c.name;
      }
      columns.push({ kind: "physical", name: c.name, type, loc: NO_LOC });
    }
    const names = new Set<string>();
    for (const c of columns) {
      if (names.has(c.name)) throw new SqlValidationError(`A column named '${c.name}' already exists in the schema.`);
      names.add(c.name);
    }
    let sourceWatermark = false;
    const schema: ResolvedSchema = { columns };
    if (this.watermark !== undefined) {
      if (!names.has(this.watermark.column)) throw new SqlValidationError(`The rowtime column '${this.watermark.column}' of the watermark is not a column of the schema`);
      const expr: Expr = parseAll(this.watermark.expr, "watermark expression", parseExpression);
      if (expr.kind === "call" && expr.name.at(-1)!.value.toUpperCase() === "SOURCE_WATERMARK") sourceWatermark = true;
      else schema.watermark = { rowtimeColumn: this.watermark.column, expr };
    }
    if (this.primaryKey !== undefined) schema.primaryKey = { name: `PK_${this.primaryKey.join("_")}`, columns: [...this.primaryKey] };
    return { schema, metadata, sourceWatermark };
  }
}

/** Builds a {@link Schema}. */
export class SchemaBuilder {
  private readonly columns: SchemaColumn[] = [];
  private wm: { column: string; expr: string } | undefined;
  private pk: string[] | undefined;

  /** A column read from the records' field `name` (or position, for rows), of SQL type `type` such as `"BIGINT"`. */
  column(name: string, type: string): this {
    this.columns.push({ kind: "physical", name, type });
    return this;
  }

  /** A computed column, e.g. `columnByExpression("total", "price * quantity")`. */
  columnByExpression(name: string, expr: string): this {
    this.columns.push({ kind: "computed", name, expr });
    return this;
  }

  /** The stream's record timestamp as column `name` (type `TIMESTAMP_LTZ(3)`, as Flink's `rowtime` metadata). */
  columnByMetadata(name: string, type = "TIMESTAMP_LTZ(3)"): this {
    this.columns.push({ kind: "metadata", name, type });
    return this;
  }

  /** The watermark: `expr` over the columns, or `"SOURCE_WATERMARK()"` for the stream's own watermarks. */
  watermark(column: string, expr: string): this {
    this.wm = { column, expr };
    return this;
  }

  /** `PRIMARY KEY (columns) NOT ENFORCED`. */
  primaryKey(...columns: string[]): this {
    this.pk = columns;
    return this;
  }

  build(): Schema {
    return Schema.of([...this.columns], this.wm, this.pk);
  }
}
