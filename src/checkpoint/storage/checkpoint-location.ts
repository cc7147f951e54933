/**
 * The one place that turns a checkpoint or savepoint location as a user gives
 * it (the `--checkpoint-dir` flag, `setCheckpointStorage(…)`, SQL's
 * `SET 'state.checkpoints.dir'`, `state.savepoints.dir`) into what the
 * storage uses: a local directory path, or an `s3://bucket/key` URI of an
 * S3-compatible object store. Also the path arithmetic on both kinds. Pure, no I/O.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { UnsupportedCheckpointLocationError } from "./errors.ts";

/** `scheme://…` (a Windows drive such as `C:\` has no `//` and is not one). */
const URI_SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//;
/** An S3 bucket name (3–63 characters; dots allowed, as S3-compatible servers accept them). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * The location `location` names: a path as it is, a `file://` URI as its path
 * (`file:///abs` → `/abs`, `file://rel` → `rel`), an `s3://` (or `s3a://`,
 * `s3p://`, as Flink accepts) URI as `s3://bucket/key` without a trailing
 * slash; throws {@link UnsupportedCheckpointLocationError} for any other URI
 * scheme or an S3 URI without a valid bucket.
 *
 * @example
 * ```ts
 * checkpointDirectoryOf(".weir/checkpoints/orders");        // ".weir/checkpoints/orders"
 * checkpointDirectoryOf("file:///var/weir/checkpoints");    // "/var/weir/checkpoints"
 * checkpointDirectoryOf("s3a://bucket/checkpoints/");       // "s3://bucket/checkpoints"
 * checkpointDirectoryOf("hdfs://nn/checkpoints");           // throws: the 'hdfs://' scheme is not supported
 * ```
 */
export function checkpointDirectoryOf(location: string): string {
  const scheme = URI_SCHEME.exec(location)?.[1]?.toLowerCase();
  if (scheme === undefined) return location;
  if (scheme === "file") return location.startsWith("file:///") ? fileURLToPath(location) : location.slice("file://".length);
  if (scheme !== "s3" && scheme !== "s3a" && scheme !== "s3p") throw new UnsupportedCheckpointLocationError(location, scheme);
  const rest = location.slice(scheme.length + 3);
  const slash = rest.indexOf("/");
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  const key = (slash < 0 ? "" : rest.slice(slash + 1)).replace(/\/+$/, "");
  if (!BUCKET.test(bucket)) throw new UnsupportedCheckpointLocationError(location, scheme, `'${bucket}' is not a bucket name`);
  if (key !== "" && key.split("/").some((part) => part === "" || part === "." || part === "..")) {
    throw new UnsupportedCheckpointLocationError(location, scheme, "the key has an empty, '.' or '..' part");
  }
  return key === "" ? `s3://${bucket}` : `s3://${bucket}/${key}`;
}

/** True if `location` (as {@link checkpointDirectoryOf} returns it) is in an S3-compatible object store. */
export function isS3Location(location: string): boolean {
  return location.startsWith("s3://");
}

/**
 * `location` made absolute: an `s3://` URI as it is, a local path resolved
 * against the working directory.
 *
 * @example
 * ```ts
 * resolveLocation("savepoints");          // "/home/me/job/savepoints"
 * resolveLocation("s3://bucket/sp");      // "s3://bucket/sp"
 * ```
 */
export function resolveLocation(location: string): string {
  const normalized = checkpointDirectoryOf(location);
  return isS3Location(normalized) ? normalized : resolve(normalized);
}

/**
 * `names` appended to the directory `location` (each a plain name, or `..`
 * for the parent).
 *
 * @example
 * ```ts
 * joinLocation("s3://bucket/ck/chk-3", "..", "shared", "a.state"); // "s3://bucket/ck/shared/a.state"
 * joinLocation("/ck/chk-3", "_metadata");                          // "/ck/chk-3/_metadata"
 * ```
 */
export function joinLocation(location: string, ...names: string[]): string {
  if (!isS3Location(location)) return join(location, ...names);
  let out = location;
  for (const name of names) out = name === ".." ? parentLocation(out) : name === "." ? out : `${out}/${name}`;
  return out;
}

/** The directory that holds `location` (`s3://bucket` stays itself). */
export function parentLocation(location: string): string {
  if (!isS3Location(location)) return dirname(location);
  const slash = location.lastIndexOf("/");
  return slash < "s3://".length ? location : location.slice(0, slash);
}

/** The last name of `location`. */
export function baseNameOf(location: string): string {
  return location.slice(Math.max(location.lastIndexOf("/"), isS3Location(location) ? 0 : location.lastIndexOf("\\")) + 1);
}
