/**
 * Node.js sources and sinks: async iterables (`env.fromAsyncIterable`), the
 * lines of a `Readable` (`env.fromReadable`), and a line per record to a
 * `Writable` (at-least-once).
 */
export { AsyncIterableSource, type AsyncIterableInput, type IterableSplit } from "./async-iterable-source.ts";
export { ReadableLineSource, type ReadableSplit } from "./readable-line-source.ts";
export { SourceNotReplayableError, type Replayable } from "./replayable-input.ts";
export { WritableSink, type WritableSinkOptions } from "./writable-sink.ts";
