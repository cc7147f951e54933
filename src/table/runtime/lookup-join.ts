/**
 * The lookup join (`JOIN t FOR SYSTEM_TIME AS OF l.proc_time ON …`, Flink's
 * `LookupJoinOperator`): each row of the left input joins the rows of the
 * table `t` whose lookup key equals the row's key, as the table is when the
 * row is looked up. Two ways, by what the connector offers:
 *
 * - a keyed lookup (`TableSource.lookup`, e.g. `jdbc`): each row's key is
 *   looked up asynchronously (async I/O, results in input order), through a
 *   PARTIAL cache when the table has one; requests for a key already in
 *   flight share its answer. The rows in flight are part of checkpoints and
 *   are looked up again after a restore.
 * - the whole table (`TableSource.readAll`, e.g. `filesystem`, Flink's full
 *   cache): each parallel instance reads the table when it opens (also after
 *   a restart) and keeps it in memory by key; it is not re-read while the
 *   job runs. The operator keeps no state.
 *
 * The left row's kind passes through: an insert joins as inserts, a
 * retraction retracts what its insert joined (with a keyed lookup, when the
 * table did not change in between), so the output has the left input's
 * changelog mode, in the input's order. A NULL key matches nothing (and is
 * not looked up); a LEFT join pads the rows without a match with NULLs.
 */
import { AsyncDataStream } from "../../api/async-data-stream.ts";
import type { DataStream, SingleOutputStreamOperator } from "../../api/data-stream.ts";
import { RichAsyncFunction, type ResultFuture } from "../../core/async-function.ts";
import type { Collector } from "../../core/collector.ts";
import { ProcessFunction, type ProcessContext } from "../../core/process-function.ts";
import type { Clock } from "../../util/clock.ts";
import type { LookupFunction, LookupProvider } from "../connectors/dynamic-table-factory.ts";
import type { Row } from "../data/row.ts";
import type { Evaluator } from "../expr/bound-expr.ts";
import type { SqlValue } from "../types/sql-value.ts";
import { sqlValueKey } from "../types/sql-value-key.ts";
import { joinedFields } from "./join-spec.ts";
import { LookupCache } from "./lookup-cache.ts";
import type { OperatorNaming } from "./operator-naming.ts";

/** A planned lookup join. */
export interface LookupJoinSpec {
  joinType: "INNER" | "LEFT";
  /** The lookup key of a left row: one value per lookup column, already of the column's type. */
  keys: readonly Evaluator[];
  /** Positions of the lookup columns in the table's rows. */
  lookupKeys: readonly number[];
  rightArity: number;
  /** The rest of the join condition, over a left row's fields followed by a table row's. */
  condition?: Evaluator;
  /** How the table is read: whole (`load`), or per key through a provider (its cache expires on `clock`). */
  table: { load(): Promise<readonly Row[]> } | { provider: LookupProvider; clock: Clock };
}

/** The key text of `values`, or undefined when one is NULL (it then matches nothing). */
function keyOf(values: readonly SqlValue[]): string | undefined {
  let key = "";
  for (const v of values) {
    if (v === null) return undefined;
    key += sqlValueKey(v) + "\u0001";
  }
  return key;
}

/** Emits `row` joined with each of `rights` that meets the condition (a LEFT join: padded when none does). */
function joinRow(spec: LookupJoinSpec, row: Row, rights: readonly (readonly SqlValue[])[], out: Pick<Collector<Row>, "collect">): void {
  const { condition, rightArity, joinType } = spec;
  const left = row.fields;
  let matched = false;
  for (const right of rights) {
    const fields = joinedFields(left, left.length, right, rightArity);
    if (condition !== undefined && condition(fields) !== true) continue;
    matched = true;
    out.collect({ kind: row.kind, fields });
  }
  if (!matched && joinType === "LEFT") out.collect({ kind: row.kind, fields: joinedFields(left, left.length, null, rightArity) });
}

