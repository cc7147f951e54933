/**
 * The physical translation: every plan node becomes DataStream operators on
 * the job's environment, with uids derived from the plan so a job planned
 * again from the same statements restores its state. Stateless nodes become
 * map, filter and flatMap operators; stateful ones call the table runtime's
 * operators (`src/table/runtime/`).
 */
import type { OperatorNaming } from "../runtime/operator-naming.ts";
import { SingleOutputStreamOperator, type DataStream } from "../../api/data-stream.ts";
import type { StreamExecutionEnvironment } from "../../api/environment.ts";
import type { Collector } from "../../core/collector.ts";
import { RowKind } from "../data/row-kind.ts";
import { sourceWatermarkStrategy, type RecordWatermarks, type SourceWatermarks } from "../connectors/source-watermarks.ts";
import type { TableSource } from "../connectors/dynamic-table-factory.ts";
import type { Row } from "../data/row.ts";
import type { Evaluator } from "../expr/compile-expression.ts";
import { hasPrimitiveValues, type SqlValue } from "../types/sql-value.ts";
import { groupAggregate } from "../runtime/group-aggregate.ts";
import type { MiniBatchSpec } from "../runtime/mini-batch-group-aggregate.ts";
import { globalWindowAggregate, windowAggregate } from "../runtime/window-aggregate.ts";
import { localWindowAggregate } from "../runtime/local-window-aggregate.ts";
import { overAggregate } from "../runtime/over-aggregate.ts";
import { expand } from "../runtime/expand.ts";
import { rank } from "../runtime/rank.ts";
import { deduplicate } from "../runtime/deduplicate.ts";
import { windowTableFunction } from "../runtime/window-table-function.ts";
import { windowRank } from "../runtime/window-rank.ts";
import { localWindowRank } from "../runtime/local-window-rank.ts";
import { windowDeduplicate } from "../runtime/window-deduplicate.ts";
import { regularJoin } from "../runtime/regular-join.ts";
import { intervalJoin } from "../runtime/interval-join.ts";
import { windowJoin } from "../runtime/window-join.ts";
import { temporalJoin } from "../runtime/temporal-join.ts";
import { lookupJoin } from "../runtime/lookup-join.ts";
import type { JoinSpec } from "../runtime/join-spec.ts";
import { describeLocalWindowAggregate, describeNode } from "./describe-node.ts";
import { runsInTwoPhases, windowRankRunsInTwoPhases, type AggPhaseStrategy } from "./agg-phase-strategy.ts";
import { compileCalc, recordScope, type CalcStep, type RecordScope } from "./calc-program.ts";
import { ExprWriter, generateEvaluator } from "../expr/expr-writer.ts";
import { withCode } from "../expr/expr-code.ts";
import { growsWithField } from "../expr/arithmetic.ts";
import { sharedSubPlans, SubPlanDigests } from "./sub-plan-digest.ts";
import { withInputParallelism } from "./inherit-parallelism.ts";
import { ChangelogMode, formatChangelogMode } from "./changelog-mode.ts";
import { ChangelogModes } from "./changelog-inference.ts";
import type { PrunedInputs, RelNode, RelNodeOf } from "./rel-node.ts";
import { systemClock } from "../../util/clock.ts";

/** The settings of the session that operators read. */
export interface TranslationSettings {
  /** `table.exec.state.ttl` in ms (0: forever). */
  stateTtlMs: number;
  /** `table.exec.source.idle-timeout` in ms (0: never idle). */
  idleTimeoutMs: number;
  /** The columns each source's rows are read for (projection push-down, from {@link sourceProjections}). */
  projections?: ReadonlyMap<TableSource, readonly number[]>;
  /** The fields of each source's ROW columns that are read, where not all are (nested projection push-down, from {@link sourceNestedProjections}). */
  nestedProjections?: ReadonlyMap<TableSource, ReadonlyMap<number, readonly number[]>>;
  /** `table.exec.mini-batch.*` when enabled: group aggregations fold buffered rows (see mini-batch-group-aggregate.ts). */
  miniBatch?: MiniBatchSpec;
  /** `table.optimizer.reuse-sub-plan-enabled`: nodes with equal digests (see sub-plan-digest.ts) are translated once. */
  reuseSubPlans?: boolean;
  /** `table.optimizer.agg-phase-strategy` (default `AUTO`): which window aggregations run in two phases (see agg-phase-strategy.ts). */
  aggPhaseStrategy?: AggPhaseStrategy;
}


