/**
 * The nodes of a query plan. The planner converts a query's syntax tree to
 * a tree of these nodes (names resolved, expressions typed and compiled),
 * rewrites it, infers every node's changelog mode and translates it to
 * DataStream operators. A node's output is described by its {@link PlanRowType}.
 */
import type { DataStream } from "../../api/data-stream.ts";
import type { CatalogTable } from "../catalog/catalog-table.ts";
import type { ValidatedTableOptions } from "../catalog/factory-options.ts";
import type { TableSink, TableSource } from "../connectors/dynamic-table-factory.ts";
import type { Row } from "../data/row.ts";
import type { Evaluator } from "../expr/compile-expression.ts";
import type { RowType } from "../expr/type-rules.ts";
import type { AggregateCall } from "../runtime/aggregate-call.ts";
import type { SortKey } from "../runtime/sort-spec.ts";
import type { WindowSpec } from "../runtime/window-spec.ts";
import type { SqlValue } from "../types/sql-value.ts";
import type { ResolvedTableFunction } from "../functions/table-function.ts";
import type { ChangelogMode } from "./changelog-mode.ts";

/** An event-time (`rowtime`) or processing-time (`proctime`) attribute. */
export type TimeAttribute = "rowtime" | "proctime";

/** The output of a node: field names, types, table qualifiers and time attributes, by position. */
export interface PlanRowType extends RowType {
  /** The table name or alias each field can be qualified with (`t.a`), if any. */
  readonly qualifiers: readonly (string | undefined)[];
  /** Which fields are time attributes (window TVFs and interval joins need one). */
  readonly timeAttributes: readonly (TimeAttribute | undefined)[];
  /** The positions of `window_start` and `window_end` when the rows belong to windows (a window TVF's output). */
  readonly windowBounds?: readonly [start: number, end: number];
  /**
   * The positions of fields holding the `window_end` of a window aggregation's rows: the aggregation
   * emits a window before its watermark passes the window's end and drops late rows, so every row that
   * arrives after the watermark reached W has a value above W (a regular join bounding a rowtime of its
   * other side by one lets that side's rows expire; see translate-plan).
   */
  readonly windowEnds?: readonly number[];
}

/** A typed, compiled scalar expression and its text for EXPLAIN. */
export interface PlanExpr {
  readonly eval: Evaluator;
  readonly type: import("../types/logical-type.ts").LogicalType;
  readonly text: string;
  /** The input position when the expression is a plain column reference. */
  readonly inputRef?: number;
  /** Set when the expression is `PROCTIME()`: its value is a processing-time attribute. */
  readonly proctime?: true;
  /** Reads no column. */
  readonly constant: boolean;
  /** The input positions it reads, ascending (unknown when absent: treat as all). */
  readonly reads?: readonly number[];
}

export type { JoinType } from "../runtime/join-spec.ts";
import type { JoinType } from "../runtime/join-spec.ts";

/**
 * The fields that the input rows of a regular join, a Top-N or a deduplication keep when column pruning
 * (prune-columns.ts) made others NULL, per input: its state holds rows of this shape, so its uid names it.
 */
export type PrunedInputs = readonly (readonly number[])[];

interface NodeBase {
  readonly rowType: PlanRowType;
}

