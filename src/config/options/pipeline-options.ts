/**
 * Options of the job's pipeline: parallelism, key groups, name, periodic
 * watermarks and object reuse (Flink's `PipelineOptions`, `CoreOptions`).
 */
import { ConfigOptions } from "../config-option.ts";

const positive = (n: number) => (n > 0 ? undefined : "a whole number > 0");

/** `parallelism.default`: the parallelism of operators that set none. */
export const PARALLELISM = ConfigOptions.int("parallelism.default", "The parallelism of operators that do not set their own.", 1, { check: positive });

/** `pipeline.max-parallelism`: the number of key groups. */
export const MAX_PARALLELISM = ConfigOptions.int(
  "pipeline.max-parallelism",
  "The number of key groups: the highest parallelism keyed state can be rescaled to.",
  128,
  { check: positive },
);

/** `pipeline.name`: the job's name. */
export const PIPELINE_NAME = ConfigOptions.string("pipeline.name", "The name of the job (SQL jobs; a DataStream job's name is the argument of execute()).");

/** `pipeline.auto-watermark-interval`: periodic watermarks of the sources. */
export const AUTO_WATERMARK_INTERVAL = ConfigOptions.duration(
  "pipeline.auto-watermark-interval",
  "The interval of the sources' periodic watermarks; 0 disables them.",
  200,
);

/** `pipeline.object-reuse`: consumers of a record share it. */
export const OBJECT_REUSE = ConfigOptions.boolean(
  "pipeline.object-reuse",
  "Whether the consumers of one record share it instead of each getting its own copy (only for jobs whose functions never mutate their input).",
  false,
);

export const PIPELINE_OPTIONS = [PARALLELISM, MAX_PARALLELISM, PIPELINE_NAME, AUTO_WATERMARK_INTERVAL, OBJECT_REUSE] as const;
