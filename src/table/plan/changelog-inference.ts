/**
 * Changelog-mode inference: the row kinds every node of a plan emits,
 * bottom-up, and the check that each node can consume what its inputs emit.
 * Operators that keep rows until the watermark (window aggregation, window
 * Top-N and deduplication, window, interval and temporal joins, OVER) and
 * insert-only sinks refuse updating inputs with Flink's message naming the
 * node that produces the updates.
 */
import { RowKind } from "../data/row-kind.ts";
import { SqlValidationError } from "../validation/sql-validation-error.ts";
import { ChangelogMode } from "./changelog-mode.ts";
import { describeNode } from "./describe-node.ts";
import { requireRetract } from "./user-aggregate-call.ts";
import { inputsOf, type RelNode } from "./rel-node.ts";

const UPDATES_WITHOUT_DELETE = ChangelogMode.of(RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER);
const INSERT_DELETE = ChangelogMode.of(RowKind.INSERT, RowKind.DELETE);

/** The nodes whose inputs must be insert-only (the first input only, for a temporal join). */
function needsInsertOnly(node: RelNode): RelNode[] {
  switch (node.kind) {
    case "windowTableFunction":
    case "windowAggregate":
    case "windowRank":
    case "windowDeduplicate":
    case "overAggregate":
    case "deduplicate":
      return [node.input];
    case "windowJoin":
    case "intervalJoin":
      return [node.left, node.right];
    case "temporalJoin":
      return [node.left];
    default:
      return [];
  }
}

const PHYSICAL_NAMES: Partial<Record<RelNode["kind"], string>> = {
  windowTableFunction: "StreamPhysicalWindowTableFunction",
  windowAggregate: "StreamPhysicalWindowAggregate",
  windowRank: "StreamPhysicalWindowRank",
  windowDeduplicate: "StreamPhysicalWindowDeduplicate",
  overAggregate: "StreamPhysicalOverAggregate",
  deduplicate: "StreamPhysicalDeduplicate",
  windowJoin: "StreamPhysicalWindowJoin",
  intervalJoin: "StreamPhysicalIntervalJoin",
  temporalJoin: "StreamPhysicalTemporalJoin",
  lookupJoin: "StreamPhysicalLookupJoin",
};

/** The modes of every node of the plan under `root`. */
export class ChangelogModes {
  private readonly modes = new Map<RelNode, ChangelogMode>();

  constructor(root: RelNode) {
    this.of(root);
  }

  /** The mode of `node` (inferring it and its inputs' if needed). */
  of(node: RelNode): ChangelogMode {
    let m = this.modes.get(node);
    if (m === undefined) {
      for (const input of needsInsertOnly(node)) this.requireInsertOnly(input, PHYSICAL_NAMES[node.kind]!);
      m = this.infer(node);
      this.modes.set(node, m);
    }
    return m;
  }

  /**
   * Refuses an input that emits updates, naming `consumer` and the node that produces them.
   *
   * @throws {SqlValidationError}
   */
  requireInsertOnly(input: RelNode, consumer: string, what = "update and delete changes"): void {
    if (ChangelogMode.isInsertOnly(this.of(input))) return;
    throw new SqlValidationError(`${consumer} doesn't support consuming ${what} which is produced by node ${describeNode(this.producer(input))}`);
  }

  /** The node that turns insert-only inputs into updates, under `node`. */
  producer(node: RelNode): RelNode {
    for (const input of inputsOf(node)) if (!ChangelogMode.isInsertOnly(this.of(input))) return this.producer(input);
    return node;
  }

  private infer(node: RelNode): ChangelogMode {
    const insertOnly = (n: RelNode) => ChangelogMode.isInsertOnly(this.of(n));
    switch (node.kind) {
      case "scan":
        return node.source.changelogMode;
      case "values":
        return ChangelogMode.INSERT_ONLY;
      case "dataStream":
        return node.mode;
      case "project":
      case "filter":
      case "watermarkAssigner":
      case "expand":
      case "replicate":
      case "correlate":
        return this.of(node.input);
      case "union":
        return node.inputs.map((i) => this.of(i)).reduce(ChangelogMode.union);
      case "aggregate":
        if (insertOnly(node.input)) return UPDATES_WITHOUT_DELETE;
        requireRetract(node.calls, "an updating input");
        return ChangelogMode.RETRACT;
      case "join": {
        const both = insertOnly(node.left) && insertOnly(node.right);
        if (both && (node.joinType === "INNER" || node.joinType === "SEMI")) return ChangelogMode.INSERT_ONLY;
        return INSERT_DELETE;
      }
      case "rank":
        // without the rank number a row enters (+I) or leaves (-D) the top N; with it, ranks move (-U/+U)
        return node.outputRankNumber ? ChangelogMode.RETRACT : INSERT_DELETE;
      case "deduplicate":
        return !node.keepLast && node.timeField === undefined ? ChangelogMode.INSERT_ONLY : UPDATES_WITHOUT_DELETE;
      case "temporalJoin":
        this.of(node.right);
        return ChangelogMode.INSERT_ONLY;
      case "lookupJoin":
        return this.of(node.input);
      default:
        for (const i of inputsOf(node)) this.of(i);
        return ChangelogMode.INSERT_ONLY;
    }
  }
}
