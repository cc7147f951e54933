/**
 * Column pruning, as Flink's field trimming (Calcite's `RelFieldTrimmer`,
 * `ProjectJoinTransposeRule`) does it: the fields each node's consumers read
 * are known from the roots down (read-fields.ts), and a projection computes
 * only those. So the rows that reach a stateful operator (a join's buffered
 * sides, a Top-N's or a deduplication's kept rows, a window's rows) carry no
 * value that nothing reads: not in its state, not in its checkpoints, not
 * across threads.
 *
 * Weir's expressions are compiled over field positions, so a pruned field
 * keeps its position and becomes NULL (one byte in a checkpoint) instead of
 * leaving the row: every node above reads the same positions as before.
 * Projections over table sources do the same for the columns the source
 * leaves NULL (projection push-down).
 *
 * A regular join, a Top-N and a deduplication keep rows until they are
 * retracted, and a retraction finds its row by all its values; such an
 * operator whose input rows lost values to pruning records the fields it
 * keeps in {@link PrunedInputs}, and its uid says so (translate-plan.ts): a
 * savepoint whose rows still hold those values (an earlier Weir, or another
 * query) is refused at restore instead of missing retractions.
 */
import { withCode } from "../expr/expr-code.ts";
import { fieldRef } from "./bind-plan-expr.ts";
import { ReadFields } from "./read-fields.ts";
import { inputsOf, type PlanExpr, type PrunedInputs, type RelNode } from "./rel-node.ts";

/**
 * The plans under `roots` (all of whose fields are read) with every
 * projection computing only the fields something reads; nodes over a pruned
 * input are new nodes, the others are the same objects.
 *
 * @example
 * ```ts
 * const [pruned] = pruneColumns([root]);
 * explainPlan([{ node: pruned, modes: new ChangelogModes(pruned) }], false); // Calc(select=[…, null AS url, …])
 * ```
 */
export function pruneColumns(roots: readonly RelNode[]): RelNode[] {
  const read = new ReadFields(roots);
  const done = new Map<RelNode, RelNode>();
  const prune = (node: RelNode): RelNode => {
    let out = done.get(node);
    if (out === undefined) {
      out = pruned(node, inputsOf(node).map(prune), read);
      done.set(node, out);
    }
    return out;
  };
  return roots.map(prune);
}

/** The operators that keep their input rows in state (the inputs of the others are pruned by the projections below them). */
const KEEPS_ROWS: ReadonlySet<RelNode["kind"]> = new Set([
  "join", "intervalJoin", "windowJoin", "temporalJoin", "rank", "windowRank", "deduplicate", "windowDeduplicate", "overAggregate",
]);

function pruned(node: RelNode, prunedInputs: RelNode[], read: ReadFields): RelNode {
  const before = inputsOf(node);
  // an operator that keeps rows gets a projection of what is read when its input is not one (a table, a filter)
  const inputs = KEEPS_ROWS.has(node.kind) ? prunedInputs.map((n, i) => narrowed(n, read.of(before[i]!))) : prunedInputs;
  const changed = inputs.some((n, i) => n !== before[i]);
  if (node.kind === "project") {
    const used = read.of(node); // of the node analysed: `node` is one of the plans given
    let nulled = false;
    const exprs = node.exprs.map((e, i) => {
      if (used.has(i) || isNull(e)) return e;
      nulled = true;
      return nullOf(e);
    });
    if (!nulled && !changed) return node;
    return { ...node, input: inputs[0]!, exprs };
  }
  if (!changed) return node;
  const rebuilt = withInputs(node, inputs);
  if (rebuilt.kind === "join" || rebuilt.kind === "rank" || rebuilt.kind === "deduplicate") {
    const kept: PrunedInputs = before.map((n) => [...read.of(n)].sort((a, b) => a - b));
    return { ...rebuilt, prunedInputs: kept };
  }
  return rebuilt;
}

/** `input`, or a projection of it with the fields not in `used` NULL when it is not a projection and some of them may hold values. */
function narrowed(input: RelNode, used: ReadonlySet<number>): RelNode {
  const t = input.rowType;
  if (input.kind === "project") return input;
  const nulls = nullFields(input);
  if (t.names.every((_, i) => used.has(i) || nulls.has(i))) return input;
  return { kind: "project", input, exprs: t.names.map((_, i) => (used.has(i) ? fieldRef(t, i) : nullOf(fieldRef(t, i)))), rowType: t, pruning: true };
}

/** The fields of `node`'s rows that are NULL in every row as a projection below made them (through filters). */
function nullFields(node: RelNode): ReadonlySet<number> {
  if (node.kind === "filter" || node.kind === "watermarkAssigner") return nullFields(node.input);
  if (node.kind !== "project") return new Set();
  return new Set(node.exprs.flatMap((e, i) => (isNull(e) ? [i] : [])));
}

const NULL_EVALUATOR = withCode(() => null, { op: "literal", value: null });

function isNull(e: PlanExpr): boolean {
  return e.constant && e.reads?.length === 0 && e.text === "null";
}

/** NULL in place of `e`, of its type (the row type of the projection does not change); a literal in generated code (no call). */
function nullOf(e: PlanExpr): PlanExpr {
  return { eval: NULL_EVALUATOR, type: e.type, text: "null", constant: true, reads: [] };
}

function withInputs(node: RelNode, inputs: RelNode[]): RelNode {
  switch (node.kind) {
    case "scan":
    case "values":
    case "dataStream":
      return node;
    case "join":
    case "intervalJoin":
    case "windowJoin":
    case "temporalJoin":
      return { ...node, left: inputs[0]!, right: inputs[1]! };
    case "union":
      return { ...node, inputs };
    default:
      return { ...node, input: inputs[0]! };
  }
}
