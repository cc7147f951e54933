/**
 * The user-facing TimerService of process functions: a view of the keyed
 * timer service, or, on a non-keyed stream, one that has time but refuses
 * timers (as in Flink).
 */
import type { TimerService } from "../../core/process-function.ts";
import type { KeyedTimerService } from "../../time/timer-service.ts";
import type { ProcessingTimeService } from "../../time/processing-time-service.ts";

/** The TimerService view of keyed timers. */
export function timerServiceOf(timers: KeyedTimerService): TimerService {
  return {
    currentProcessingTime: () => timers.currentProcessingTime(),
    currentWatermark: () => timers.currentWatermark(),
    registerEventTimeTimer: (ts) => timers.registerEventTimeTimer(ts),
    registerProcessingTimeTimer: (ts) => timers.registerProcessingTimeTimer(ts),
    deleteEventTimeTimer: (ts) => timers.deleteEventTimeTimer(ts),
    deleteProcessingTimeTimer: (ts) => timers.deleteProcessingTimeTimer(ts),
  };
}

/** Time without timers, for non-keyed process functions. */
export function unkeyedTimerService(time: ProcessingTimeService, watermark: () => number): TimerService {
  const refuse = () => {
    throw new Error("timers can only be set on a keyed stream: use keyBy(...).process(new KeyedProcessFunction(...))");
  };
  return {
    currentProcessingTime: () => time.now(),
    currentWatermark: watermark,
    registerEventTimeTimer: refuse,
    registerProcessingTimeTimer: refuse,
    deleteEventTimeTimer: refuse,
    deleteProcessingTimeTimer: refuse,
  };
}