/** Translates plan nodes to streams on `env`. */
export class PlanTranslator {
  private readonly streams = new Map<RelNode, DataStream<Row>>();
  /** Watermarks that sources generate per split (registered before the source is translated). */
  private readonly sourceWatermarks = new Map<TableSource, SourceWatermarks>();
  private readonly sources = new Map<TableSource, DataStream<Row>>();
  /** The streams of the sources whose records Calcs read (see `recordsOf`); their rows, if also read, are in `sources`. */
  private readonly records = new Map<TableSource, DataStream<unknown>>();
  /** The rowtime of a folded watermark's source, over its rows (an evaluator with its code where it has one). */
  private readonly rowtimes = new Map<TableSource, Evaluator>();
  /** Watermark assigners handed over to their sources. */
  private readonly folded = new Set<RelNode>();
  /** With sub-plan reuse: the digests of the nodes, and the stream of each digest translated. */
  private readonly digests: SubPlanDigests | undefined;
  private readonly reused = new Map<string, DataStream<Row>>();
  /** With sub-plan reuse: the digests of the sub-plans that the roots read more than once (each ends a Calc chain). */
  private readonly shared: ReadonlyMap<string, number> | undefined;

  /**
   * @param roots the plans that will be translated (with sub-plan reuse, a sub-plan they share is one
   *   stream that each consumer reads, never fused into one consumer's Calc and computed again for another)
   */
  constructor(
    private readonly env: StreamExecutionEnvironment,
    private readonly uidFor: (prefix: string) => string,
    private readonly settings: TranslationSettings,
    roots: readonly RelNode[] = [],
  ) {
    this.digests = settings.reuseSubPlans ? new SubPlanDigests() : undefined;
    this.shared = this.digests === undefined ? undefined : sharedSubPlans(roots, this.digests);
  }

  /** The stream of `node`'s rows (each node is translated once; with sub-plan reuse, each digest once). */
  translate(node: RelNode): DataStream<Row> {
    let s = this.streams.get(node);
    if (s === undefined) {
      const digest = this.digests?.of(node);
      s = digest === undefined ? undefined : this.reused.get(digest);
      if (s === undefined) {
        s = this.create(node);
        this.describe(s, node);
        if (digest !== undefined) this.reused.set(digest, s);
      }
      this.streams.set(node, s);
    }
    return s;
  }

  /**
   * The rows of `node` with their field `names` (the first `names.length` fields), as a table becomes a
   * stream: a Calc on top gives its rows their names itself; below anything else an operator does.
   */
  translateNamed(node: RelNode, names: string[]): DataStream<Row> {
    if ((node.kind === "project" || node.kind === "filter") && node.rowType.names.length === names.length && !this.streams.has(node)) {
      const s = this.calc(node, names);
      this.describe(s, node);
      this.streams.set(node, s);
      return s;
    }
    const stream = this.translate(node);
    const width = names.length;
    return withInputParallelism(stream.map((r: Row): Row => ({ kind: r.kind, fields: r.fields.length === width ? r.fields : r.fields.slice(0, width), names }))
      .name("ToRow"), stream);
  }

  /** Inferred once for every node translated (the plan was checked before translation). */
  private modes: ChangelogModes | undefined;

  /**
   * The description of the operator that ends `node`'s translation, for the job's plan (REST, dashboard): the
   * node as EXPLAIN names it and the row kinds it emits (`changelogMode=[I,UB,UA]`). An operator that a node
   * passes through untouched keeps the description of the node that made it.
   */
  private describe(s: DataStream<Row>, node: RelNode): void {
    if (!(s instanceof SingleOutputStreamOperator)) return;
    this.modes ??= new ChangelogModes(node);
    s.describeIfUndescribed(`${describeNode(node)}, changelogMode=[${formatChangelogMode(this.modes.of(node))}]`);
  }

