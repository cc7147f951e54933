/**
 * How a plan node is named in EXPLAIN output and in error messages, after
 * Flink's physical node names: `TableSourceScan(table=[[…]], fields=[…])`,
 * `Calc(select=[…], where=[…])`, `GroupAggregate(groupBy=[user], select=[user,
 * COUNT(url) AS cnt])`, …
 */
import type { AggregateCall } from "../runtime/aggregate-call.ts";
import type { SortKey } from "../runtime/sort-spec.ts";
import type { WindowSpec } from "../runtime/window-spec.ts";
import { formatValue } from "../data/format-value.ts";
import type { PlanRowType, RelNode, RelNodeOf } from "./rel-node.ts";

const list = (xs: readonly string[]) => `[${xs.join(", ")}]`;

function fieldNames(t: PlanRowType, positions: readonly number[]): string[] {
  return positions.map((i) => t.names[i] ?? `$${i}`);
}

function callsText(calls: readonly AggregateCall[], names: readonly string[], offset: number, callNames?: readonly string[]): string[] {
  return calls.map((c, i) => `${c.text.replaceAll("`", "")} AS ${callNames?.[i] ?? names[offset + i]}`);
}

function sortText(t: PlanRowType, keys: readonly SortKey[]): string[] {
  return keys.map((k) => `${t.names[k.field]} ${k.descending ? "DESC" : "ASC"}`);
}

function windowText(w: WindowSpec, t: PlanRowType): string {
  const time = t.names[w.timeField];
  switch (w.kind) {
    case "tumble": return `TUMBLE(time_col=[${time}], size=[${w.size} ms]${w.offset ? `, offset=[${w.offset} ms]` : ""})`;
    case "hop": return `HOP(time_col=[${time}], size=[${w.size} ms], slide=[${w.slide} ms]${w.offset ? `, offset=[${w.offset} ms]` : ""})`;
    case "cumulate": return `CUMULATE(time_col=[${time}], max_size=[${w.maxSize} ms], step=[${w.step} ms]${w.offset ? `, offset=[${w.offset} ms]` : ""})`;
    case "session": return `SESSION(time_col=[${time}], gap=[${w.gap} ms]${w.partitionKeys.length ? `, partition keys=${list(fieldNames(t, w.partitionKeys))}` : ""})`;
  }
}

const JOIN_NAMES = { INNER: "InnerJoin", LEFT: "LeftOuterJoin", RIGHT: "RightOuterJoin", FULL: "FullOuterJoin", SEMI: "LeftSemiJoin", ANTI: "LeftAntiJoin" };

/**
 * The one-line description of `node`.
 *
 * @example
 * ```ts
 * describeNode(aggregateNode); // "GroupAggregate(groupBy=[user], select=[user, COUNT(url) AS cnt])"
 * ```
 */
export function describeNode(node: RelNode): string {
  const out = node.rowType.names;
  switch (node.kind) {
    case "scan": {
      const id = node.table.identifier;
      return `TableSourceScan(table=[[${id.catalog}, ${id.database}, ${id.object}]], fields=${list(out)})`;
    }
    case "values":
      return `Values(tuples=[${node.rows.map((r) => list(r.map((v) => formatValue(v)))).join(", ")}], values=${list(out)})`;
    case "dataStream":
      return `DataStreamScan(table=[[${node.name}]], fields=${list(out)})`;
    case "project":
      return `Calc(select=${list(node.exprs.map((e, i) => {
        const text = e.text.replaceAll("`", "");
        return text === out[i] ? text : `${text} AS ${out[i]}`;
      }))})`;
    case "filter":
      return `Calc(where=[${node.condition.text.replaceAll("`", "")}], select=${list(out)})`;
    case "watermarkAssigner":
      return `WatermarkAssigner(rowtime=[${out[node.rowtimeField]}], watermark=[${node.watermark.text.replaceAll("`", "")}])`;
    case "aggregate": {
      const input = node.input.rowType;
      const keys = fieldNames(input, node.groupKeys);
      return `GroupAggregate(${keys.length ? `groupBy=${list(keys)}, ` : ""}select=${list([...keys, ...callsText(node.calls, out, keys.length, node.callNames)])})`;
    }
    case "expand":
      return `Expand(projects=[${node.groupingSets.length} grouping sets], groupBy=${list(fieldNames(node.input.rowType, node.groupKeys))})`;
    case "windowTableFunction":
      return `WindowTableFunction(window=[${windowText(node.window, node.input.rowType)}])`;
    case "windowAggregate": {
      const input = node.input.rowType;
      const keys = fieldNames(input, node.groupKeys);
      return `WindowAggregate(${keys.length ? `groupBy=${list(keys)}, ` : ""}window=[${windowText(node.window, input)}], select=${list([...keys, ...callsText(node.calls, out, keys.length, node.callNames), `start('w$) AS window_start`, `end('w$) AS window_end`])})`;
    }
    case "join":
    case "intervalJoin":
    case "windowJoin":
    case "temporalJoin": {
      const l = node.left.rowType;
      const r = node.right.rowType;
      const keys = node.leftKeys.map((k, i) => `=(${l.names[k]}, ${r.names[node.rightKeys[i]!]})`);
      const cond = [...keys, ...(node.condition ? [node.condition.text.replaceAll("`", "")] : [])];
      const where = cond.length === 0 ? "true" : cond.length === 1 ? cond[0] : `AND(${cond.join(", ")})`;
      const name = { join: "Join", intervalJoin: "IntervalJoin", windowJoin: "WindowJoin", temporalJoin: "TemporalJoin" }[node.kind];
      const extra =
        node.kind === "intervalJoin" ? `, windowBounds=[leftLowerBound=${-node.upperBound}, leftUpperBound=${-node.lowerBound}, leftTimeIndex=${node.leftTimeField}, rightTimeIndex=${node.rightTimeField}]` : "";
      return `${name}(joinType=[${JOIN_NAMES[node.joinType]}], where=[${where}]${extra}, select=${list(out)})`;
    }
    case "lookupJoin": {
      const id = node.table.identifier;
      const keys = node.lookupKeys.map((k, i) => `${node.tableType.names[k]}=${node.keys[i]!.text.replaceAll("`", "")}`);
      const where = node.condition === undefined ? "" : `, where=[${node.condition.text.replaceAll("`", "")}]`;
      return `LookupJoin(table=[${id.catalog}.${id.database}.${id.object}], joinType=[${JOIN_NAMES[node.joinType]}], lookup=${list(keys)}${where}, select=${list(out)})`;
    }
    case "union":
      return `Union(all=[true], union=${list(out)})`;
    case "rank":
    case "windowRank":
      return `${node.kind === "rank" ? "Rank" : "WindowRank"}(rankType=[${node.rankType}], rankRange=[rankStart=${node.rankStart}, rankEnd=${node.rankEnd}], partitionBy=${list(fieldNames(node.input.rowType, node.partitionKeys))}, orderBy=${list(sortText(node.input.rowType, node.orderBy))}, select=${list(out)})`;
    case "deduplicate":
      return `Deduplicate(keep=[${node.keepLast ? "LastRow" : "FirstRow"}], key=${list(fieldNames(node.input.rowType, node.keys))}, order=[${node.timeField === undefined ? "PROCTIME" : "ROWTIME"}])`;
    case "windowDeduplicate":
      return `WindowDeduplicate(keep=[${node.keepLast ? "LastRow" : "FirstRow"}], partitionKeys=${list(fieldNames(node.input.rowType, node.keys))}, orderKey=[${node.input.rowType.names[node.timeField]}], order=[ROWTIME])`;
    case "overAggregate": {
      const input = node.input.rowType;
      const frame = `${node.frame.unit === "ROWS" ? "ROWS" : "RANG"} BETWEEN ${node.frame.preceding === "unbounded" ? "UNBOUNDED" : node.frame.preceding} PRECEDING AND CURRENT ROW`;
      return `OverAggregate(partitionBy=${list(fieldNames(input, node.partitionKeys))}, orderBy=[${input.names[node.timeField]} ASC], window=[${frame}], select=${list([...input.names, ...callsText(node.calls, out, input.names.length)])})`;
    }
    case "correlate":
      return `Correlate(invocation=[${node.fn.name}(${node.args.map((a) => a.text.replaceAll("`", "")).join(", ")})], joinType=[${node.joinType}], select=${list(out)})`;
    case "replicate":
      return `Correlate(invocation=[$REPLICATE_ROWS$1(${node.input.rowType.names[node.countField]})], select=${list(out)})`;
  }
}

/**
 * The one-line description of the local phase of a window aggregation that
 * runs in two phases (its global phase is {@link describeNode}'s, prefixed
 * `Global`): the calls' partial accumulators by group key and slice.
 *
 * @example
 * ```ts
 * describeLocalWindowAggregate(node);
 * // "LocalWindowAggregate(groupBy=[auction], window=[HOP(time_col=[dateTime], size=[10000 ms], slide=[2000 ms])], select=[auction, COUNT(*) AS num, slice_end('w$) AS $slice_end])"
 * ```
 */
export function describeLocalWindowAggregate(node: RelNodeOf<"windowAggregate">): string {
  const input = node.input.rowType;
  const keys = fieldNames(input, node.groupKeys);
  const calls = callsText(node.calls, node.rowType.names, keys.length, node.callNames);
  return `LocalWindowAggregate(${keys.length ? `groupBy=${list(keys)}, ` : ""}window=[${windowText(node.window, input)}], select=${list([...keys, ...calls, `slice_end('w$) AS $slice_end`])})`;
}
