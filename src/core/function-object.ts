/**
 * User functions written as object literals: the lifecycle every function
 * object may have (`open(context)`, `close()`), the type that makes `this`
 * inside their methods the object itself with `getRuntimeContext()`, and the
 * runtime side that gives a parallel instance its runtime context.
 */
import type { CheckpointListener, FunctionInitializationContext, FunctionSnapshotContext } from "./checkpointed-function.ts";
import type { RuntimeContext } from "./runtime-context.ts";

/**
 * Lifecycle hooks of any function object (a class extending RichFunction, or an
 * object literal): `open`/`close`, and the checkpoint hooks of
 * CheckpointedFunction (operator state: both `initializeState` and
 * `snapshotState`) and CheckpointListener.
 */
export interface FunctionLifecycle extends CheckpointListener {
  /**
   * Called once per parallel instance before the first record, after state was
   * restored: get state handles here (`context.getState(...)`) and keep them on `this`.
   */
  open?(context: RuntimeContext): void | Promise<void>;
  /** Called once when the instance ends (finished, failed or cancelled). */
  close?(): void | Promise<void>;
  /** Operator state: called before `open`, on every (re)start (with `snapshotState`). */
  initializeState?(context: FunctionInitializationContext): void | Promise<void>;
  /** Operator state: called at a checkpoint, before the state is captured (with `initializeState`). */
  snapshotState?(context: FunctionSnapshotContext): void;
}

/** What `this` has in every method of a function object besides its own members. */
export interface FunctionObjectThis {
  /** The context of the parallel instance running the function (state, subtask index); from `open` on. */
  getRuntimeContext(): RuntimeContext;
}

/**
 * A function given as an object with the methods `M` and any fields of its own
 * (`S`, inferred from the object literal). In its methods `this` is the object
 * — its fields typed as declared — with `getRuntimeContext()`. Each parallel
 * instance runs its own shallow copy of the object: keep per-instance data on
 * `this` (a closure variable would be shared by all instances of a thread), and
 * create mutable fields (maps, arrays) in `open`.
 *
 * Typing: parameter types come from the stream; the output type from what a
 * method returns or from the annotation of its collector (`out: Collector<R>`).
 * TypeScript infers the output type before it knows `this`, so a method whose
 * result is computed from `this` needs its return type annotated
 * (`map(v): string { return this.prefix + v; }`); giving the output type as a
 * type argument instead (`process<R>(...)`) leaves the object no fields of its own.
 *
 * @example
 * ```ts
 * keyed.process({
 *   count: undefined as ValueState<number> | undefined,
 *   open(ctx) { this.count = ctx.getState(new ValueStateDescriptor<number>("count", 0)); },
 *   processElement(word, ctx, out: Collector<string>) {
 *     const n = this.count!.value()! + 1;
 *     this.count!.update(n);
 *     out.collect(`${word} #${n}`);
 *   },
 * });
 * ```
 */
export type FunctionObject<M, S> = M & S & ThisType<M & S & FunctionObjectThis>;

/**
 * @internal The object the operators call for a function given as a lambda:
 * `{ [method]: fn }`; an object (class instance or literal) is returned as it is.
 */
export function asFunctionObject<M extends object>(fn: M | ((...args: never[]) => void), method: keyof M): M {
  return typeof fn === "function" ? ({ [method]: fn } as M) : fn;
}

/**
 * @internal A view of the function object `f` with extra methods (an adapter
 * the operators call): it inherits `f`'s members, so in the per-instance copy
 * of the view `this` is the instance for `f`'s methods, fields and hooks too.
 */
export function functionView<F extends object, M extends object>(f: F, methods: M & ThisType<F & M>): F & M {
  return Object.assign(Object.create(f) as F, methods);
}

/** The RichFunction side of a class instance (set by the runtime before `open`). */
interface RuntimeContextHolder {
  setRuntimeContext(context: RuntimeContext): void;
}

/**
 * @internal Gives the per-instance copy `f` of a function object its runtime
 * context: a RichFunction gets it set, any other object a `getRuntimeContext()`
 * method of its own (unless it has one). Plain functions have no `this`: nothing to do.
 */
export function provideRuntimeContext(f: unknown, context: RuntimeContext): void {
  if (typeof f !== "object" || f === null) return;
  if (typeof (f as RuntimeContextHolder).setRuntimeContext === "function") (f as RuntimeContextHolder).setRuntimeContext(context);
  else if (typeof (f as Partial<FunctionObjectThis>).getRuntimeContext !== "function")
    Object.defineProperty(f, "getRuntimeContext", { value: () => context, configurable: true });
}

/** @internal Calls the `open(context)` hook of a function object, if it has one. */
export async function openFunction(f: unknown, context: RuntimeContext): Promise<void> {
  if (typeof f === "object" && f !== null) await (f as FunctionLifecycle).open?.(context);
}

/** @internal Calls the `close()` hook of a function object, if it has one. */
export async function closeFunction(f: unknown): Promise<void> {
  if (typeof f === "object" && f !== null) await (f as FunctionLifecycle).close?.();
}