  private naming(node: RelNode, kind: string): OperatorNaming {
    return { uid: this.uidFor(kind), name: describeNode(node) };
  }

  /**
   * The naming of an operator that keeps rows until they are retracted (regular join, Top-N, deduplication):
   * when column pruning left some fields of its input rows NULL, its uid names the fields they keep
   * (`join-pruned-…`), so a savepoint whose rows have another shape (an earlier Weir, another query) is refused
   * at restore ("no operator of this job has that uid") instead of missing retractions.
   */
  private keptRowsNaming(node: RelNodeOf<"join" | "rank" | "deduplicate">, kind: string): OperatorNaming {
    const n = this.naming(node, kind);
    if (node.prunedInputs === undefined) return n;
    return { ...n, uid: `${n.uid}-pruned-${fieldsDigest(node.prunedInputs)}` };
  }

  private create(node: RelNode): DataStream<Row> {
    switch (node.kind) {
      case "scan": {
        // one source per table source, also for the copies a FROM alias makes of its scan
        let s = this.sources.get(node.source);
        if (s === undefined) {
          const source = node.source;
          const { projection, nested } = this.pushedDown(source);
          const records = this.records.get(source);
          if (records === undefined) s = source.produce(this.sourceWatermarks.get(source), projection, nested);
          else {
            // a Calc reads the source's records: the other consumers read its rows, made of them
            const toRow = source.records!.toRow(projection, nested);
            s = withInputParallelism(records.map(toRow).uid(this.uidFor("source-rows")).name("ToRow"), records);
          }
          this.sources.set(source, s);
        }
        return s;
      }
      case "dataStream":
        return node.stream;
      case "values": {
        const rows = node.rows;
        const n = this.naming(node, "values");
        return this.env
          .fromCollection(rows.map((_, i) => i))
          .uid(this.uidFor("source-values")) // derived as every uid of a plan, so no warning asks the user for one
          .map((i: number): Row => ({ kind: "+I", fields: [...rows[i]!] }))
          .uid(n.uid)
          .name(n.name);
      }
      case "project":
      case "filter":
        return this.calc(node);
      case "watermarkAssigner":
        return this.watermarks(node);
      case "union": {
        const [first, ...rest] = node.inputs.map((i) => this.translate(i));
        return first!.union(...rest);
      }
      case "correlate": {
        const { fn, joinType } = node;
        const args = node.args.map((a) => a.eval);
        const pad = fn.columns.map(() => null);
        const n = this.naming(node, "correlate");
        const input = this.translate(node.input);
        return withInputParallelism(input
          .flatMap((row: Row, out: Collector<Row>) => {
            const rows = fn.invoke(args.map((a) => a(row.fields)));
            for (const r of rows) out.collect({ kind: row.kind, fields: [...row.fields, ...r] });
            if (rows.length === 0 && joinType === "LEFT") out.collect({ kind: row.kind, fields: [...row.fields, ...pad] });
          })
          .uid(n.uid)
          .name(n.name), input);
      }
      case "lookupJoin": {
        const { source, joinType, condition } = node;
        const input = this.translate(node.input);
        const spec = {
          joinType,
          keys: node.keys.map((k) => k.eval),
          lookupKeys: node.lookupKeys,
          rightArity: node.tableType.names.length,
          ...(condition === undefined ? {} : { condition: condition.eval }),
          table:
            source.lookup !== undefined
              ? { provider: source.lookup(node.lookupKeys), clock: this.env.options.clock ?? systemClock }
              : { load: () => source.readAll!() },
        };
        return withInputParallelism(lookupJoin(input, spec, this.naming(node, "lookup-join")), input);
      }
      case "replicate": {
        const count = node.countField;
        const n = this.naming(node, "replicate");
        const input = this.translate(node.input);
        return withInputParallelism(input
          .flatMap((row: Row, out: Collector<Row>) => {
            const times = Number(row.fields[count] as bigint);
            const fields = row.fields.slice(0, count);
            for (let i = 0; i < times; i++) out.collect({ kind: row.kind, fields: [...fields] });
          })
          .uid(n.uid)
          .name(n.name), input);
      }
      default:
        return this.stateful(node);
    }
  }

