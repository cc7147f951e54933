/** Errors a user can cause with windows, naming the operator. */

/** An event-time window got a record without a timestamp (no timestamp assigner / watermark strategy upstream). */
export class MissingWindowTimestampError extends Error {
  constructor(
    readonly operatorUid: string,
    readonly assigner: string,
  ) {
    super(
      `window operator '${operatorUid}' (${assigner}): record has no timestamp (= no timestamp marker). ` +
        `Is the time characteristic set to processing time, or did you forget to call 'DataStream.assignTimestampsAndWatermarks(...)'?`,
    );
    this.name = "MissingWindowTimestampError";
  }
}

/** Merging windows produced a window that ends before the current time (a custom merging assigner misbehaved). */
export class WindowMergeError extends Error {
  constructor(operatorUid: string, detail: string) {
    super(`window operator '${operatorUid}': ${detail}`);
    this.name = "WindowMergeError";
  }
}
