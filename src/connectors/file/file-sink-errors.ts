/**
 * Errors of the file sink: a bad option, a bucket path that leaves the base
 * directory, and commits that would replace or lose data.
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

/**
 * A commit found another file under the committed name of a part: committed
 * files are never replaced, so the job fails (the part stays pending, nothing
 * is lost).
 */
export class PartFileExistsError extends Error {
  constructor(
    /** The existing file. */
    readonly path: string,
    readonly operatorUid: string,
    /** The checkpoint whose transaction was being committed. */
    readonly checkpointId: number,
  ) {
    super(
      `file sink '${operatorUid}': cannot commit checkpoint ${checkpointId}: '${path}' already exists and is another file; a committed file is never replaced ` +
        "(do two runs share a seeded 'random' option, or did something else create the file?)",
    );
    this.name = "PartFileExistsError";
  }
}

/**
 * A pending part file of a completed checkpoint is gone and no file has its
 * committed name: its records are lost (the file was deleted or moved outside
 * the job). The job fails rather than go on without them.
 */
export class PendingPartFileMissingError extends Error {
  constructor(
    /** The hidden pending file that is missing. */
    readonly pendingPath: string,
    /** The committed name it should have got. */
    readonly path: string,
    readonly operatorUid: string,
    /** The checkpoint that pre-committed it. */
    readonly checkpointId: number,
  ) {
    super(
      `file sink '${operatorUid}': the pending part file '${pendingPath}' of checkpoint ${checkpointId} is missing and was never committed as '${path}': ` +
        "its records are lost (was it deleted or moved outside the job?)",
    );
    this.name = "PendingPartFileMissingError";
  }
}
