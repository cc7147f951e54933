/**
 * Which file system a checkpoint or savepoint location is on: local for a
 * path, the S3-compatible object store of the job's `s3.*` settings for an
 * `s3://` URI.
 */
import type { S3Settings } from "../types.ts";
import { isS3Location } from "./checkpoint-location.ts";
import { LOCAL_FILE_SYSTEM } from "./local-file-system.ts";
import { S3FileSystem } from "./s3-file-system.ts";
import type { FileSystems, StorageFileSystem } from "./storage-file-system.ts";

/**
 * The file systems of a job: one S3 client (made on first use) for `settings`.
 *
 * @example
 * ```ts
 * const fileSystems = fileSystemsFor({ endpoint: "http://127.0.0.1:9000", pathStyleAccess: true });
 * fileSystems("s3://bucket/ck");  // the S3 file system
 * fileSystems("/var/weir/ck");    // the local one
 * ```
 */
export function fileSystemsFor(settings: S3Settings = {}): FileSystems {
  let s3: StorageFileSystem | undefined;
  return (location) => (isS3Location(location) ? (s3 ??= new S3FileSystem(settings)) : LOCAL_FILE_SYSTEM);
}