  /**
   * A chain of filters and projections (through a watermark assigner that its source takes over) as one
   * operator, Flink's Calc: see `compileCalc`. The chain stops at a node translated already and, with sub-plan
   * reuse, at a sub-plan that several consumers share, so a node that several others read is computed once.
   * Each node still takes its uid, as when each was an operator. With `names`, its rows carry them (see `translateNamed`).
   */
  private calc(node: RelNodeOf<"project" | "filter">, names?: string[]): DataStream<Row> {
    const chain: RelNodeOf<"project" | "filter">[] = [node];
    let below = node.input;
    for (;;) {
      if (this.shared?.has(this.digests!.of(below))) break;
      if (below.kind === "watermarkAssigner" && this.foldWatermarks(below)) below = below.input;
      else if ((below.kind === "project" || below.kind === "filter") && !this.streams.has(below)) {
        chain.push(below);
        below = below.input;
      } else break;
    }
    // a projection that column pruning added takes no uid: the Calc keeps the uid of the node under it, as before pruning
    const namings = chain.filter((c) => !(c.kind === "project" && c.pruning)).map((c) => this.naming(c, c.kind === "project" ? "calc" : "filter"));
    const n = namings[0] ?? this.naming(node, "calc");
    chain.reverse();
    const steps = chain.map((c): CalcStep => (c.kind === "filter" ? { kind: "filter", condition: c.condition } : { kind: "project", exprs: c.exprs }));
    const name = chain.length === 1 ? n.name : chain.map((c) => describeNode(c)).reverse().join(" <- ");
    const records = below.kind === "scan" ? this.recordsOf(below.source, below.rowType.names.length) : undefined;
    if (records !== undefined) {
      const program = compileCalc(steps, below.rowType.names.length, records);
      const calc = records.stream
        .flatMap((record: unknown, out: Collector<Row>) => {
          const fields = program(record);
          if (fields !== undefined) out.collect(names === undefined ? { kind: RowKind.INSERT, fields } : { kind: RowKind.INSERT, fields, names });
        })
        .uid(n.uid)
        .name(name);
      return withInputParallelism(calc, records.stream);
    }
    const program = compileCalc(steps, below.rowType.names.length);
    const input = this.translate(below);
    if (names === undefined && chain.every((c) => c.kind === "filter")) {
      return withInputParallelism(input.filter((row: Row) => program(row.fields) !== undefined).uid(n.uid).name(name), input);
    }
    const project = () =>
      input
        .flatMap((row: Row, out: Collector<Row>) => {
          const fields = program(row.fields);
          if (fields !== undefined) out.collect(names === undefined ? { kind: row.kind, fields } : { kind: row.kind, fields, names });
        })
        .uid(n.uid)
        .name(name);
    // ending in a projection, the Calc's rows are new arrays (a filter last may hand on its input's)
    const calc = node.kind === "project" ? this.isolating([below], project) : project();
    return withInputParallelism(calc, input);
  }

