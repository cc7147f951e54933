/**
 * The last watermark an operator that generates watermarks emitted, kept in
 * every checkpoint. After a restore the operator emits it again before the
 * replayed records, so they are judged late or on time exactly as in the run
 * that failed (watermark generators themselves start empty). Union list state:
 * after a rescale a subtask takes the minimum over the old subtasks.
 */
import { ListStateDescriptor, type ListState, type OperatorStateBackend } from "../../state/index.ts";

export class WatermarkState {
  private readonly state: ListState<number>;

  constructor(operatorState: OperatorStateBackend) {
    this.state = operatorState.getUnionListState(new ListStateDescriptor<number>("_watermark"));
  }

  /** The watermark to emit again after a restore (-Infinity if none). */
  restored(): number {
    const all = this.state.get();
    return all.length === 0 ? Number.NEGATIVE_INFINITY : Math.min(...all);
  }

  /** At a checkpoint: the last emitted watermark. */
  save(watermark: number): void {
    this.state.update(watermark === Number.NEGATIVE_INFINITY ? [] : [watermark]);
  }
}
