/**
 * Renders SQL expressions as fully parenthesized S-expressions, so parser
 * tests can state precedence and shape in one short string.
 */
import type { Expr, Query } from "../../src/table/sql/ast.ts";

const names = (ids: { value: string }[]) => ids.map((i) => i.value).join(".");

/** `(+ a (* b c))` for `a + b * c`. */
export function sexpr(e: Expr): string {
  switch (e.kind) {
    case "column":
      return names(e.names);
    case "star":
      return e.qualifier.length === 0 ? "*" : `${names(e.qualifier)}.*`;
    case "number":
      return e.text;
    case "string":
      return `'${e.value}'`;
    case "boolean":
      return String(e.value).toUpperCase();
    case "null":
      return "NULL";
    case "interval":
      return `(INTERVAL ${e.negative ? "-" : ""}'${e.value}' ${e.from}${e.to === undefined ? "" : ` TO ${e.to}`})`;
    case "typedLiteral":
      return `(${e.type} '${e.value}')`;
    case "unary":
      return `(${e.op} ${sexpr(e.operand)})`;
    case "binary":
      return `(${e.op} ${sexpr(e.left)} ${sexpr(e.right)})`;
    case "is":
      return `(IS${e.not ? " NOT" : ""} ${e.test} ${sexpr(e.operand)})`;
    case "isDistinctFrom":
      return `(IS${e.not ? " NOT" : ""} DISTINCT FROM ${sexpr(e.left)} ${sexpr(e.right)})`;
    case "between":
      return `(${e.not ? "NOT " : ""}BETWEEN ${sexpr(e.operand)} ${sexpr(e.low)} ${sexpr(e.high)})`;
    case "inList":
      return `(${e.not ? "NOT " : ""}IN ${sexpr(e.operand)} ${e.list.map(sexpr).join(" ")})`;
    case "inQuery":
      return `(${e.not ? "NOT " : ""}IN ${sexpr(e.operand)} <query>)`;
    case "like":
      return `(${e.not ? "NOT " : ""}${e.similar ? "SIMILAR" : "LIKE"} ${sexpr(e.operand)} ${sexpr(e.pattern)}${e.escape ? ` ${sexpr(e.escape)}` : ""})`;
    case "exists":
      return "(EXISTS <query>)";
    case "subquery":
      return "<query>";
    case "case":
      return `(CASE${e.operand ? ` ${sexpr(e.operand)}` : ""}${e.whens.map((w) => ` (WHEN ${sexpr(w.when)} ${sexpr(w.then)})`).join("")}${e.else ? ` (ELSE ${sexpr(e.else)})` : ""})`;
    case "cast":
      return `(${e.try ? "TRY_CAST" : "CAST"} ${sexpr(e.expr)} ${e.type.kind})`;
    case "extract":
      return `(EXTRACT ${e.unit} ${sexpr(e.source)})`;
    case "trim":
      return `(TRIM ${e.mode}${e.characters ? ` ${sexpr(e.characters)}` : ""} ${sexpr(e.source)})`;
    case "floorCeil":
      return `(${e.fn} ${sexpr(e.expr)} TO ${e.unit})`;
    case "row":
      return `(ROW ${e.values.map(sexpr).join(" ")})`;
    case "array":
      return `(ARRAY ${e.values.map(sexpr).join(" ")})`;
    case "map":
      return `(MAP ${e.entries.map(sexpr).join(" ")})`;
    case "item":
      return `(ITEM ${sexpr(e.base)} ${sexpr(e.index)})`;
    case "call": {
      const args = e.star ? ["*"] : e.args.map((a) => (a.name ? `${a.name.value}=>${sexpr(a.value)}` : sexpr(a.value)));
      let s = `${names(e.name)}(${e.distinct ? "DISTINCT " : ""}${args.join(", ")})`;
      if (e.filter) s += ` FILTER ${sexpr(e.filter)}`;
      if (e.over) s += " OVER";
      return s;
    }
    case "tableArg":
      return `TABLE ${names(e.name)}${e.partitionBy.length > 0 ? ` PARTITION BY ${e.partitionBy.map(sexpr).join(" ")}` : ""}`;
    case "descriptor":
      return `DESCRIPTOR(${names(e.columns)})`;
  }
}

/** The select-list expressions of a query whose body is a SELECT, as S-expressions. */
export function selectList(q: Query): string[] {
  if (q.body.kind !== "select") throw new Error(`not a SELECT: ${q.body.kind}`);
  return q.body.items.map((i) => sexpr(i.expr) + (i.alias ? ` AS ${i.alias.value}` : ""));
}