  /**
   * The records of a scan's source for a Calc over it (see `TableSourceRecords`), added to the job once;
   * undefined when the source has none, when its rows were added already, or when its WATERMARK reads
   * more than the rowtime (then the Calc reads rows).
   */
  private recordsOf(source: TableSource, width: number): (RecordScope & { stream: DataStream<unknown> }) | undefined {
    const records = source.records;
    if (records === undefined) return undefined;
    const scope: RecordScope = { columns: records.columns, ...this.pushedDown(source) };
    let stream = this.records.get(source);
    if (stream === undefined) {
      if (this.sources.has(source)) return undefined;
      const spec = this.sourceWatermarks.get(source);
      let watermarks: RecordWatermarks | undefined;
      if (spec !== undefined) {
        const { watermarkOfRowtime } = spec;
        if (watermarkOfRowtime === undefined) return undefined;
        // the rowtime over the record, generated as the Calc is
        const w = new ExprWriter();
        const rowtimeOf = w.compile<(record: unknown) => SqlValue>("r", [`return ${w.write(this.rowtimes.get(source)!, recordScope(scope, width, "r"))};`]);
        watermarks = { ...spec, watermarkOfRowtime, rowtimeOf };
      }
      stream = records.produce(watermarks);
      this.records.set(source, stream);
    }
    return { ...scope, stream };
  }

  /** What the job reads of a source's columns and ROW fields (projection push-down), where it reads less than all. */
  private pushedDown(source: TableSource): { projection?: readonly number[]; nested?: ReadonlyMap<number, readonly number[]> } {
    const projection = this.settings.projections?.get(source);
    const nested = this.settings.nestedProjections?.get(source);
    return { ...(projection === undefined ? {} : { projection }), ...(nested?.size ? { nested } : {}) };
  }

  /**
   * A table's watermark: generated per split in its source when the rows
   * come from a connector (through its computed columns), else by an
   * operator after the stream it reads.
   */
  private watermarks(node: RelNodeOf<"watermarkAssigner">): DataStream<Row> {
    if (this.folded.has(node) || this.foldWatermarks(node)) return this.translate(node.input);
    const n = this.naming(node, "watermarks");
    const input = this.translate(node.input);
    const field = node.rowtimeField;
    const strategy = sourceWatermarkStrategy({ rowtime: (f) => f[field]!, watermark: node.watermark.eval, idleTimeoutMs: this.settings.idleTimeoutMs });
    return withInputParallelism(input.assignTimestampsAndWatermarks(strategy).uid(n.uid).name(n.name), input);
  }

  /**
   * Hands a watermark assigner over a connector's scan (through its computed columns) to the source, which then
   * generates the watermarks per split; false when it cannot (another input, a source that does not support it,
   * or the source is translated already).
   */
  private foldWatermarks(node: RelNodeOf<"watermarkAssigner">): boolean {
    const field = node.rowtimeField;
    let below = node.input;
    let computed: Evaluator[] | undefined;
    if (below.kind === "project" && below.input.kind === "scan") {
      computed = below.exprs.map((e) => e.eval);
      below = below.input;
    }
    if (below.kind !== "scan" || below.source.supportsWatermarkPushDown !== true || this.sources.has(below.source) || this.records.has(below.source)) return false;
    const wm = node.watermark;
    // computed per record in the source: one generated function each, as the Calc
    const rowtimeOfRow: Evaluator = computed === undefined ? withCode((f) => f[field]!, { op: "field", index: field }) : computed[field]!;
    const rowtime = generateEvaluator(rowtimeOfRow);
    const all = computed;
    const watermark: Evaluator = all === undefined ? wm.eval : (f) => wm.eval(all.map((e) => e(f)));
    let watermarkOfRowtime: ((t: SqlValue) => SqlValue) | undefined;
    if (wm.reads !== undefined && wm.reads.every((r) => r === field)) {
      // an array of this source's own, for the one field the expression reads
      const scratch = new Array<SqlValue>(node.input.rowType.names.length).fill(null);
      const ofScratch = generateEvaluator(wm.eval);
      watermarkOfRowtime = (t) => {
        scratch[field] = t;
        return ofScratch(scratch);
      };
    }
    const ofRowtime = watermarkOfRowtime === undefined ? {} : { watermarkOfRowtime, watermarkGrowsWithRowtime: growsWithField(wm.eval, field) };
    const alignment = below.source.watermarkAlignment;
    this.sourceWatermarks.set(below.source, { rowtime, watermark, ...ofRowtime, idleTimeoutMs: this.settings.idleTimeoutMs, ...(alignment === undefined ? {} : { alignment }) });
    this.rowtimes.set(below.source, rowtimeOfRow);
    this.folded.add(node);
    return true;
  }