/** The nodes of a plan. */
export type RelNode = NodeBase &
  (
    | {
        kind: "scan";
        table: CatalogTable;
        options: ValidatedTableOptions;
        source: TableSource;
      }
    | { kind: "values"; rows: SqlValue[][] }
    | {
        kind: "dataStream";
        name: string;
        stream: DataStream<Row>;
        mode: ChangelogMode;
      }
    | {
        kind: "project";
        input: RelNode;
        exprs: PlanExpr[];
        /** Added by column pruning under an operator that keeps rows (prune-columns.ts): it has no uid of its own. */
        pruning?: true;
      }
    | { kind: "filter"; input: RelNode; condition: PlanExpr }
    | {
        /** Assigns a rowtime field's value as record timestamp and generates watermarks from `watermark`. */
        kind: "watermarkAssigner";
        input: RelNode;
        rowtimeField: number;
        watermark: PlanExpr;
      }
    | {
        kind: "aggregate";
        input: RelNode;
        groupKeys: number[];
        calls: AggregateCall[];
        /** The calls' names in the select list (`cnt` of `COUNT(*) AS cnt`), for EXPLAIN. */
        callNames?: string[];
      }
    | { kind: "expand"; input: RelNode; groupKeys: number[]; groupingSets: number[][] }
    | { kind: "windowTableFunction"; input: RelNode; window: WindowSpec; text: string }
    | {
        kind: "windowAggregate";
        input: RelNode;
        window: WindowSpec;
        windowText: string;
        groupKeys: number[];
        calls: AggregateCall[];
        callNames?: string[];
      }
    | {
        kind: "join";
        left: RelNode;
        right: RelNode;
        joinType: JoinType;
        leftKeys: number[];
        rightKeys: number[];
        condition?: PlanExpr;
        /**
         * An INNER join whose condition bounds a rowtime attribute of one side by a `window_end` field
         * (`PlanRowType.windowEnds`) of the other: `right.time - left.time` within the bounds. The side
         * of the window ends is `retained`; the other side's rows can expire as in an interval join.
         */
        timeBounds?: { leftTimeField: number; rightTimeField: number; lowerBound: number; upperBound: number; retained: "left" | "right" };
        prunedInputs?: PrunedInputs;
      }
    | {
        kind: "intervalJoin";
        left: RelNode;
        right: RelNode;
        joinType: JoinType;
        leftKeys: number[];
        rightKeys: number[];
        leftTimeField: number;
        rightTimeField: number;
        lowerBound: number;
        upperBound: number;
        condition?: PlanExpr;
      }
    | {
        kind: "windowJoin";
        left: RelNode;
        right: RelNode;
        joinType: JoinType;
        leftKeys: number[];
        rightKeys: number[];
        leftWindow: [start: number, end: number];
        rightWindow: [start: number, end: number];
        condition?: PlanExpr;
      }
    | {
        kind: "temporalJoin";
        left: RelNode;
        right: RelNode;
        joinType: JoinType;
        leftKeys: number[];
        rightKeys: number[];
        leftTimeField: number;
        rightTimeField: number;
        condition?: PlanExpr;
      }
    | {
        /** Each input row joins the rows of a table looked up by key (`FOR SYSTEM_TIME AS OF` a proctime attribute). */
        kind: "lookupJoin";
        input: RelNode;
        table: CatalogTable;
        source: TableSource;
        /** The table's row type (its physical columns). */
        tableType: PlanRowType;
        joinType: "INNER" | "LEFT";
        /** The lookup key of an input row, one expression per lookup column, cast to its type. */
        keys: PlanExpr[];
        /** Positions of the lookup columns in the table's rows. */
        lookupKeys: number[];
        condition?: PlanExpr;
      }
    | { kind: "union"; inputs: RelNode[] }
    | {
        kind: "rank";
        input: RelNode;
        partitionKeys: number[];
        orderBy: SortKey[];
        rankType: "ROW_NUMBER" | "RANK" | "DENSE_RANK";
        rankStart: number;
        rankEnd: number;
        outputRankNumber: boolean;
        prunedInputs?: PrunedInputs;
      }
    | {
        kind: "deduplicate";
        input: RelNode;
        keys: number[];
        keepLast: boolean;
        timeField?: number;
        prunedInputs?: PrunedInputs;
      }
    | {
        kind: "windowRank";
        input: RelNode;
        partitionKeys: number[];
        window: [start: number, end: number];
        orderBy: SortKey[];
        rankType: "ROW_NUMBER" | "RANK" | "DENSE_RANK";
        rankStart: number;
        rankEnd: number;
        outputRankNumber: boolean;
      }
    | {
        kind: "windowDeduplicate";
        input: RelNode;
        keys: number[];
        window: [start: number, end: number];
        timeField: number;
        keepLast: boolean;
      }
    | {
        kind: "overAggregate";
        input: RelNode;
        partitionKeys: number[];
        timeField: number;
        frame: { unit: "ROWS" | "RANGE"; preceding: number | "unbounded" };
        calls: AggregateCall[];
      }
    | {
        /** Each row with each row a table function gives for it (`LATERAL TABLE(fn(...))`); LEFT keeps rows it gives none for. */
        kind: "correlate";
        input: RelNode;
        fn: ResolvedTableFunction;
        args: PlanExpr[];
        joinType: "INNER" | "LEFT";
      }
    | {
        /** Repeats each row `count` times (INTERSECT ALL / EXCEPT ALL), dropping the count field. */
        kind: "replicate";
        input: RelNode;
        countField: number;
      }
  );

/** The node variant of the given kind. */
export type RelNodeOf<K extends RelNode["kind"]> = Extract<RelNode, { kind: K }>;

/** Where a query's result goes: a catalog table's sink, or a stream for the API. */
export type PlanSink =
  | { kind: "table"; table: CatalogTable; sink: TableSink; input: RelNode }
  | { kind: "collect"; input: RelNode };

/** The inputs of a node, in order. */
export function inputsOf(node: RelNode): RelNode[] {
  switch (node.kind) {
    case "scan":
    case "values":
    case "dataStream":
      return [];
    case "join":
    case "intervalJoin":
    case "windowJoin":
    case "temporalJoin":
      return [node.left, node.right];
    case "union":
      return node.inputs;
    default:
      return [node.input];
  }
}
