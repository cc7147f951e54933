/**
 * SQL text of a scalar expression as Flink prints it in DESCRIBE (identifiers
 * in backquotes, keywords upper case), for computed columns and watermarks.
 */
import type { Expr } from "../sql/ast.ts";
import { formatLogicalType, toLogicalType } from "../types/logical-type.ts";

const quote = (ids: { value: string }[]) => ids.map((i) => `\`${i.value}\``).join(".");

/**
 * The expression as SQL text; subexpressions of operators are parenthesized
 * when they are operators themselves.
 *
 * @example
 * ```ts
 * exprSqlText(watermark.expr); // "`cTime` - INTERVAL '1' SECOND"
 * ```
 */
export function exprSqlText(e: Expr): string {
  switch (e.kind) {
    case "column":
      return quote(e.names);
    case "star":
      return e.qualifier.length === 0 ? "*" : `${quote(e.qualifier)}.*`;
    case "number":
      return e.text;
    case "string":
      return `'${e.value.replaceAll("'", "''")}'`;
    case "boolean":
      return e.value ? "TRUE" : "FALSE";
    case "null":
      return "NULL";
    case "interval":
      return `INTERVAL ${e.negative ? "-" : ""}'${e.value}' ${e.from}${e.to === undefined ? "" : ` TO ${e.to}`}`;
    case "typedLiteral":
      return `${e.type} '${e.value}'`;
    case "unary":
      return e.op === "NOT" ? `NOT ${operand(e.operand)}` : `${e.op}${operand(e.operand)}`;
    case "binary":
      return `${operand(e.left)} ${e.op} ${operand(e.right)}`;
    case "is":
      return `${operand(e.operand)} IS ${e.not ? "NOT " : ""}${e.test}`;
    case "isDistinctFrom":
      return `${operand(e.left)} IS ${e.not ? "NOT " : ""}DISTINCT FROM ${operand(e.right)}`;
    case "between":
      return `${operand(e.operand)} ${e.not ? "NOT " : ""}BETWEEN ${e.symmetric ? "SYMMETRIC " : ""}${operand(e.low)} AND ${operand(e.high)}`;
    case "inList":
      return `${operand(e.operand)} ${e.not ? "NOT " : ""}IN (${e.list.map(exprSqlText).join(", ")})`;
    case "like":
      return `${operand(e.operand)} ${e.not ? "NOT " : ""}${e.similar ? "SIMILAR TO" : "LIKE"} ${operand(e.pattern)}${e.escape === undefined ? "" : ` ESCAPE ${exprSqlText(e.escape)}`}`;
    case "case": {
      const whens = e.whens.map((w) => ` WHEN ${exprSqlText(w.when)} THEN ${exprSqlText(w.then)}`).join("");
      const head = e.operand === undefined ? "CASE" : `CASE ${exprSqlText(e.operand)}`;
      return `${head}${whens}${e.else === undefined ? "" : ` ELSE ${exprSqlText(e.else)}`} END`;
    }
    case "cast":
      return `${e.try ? "TRY_CAST" : "CAST"}(${exprSqlText(e.expr)} AS ${formatLogicalType(toLogicalType(e.type))})`;
    case "extract":
      return `EXTRACT(${e.unit} FROM ${exprSqlText(e.source)})`;
    case "trim":
      return `TRIM(${e.mode} ${e.characters === undefined ? "" : `${exprSqlText(e.characters)} `}FROM ${exprSqlText(e.source)})`;
    case "floorCeil":
      return `${e.fn}(${exprSqlText(e.expr)} TO ${e.unit})`;
    case "row":
      return `ROW(${e.values.map(exprSqlText).join(", ")})`;
    case "array":
      return `ARRAY[${e.values.map(exprSqlText).join(", ")}]`;
    case "map":
      return `MAP[${e.entries.map(exprSqlText).join(", ")}]`;
    case "item":
      return `${operand(e.base)}[${exprSqlText(e.index)}]`;
    case "call": {
      const args = e.star ? "*" : e.args.map((a) => (a.name === undefined ? "" : `${a.name.value} => `) + exprSqlText(a.value)).join(", ");
      const name = e.name.map((n) => n.value).join(".");
      return `${name}(${e.distinct ? "DISTINCT " : ""}${args})${e.filter === undefined ? "" : ` FILTER (WHERE ${exprSqlText(e.filter)})`}${e.over !== undefined || e.overWindow !== undefined ? " OVER (...)" : ""}`;
    }
    case "tableArg":
      return `TABLE ${quote(e.name)}`;
    case "descriptor":
      return `DESCRIPTOR(${quote(e.columns)})`;
    case "inQuery":
    case "exists":
    case "subquery":
      return "(SELECT ...)";
  }
}

function operand(e: Expr): string {
  const text = exprSqlText(e);
  return e.kind === "binary" || e.kind === "between" || e.kind === "like" || e.kind === "inList" || e.kind === "is" || e.kind === "isDistinctFrom"
    ? `(${text})`
    : text;
}
