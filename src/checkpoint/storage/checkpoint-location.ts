/**
 * The one place that turns a checkpoint location as a user gives it (the
 * `--checkpoint-dir` flag, `setCheckpointStorage(…)`, SQL's
 * `SET 'state.checkpoints.dir'`) into a local directory path. Pure, no I/O.
 */
import { fileURLToPath } from "node:url";
import { UnsupportedCheckpointLocationError } from "./errors.ts";

/** `scheme://…` (a Windows drive such as `C:\` has no `//` and is not one). */
const URI_SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//;

/**
 * The local directory of checkpoint location `location`: a path as it is, a
 * `file://` URI as its path (`file:///abs` → `/abs`, `file://rel` → `rel`);
 * throws {@link UnsupportedCheckpointLocationError} for any other URI scheme.
 *
 * @example
 * ```ts
 * checkpointDirectoryOf(".weir/checkpoints/orders");        // ".weir/checkpoints/orders"
 * checkpointDirectoryOf("file:///var/weir/checkpoints");    // "/var/weir/checkpoints"
 * checkpointDirectoryOf("s3://bucket/checkpoints");         // throws: the 's3://' scheme is not supported
 * ```
 */
export function checkpointDirectoryOf(location: string): string {
  const scheme = URI_SCHEME.exec(location)?.[1]?.toLowerCase();
  if (scheme === undefined) return location;
  if (scheme !== "file") throw new UnsupportedCheckpointLocationError(location, scheme);
  return location.startsWith("file:///") ? fileURLToPath(location) : location.slice("file://".length);
}