  /**
   * Runs `create`, which adds a join, an aggregation, a window table function or a Calc ending in a
   * projection over the rows of `inputs` (already translated), and,
   * when those rows hold immutable values only (no DECIMAL, bytes, ARRAY, MAP, MULTISET or ROW: objects
   * that code after the operator could change), marks the operators it added that read them as leaving
   * records alone (`StreamNode.isolatesInput`): they never change a row they are given and emit rows of their
   * own, so consumers of one stream that all are such operators share its rows instead of a copy each.
   */
  private isolating<T>(inputs: readonly RelNode[], create: () => T): T {
    const nodes = this.env.graph.nodes;
    const before = nodes.length;
    const stream = create();
    if (inputs.every((n) => n.rowType.types.every(hasPrimitiveValues)))
      for (let id = before; id < nodes.length; id++) if (nodes[id]!.inputs.some((e) => e.from < before)) nodes[id]!.isolatesInput = true;
    return stream;
  }

  /** A join of `node`'s inputs: both translated, then `create` over their streams (see {@link isolating}). */
  private join<T>(node: { readonly left: RelNode; readonly right: RelNode }, create: (left: DataStream<Row>, right: DataStream<Row>) => T): T {
    const left = this.translate(node.left);
    const right = this.translate(node.right);
    return this.isolating([node.left, node.right], () => create(left, right));
  }