/** The whole table in memory by key, read when the instance opens. */
class LookupJoinFunction extends ProcessFunction<Row, Row> {
  private byKey = new Map<string, SqlValue[][]>();

  constructor(
    private readonly spec: LookupJoinSpec,
    private readonly load: () => Promise<readonly Row[]>,
  ) {
    super();
  }

  async open(): Promise<void> {
    const byKey = new Map<string, SqlValue[][]>();
    for (const row of await this.load()) {
      const key = keyOf(this.spec.lookupKeys.map((p) => row.fields[p] ?? null));
      if (key === undefined) continue;
      let rows = byKey.get(key);
      if (rows === undefined) byKey.set(key, (rows = []));
      rows.push(row.fields);
    }
    this.byKey = byKey;
  }

  processElement(row: Row, _ctx: ProcessContext, out: Collector<Row>): void {
    const key = keyOf(this.spec.keys.map((k) => k(row.fields)));
    joinRow(this.spec, row, (key === undefined ? undefined : this.byKey.get(key)) ?? [], out);
  }
}

/** Looks each row's key up (async I/O), through the cache. */
class AsyncLookupJoinFunction extends RichAsyncFunction<Row, Row> {
  // Set in open(): the operator's copy of this object must not share them with another instance's.
  private lookup!: LookupFunction;
  private cache: LookupCache<readonly SqlValue[]> | undefined;
  private inFlight!: Map<string, Promise<readonly (readonly SqlValue[])[]>>;

  constructor(
    private readonly spec: LookupJoinSpec,
    private readonly provider: LookupProvider,
    private readonly clock: Clock,
  ) {
    super();
  }

  override async open(): Promise<void> {
    const options = this.provider.cache;
    this.cache = options === undefined ? undefined : new LookupCache(options, () => this.clock.now());
    this.inFlight = new Map();
    this.lookup = await this.provider.open();
  }

  override async close(): Promise<void> {
    await this.lookup?.close();
  }

  asyncInvoke(row: Row, result: ResultFuture<Row>): void {
    const values = this.spec.keys.map((k) => k(row.fields));
    const key = keyOf(values);
    const complete = (rights: readonly (readonly SqlValue[])[]) => {
      const out: Row[] = [];
      joinRow(this.spec, row, rights, { collect: (r) => void out.push(r) });
      result.complete(out);
    };
    if (key === undefined) return complete([]);
    const cached = this.cache?.get(key);
    if (cached !== undefined) return complete(cached);
    let pending = this.inFlight.get(key);
    if (pending === undefined) {
      pending = this.lookup.lookup(values).then(
        (rows) => {
          this.inFlight.delete(key);
          const fields = rows.map((r) => r.fields);
          this.cache?.put(key, fields);
          return fields;
        },
        (e: unknown) => {
          this.inFlight.delete(key);
          throw e;
        },
      );
      this.inFlight.set(key, pending);
    }
    pending.then(complete, (e: unknown) => result.completeExceptionally(e));
  }
}

/**
 * Joins each row of `input` with the rows of a table looked up by key.
 *
 * @example
 * ```ts
 * // SELECT * FROM bids b JOIN rates FOR SYSTEM_TIME AS OF b.proc_time AS r ON b.currency = r.currency
 * lookupJoin(bids, { joinType: "INNER", keys: [(f) => f[2]!], lookupKeys: [0], rightArity: 2, table: { load: () => readRates() } }, naming);
 * ```
 */
export function lookupJoin(input: DataStream<Row>, spec: LookupJoinSpec, naming: OperatorNaming): SingleOutputStreamOperator<Row> {
  const t = spec.table;
  if ("load" in t) return input.process(new LookupJoinFunction(spec, t.load)).uid(naming.uid).name(naming.name);
  const joined = AsyncDataStream.orderedWait(input, new AsyncLookupJoinFunction(spec, t.provider, t.clock), 0).uid(naming.uid).name(naming.name);
  if (t.provider.check !== undefined) input.getExecutionEnvironment().addLaunchCheck(joined, t.provider.check);
  return joined;
}
