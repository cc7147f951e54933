/**
 * Lets timers and messages from other threads run: a task whose inputs are
 * always ready would otherwise keep the thread busy with microtasks only.
 * Yields to the event loop when the thread has run for more than a few
 * milliseconds since the last yield.
 */
import { yieldToEventLoop } from "../../util/event-loop-turn.ts";

let lastYield = performance.now();
const SLICE_MS = 4;

/** Awaits one turn of the event loop if this thread has been busy for a while. */
export async function yieldIfBusy(): Promise<void> {
  const now = performance.now();
  if (now - lastYield < SLICE_MS) return;
  await yieldToEventLoop();
  lastYield = performance.now();
}
