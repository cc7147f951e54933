/**
 * Errors a user of the file sink can cause: a bad option, or a bucket path
 * that leaves the base directory.
 */

/** An option of `FileSink.forRows`/`forLines` that cannot work. */
export class FileSinkOptionError extends Error {
  constructor(basePath: string, message: string) {
    super(`file sink '${basePath}': ${message}`);
    this.name = "FileSinkOptionError";
  }
}

/** A bucket assigner returned a path that is absolute or leaves the base path. */
export class InvalidBucketPathError extends Error {
  constructor(operatorUid: string, basePath: string, bucketId: string) {
    super(
      `file sink '${operatorUid}' (base path '${basePath}'): bucket '${bucketId}' must be a relative path inside the base path ` +
        "(no leading '/', no '..')",
    );
    this.name = "InvalidBucketPathError";
  }
}
