/**
 * The watermarks an operator that generates them keeps in every checkpoint:
 * the last watermark it emitted and, for a source reader, each split's
 * watermark. After a restore the operator emits its last watermark again
 * before the replayed records, and each split resumes from its own, so
 * records are judged late or on time exactly as in the run that failed
 * (watermark generators themselves start empty). Union list state: every
 * subtask takes the minimum of the old subtasks' last watermarks (each old
 * subtask's list holds exactly one, -Infinity included: a subtask that had
 * not emitted one yet, e.g. a reader holding a file it has not started, keeps
 * every other subtask at -Infinity too), and each split's watermark goes
 * wherever the split goes.
 */
import { ListStateDescriptor, type ListState, type OperatorStateBackend } from "../../state/index.ts";

export class WatermarkState {
  private readonly state: ListState<number>;
  private readonly splits: ListState<[string, number]>;

  constructor(operatorState: OperatorStateBackend) {
    this.state = operatorState.getUnionListState(new ListStateDescriptor<number>("_watermark"));
    this.splits = operatorState.getUnionListState(new ListStateDescriptor<[string, number]>("_split_watermarks"));
  }

  /** The watermark to emit again after a restore: the lowest of the old subtasks' (-Infinity if none). */
  restored(): number {
    const all = this.state.get();
    return all.length === 0 ? Number.NEGATIVE_INFINITY : Math.min(...all);
  }

  /**
   * The split watermarks of every old subtask (split id → watermark); a split
   * listed twice (kept by a subtask that did not own it) takes the higher, its owner's.
   */
  restoredSplits(): Map<string, number> {
    const all = new Map<string, number>();
    for (const [id, wm] of this.splits.get()) all.set(id, Math.max(wm, all.get(id) ?? Number.NEGATIVE_INFINITY));
    return all;
  }

  /** At a checkpoint: the last emitted watermark and the splits' watermarks. */
  save(watermark: number, splits: ReadonlyMap<string, number> = new Map()): void {
    // -Infinity too: left out, the minimum on restore would skip this subtask and could be any other's,
    // a watermark this subtask never promised (its unread records would be dropped as late)
    this.state.update([watermark]);
    this.splits.update([...splits]);
  }
}