  private stateful(node: RelNode): DataStream<Row> {
    const ttl = this.settings.stateTtlMs > 0 ? { stateTtlMs: this.settings.stateTtlMs } : {};
    switch (node.kind) {
      case "aggregate": {
        const input = this.translate(node.input);
        return this.isolating([node.input], () => groupAggregate(input, { groupKeys: node.groupKeys, calls: node.calls, generateUpdateBefore: true, ...ttl, ...(this.settings.miniBatch ? { miniBatch: this.settings.miniBatch } : {}) }, this.naming(node, "group-aggregate")));
      }
      case "expand":
        return expand(this.translate(node.input), { groupKeys: node.groupKeys, groupingSets: node.groupingSets }, this.naming(node, "expand"));
      case "windowTableFunction": {
        const input = this.translate(node.input);
        return this.isolating([node.input], () => windowTableFunction(input, node.window, this.naming(node, "window-table-function")));
      }
      case "windowAggregate": {
        const input = this.translate(node.input);
        const spec = { window: node.window, groupKeys: node.groupKeys, calls: node.calls };
        const naming = this.naming(node, "window-aggregate");
        const w = node.window;
        if (w.kind === "session" || !runsInTwoPhases(node, this.settings.aggPhaseStrategy ?? "AUTO")) return this.isolating([node.input], () => windowAggregate(input, spec, naming));
        // the global phase keeps the one-phase operator's uid and state; the local phase has none
        const partials = this.isolating([node.input], () =>
          localWindowAggregate(input, { ...spec, window: w }, { uid: this.uidFor("local-window-aggregate"), name: describeLocalWindowAggregate(node) }),
        );
        return globalWindowAggregate(withInputParallelism(partials, input), spec, { uid: naming.uid, name: `Global${naming.name}` });
      }
      case "overAggregate":
        return overAggregate(this.translate(node.input), { partitionKeys: node.partitionKeys, timeField: node.timeField, frame: node.frame, calls: node.calls }, this.naming(node, "over-aggregate"));
      case "rank":
        return rank(
          this.translate(node.input),
          {
            partitionKeys: node.partitionKeys,
            orderBy: node.orderBy,
            rankType: node.rankType,
            rankStart: node.rankStart,
            rankEnd: node.rankEnd,
            outputRankNumber: node.outputRankNumber,
            generateUpdateBefore: true,
            inputInsertOnly: ChangelogMode.isInsertOnly(new ChangelogModes(node.input).of(node.input)),
          },
          this.keptRowsNaming(node, "rank"),
        );
      case "deduplicate":
        return deduplicate(
          this.translate(node.input),
          { keys: node.keys, keepLast: node.keepLast, ...(node.timeField === undefined ? {} : { timeField: node.timeField }), generateUpdateBefore: true },
          this.keptRowsNaming(node, "deduplicate"),
        );
      case "windowRank": {
        const input = this.translate(node.input);
        const spec = { partitionKeys: node.partitionKeys, orderBy: node.orderBy, rankType: node.rankType, rankStart: node.rankStart, rankEnd: node.rankEnd, outputRankNumber: node.outputRankNumber, windowStartField: node.window[0], windowEndField: node.window[1] };
        const naming = this.naming(node, "window-rank");
        if (!windowRankRunsInTwoPhases(this.settings.aggPhaseStrategy ?? "AUTO")) return windowRank(input, spec, naming);
        // the window rank keeps its uid and state; the local phase before its exchange has none
        const best = localWindowRank(input, spec, { uid: this.uidFor("local-window-rank"), name: `Local${naming.name}` });
        return windowRank(withInputParallelism(best, input), spec, naming);
      }
      case "windowDeduplicate":
        return windowDeduplicate(
          this.translate(node.input),
          { keys: node.keys, keepLast: node.keepLast, timeField: node.timeField, windowStartField: node.window[0], windowEndField: node.window[1] },
          this.naming(node, "window-deduplicate"),
        );
      case "join": {
        const b = node.timeBounds;
        if (b !== undefined && this.settings.stateTtlMs <= 0 && [node.left, node.right].every((n) => ChangelogMode.isInsertOnly(new ChangelogModes(n).of(n)))) {
          // the regular join's result with one side's state bounded: see IntervalJoinSpec.retain
          return this.join(node, (left, right) =>
            intervalJoin(
              left,
              right,
              { ...joinSpec(node), leftTimeField: b.leftTimeField, rightTimeField: b.rightTimeField, lowerBound: b.lowerBound, upperBound: b.upperBound, retain: b.retained },
              this.naming(node, "time-bounded-join"),
            ),
          );
        }
        return this.join(node, (left, right) => regularJoin(left, right, { ...joinSpec(node), ...ttl }, this.keptRowsNaming(node, "join")));
      }
      case "intervalJoin":
        return this.join(node, (left, right) =>
          intervalJoin(
            left,
            right,
            { ...joinSpec(node), leftTimeField: node.leftTimeField, rightTimeField: node.rightTimeField, lowerBound: node.lowerBound, upperBound: node.upperBound },
            this.naming(node, "interval-join"),
          ),
        );
      case "windowJoin":
        return this.join(node, (left, right) =>
          windowJoin(
            left,
            right,
            { ...joinSpec(node), leftWindowStart: node.leftWindow[0], leftWindowEnd: node.leftWindow[1], rightWindowStart: node.rightWindow[0], rightWindowEnd: node.rightWindow[1] },
            this.naming(node, "window-join"),
          ),
        );
      case "temporalJoin":
        return temporalJoin(
          this.translate(node.left),
          this.translate(node.right),
          { ...joinSpec(node), leftTimeField: node.leftTimeField, rightTimeField: node.rightTimeField },
          this.naming(node, "temporal-join"),
        );
      default:
        throw new Error(`internal: no translation of ${node.kind}`);
    }
  }
}

/** A short digest of the fields kept per input (FNV-1a of their text, base 36). */
function fieldsDigest(inputs: PrunedInputs): string {
  const text = inputs.map((fields) => fields.join(",")).join("|");
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(36);
}

/** The parts of a join node every join operator reads. */
function joinSpec(node: RelNodeOf<"join" | "intervalJoin" | "windowJoin" | "temporalJoin">): JoinSpec {
  return {
    joinType: node.joinType,
    leftKeys: node.leftKeys,
    rightKeys: node.rightKeys,
    leftArity: node.left.rowType.names.length,
    rightArity: node.right.rowType.names.length,
    ...(node.condition === undefined ? {} : { condition: node.condition.eval }),
  };
}
