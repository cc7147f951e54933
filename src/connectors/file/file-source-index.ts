/** Public API of the file source. */
export { FileSource, type FileRecordsOptions, type FileSourceOptions } from "./file-source.ts";
export type { CsvOptions } from "./csv-format.ts";
export type { DeadLetter } from "./file-source-reader.ts";
export { FileSourceParseError, FileSourcePathError } from "./file-source-errors.ts";
export { deadLetterCount, type DiscoverySplit, type FileSourceSplit, type FileSplit, type TallySplit } from "./file-source-split.ts";
