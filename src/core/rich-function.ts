/**
 * Base class of user functions that need their runtime context (state,
 * subtask index) or lifecycle hooks (Flink's `AbstractRichFunction`). An
 * object literal gets the same (`open(context)`, `close()`,
 * `this.getRuntimeContext()`): see function-object.ts.
 */
import type { FunctionLifecycle } from "./function-object.ts";
import type { RuntimeContext } from "./runtime-context.ts";

/**
 * Extend it to get `open`/`close` hooks and `getRuntimeContext()`.
 *
 * @example
 * ```ts
 * class Tag extends RichFunction {
 *   private prefix = "";
 *   open() { this.prefix = `#${this.getRuntimeContext().getIndexOfThisSubtask()}`; }
 * }
 * ```
 */
export abstract class RichFunction implements FunctionLifecycle {
  private runtimeContext?: RuntimeContext;

  /** Called once per parallel instance before the first record (after state was restored); `context` is `getRuntimeContext()`. */
  open?(context: RuntimeContext): void | Promise<void>;
  /** Called once when the instance ends (finished, failed or cancelled). */
  close?(): void | Promise<void>;

  /** The context of the parallel instance; available from `open()` on. */
  getRuntimeContext(): RuntimeContext {
    if (!this.runtimeContext) throw new Error("getRuntimeContext() is available from open() on, not in the constructor");
    return this.runtimeContext;
  }

  /** @internal Set by the runtime before `open()`. */
  setRuntimeContext(context: RuntimeContext): void {
    this.runtimeContext = context;
  }
}
