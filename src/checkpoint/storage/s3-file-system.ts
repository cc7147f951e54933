/**
 * `StorageFileSystem` on an S3-compatible object store, with the AWS SDK v3
 * (`@aws-sdk/client-s3`, loaded on first use). A "directory" is a key prefix
 * ending in `/`; a write is one PUT, which an object store applies
 * atomically (the object is there whole or not at all), so `atomic` and
 * `durable` writes are the same; nothing needs a sync.
 */
import { randomBytes } from "node:crypto";
import type { S3Client } from "@aws-sdk/client-s3";
import type { S3Settings } from "../types.ts";
import type { DirectoryListing, StorageFileSystem } from "./storage-file-system.ts";

type S3 = typeof import("@aws-sdk/client-s3");

/** The bucket and key of `s3://bucket/key`. */
function split(path: string): { bucket: string; key: string } {
  const rest = path.slice("s3://".length);
  const slash = rest.indexOf("/");
  return slash < 0 ? { bucket: rest, key: "" } : { bucket: rest.slice(0, slash), key: rest.slice(slash + 1) };
}

/** The key prefix of the "directory" `key` (`""` for the bucket's root). */
const prefixOf = (key: string): string => (key === "" ? "" : `${key}/`);

/** The error's name (the S3 error code for a server's answer) and HTTP status. */
function errorOf(error: unknown): { name: string; status?: number; code?: string; message: string } {
  const e = error as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  return { name: e.name ?? "Error", status: e.$metadata?.httpStatusCode, code: e.code, message: e.message ?? String(error) };
}

const isNotFound = (error: unknown): boolean => {
  const { name, status } = errorOf(error);
  return name === "NoSuchKey" || name === "NotFound" || (status === 404 && name !== "NoSuchBucket");
};

/** A failed request as an Error naming the operation, the location, the server and the S3 error. */
export class S3RequestError extends Error {
  override readonly name = "S3RequestError";

  constructor(
    /** `GetObject`, `PutObject`, … */
    readonly operation: string,
    /** The `s3://` location. */
    readonly location: string,
    /** The endpoint, or "AWS S3". */
    readonly server: string,
    cause: unknown,
  ) {
    const e = errorOf(cause);
    super(`S3 ${operation} of ${location} at ${server} failed: ${e.name}${e.code && e.code !== e.name ? ` (${e.code})` : ""}: ${e.message}`, { cause });
  }
}

/**
 * An S3-compatible object store (one client per settings).
 *
 * @example
 * ```ts
 * const fs = new S3FileSystem({ endpoint: "http://127.0.0.1:9000", pathStyleAccess: true, accessKey: "k", secretKey: "s" });
 * await fs.write("s3://bucket/ck/chk-1/_metadata", bytes, "atomic");
 * ```
 */
export class S3FileSystem implements StorageFileSystem {
  private client: Promise<{ s3: S3; client: S3Client }> | undefined;
  /** The endpoint requests go to, for messages. */
  readonly server: string;

  constructor(private readonly settings: S3Settings) {
    this.server = settings.endpoint === undefined ? "AWS S3" : `endpoint ${endpointUrl(settings.endpoint)}`;
  }

  private connect(): Promise<{ s3: S3; client: S3Client }> {
    // The SDK warns on every Node 20 process that its releases after January 2027 need Node 22: the pinned
    // version runs here, so the notice is for whoever raises the pin (package.json), not for each job's log.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
    this.client ??= import("@aws-sdk/client-s3").then((s3) => {
      const { endpoint, region, pathStyleAccess, accessKey, secretKey } = this.settings;
      const client = new s3.S3Client({
        ...(endpoint === undefined ? {} : { endpoint: endpointUrl(endpoint) }),
        region: region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? "us-east-1",
        forcePathStyle: pathStyleAccess ?? false,
        ...(accessKey !== undefined && secretKey !== undefined ? { credentials: { accessKeyId: accessKey, secretAccessKey: secretKey } } : {}),
        // S3-compatible servers do not all take the SDK's newer streaming checksums: send checksums only where S3 requires one
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      });
      return { s3, client };
    });
    return this.client;
  }

  private async send<T>(operation: string, path: string, command: (s3: S3) => object): Promise<T> {
    const { s3, client } = await this.connect();
    try {
      return (await client.send(command(s3) as never)) as T; // each command is typed by its own input; the caller names the output
    } catch (error) {
      if (isNotFound(error)) throw error;
      throw new S3RequestError(operation, path, this.server, error);
    }
  }

  async write(path: string, bytes: Uint8Array, _how: "atomic" | "durable"): Promise<void> {
    const { bucket, key } = split(path);
    await this.send("PutObject", path, (s3) => new s3.PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentLength: bytes.length }));
  }

  async read(path: string): Promise<Uint8Array | null> {
    const body = await this.body(path);
    return body === null ? null : body.transformToByteArray();
  }

  async readChunks(path: string): Promise<AsyncIterable<Uint8Array> | null> {
    return (await this.body(path)) as AsyncIterable<Uint8Array> | null;
  }

  private async body(path: string): Promise<{ transformToByteArray(): Promise<Uint8Array> } | null> {
    const { bucket, key } = split(path);
    try {
      const out = await this.send<{ Body?: { transformToByteArray(): Promise<Uint8Array> } }>("GetObject", path, (s3) => new s3.GetObjectCommand({ Bucket: bucket, Key: key }));
      return out.Body ?? null;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async size(path: string): Promise<number | null> {
    const { bucket, key } = split(path);
    try {
      const out = await this.send<{ ContentLength?: number }>("HeadObject", path, (s3) => new s3.HeadObjectCommand({ Bucket: bucket, Key: key }));
      return out.ContentLength ?? 0;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async list(path: string): Promise<DirectoryListing> {
    const { bucket, key } = split(path);
    const prefix = prefixOf(key);
    const directories: string[] = [];
    const files: string[] = [];
    for await (const page of this.pages(path, bucket, prefix, "/")) {
      for (const p of page.CommonPrefixes ?? []) if (p.Prefix) directories.push(p.Prefix.slice(prefix.length, -1));
      for (const o of page.Contents ?? []) if (o.Key && o.Key !== prefix) files.push(o.Key.slice(prefix.length));
    }
    return { directories, files };
  }

  private async *pages(path: string, bucket: string, prefix: string, delimiter?: string) {
    let token: string | undefined;
    do {
      const page = await this.send<{ CommonPrefixes?: { Prefix?: string }[]; Contents?: { Key?: string }[]; NextContinuationToken?: string; IsTruncated?: boolean }>(
        "ListObjectsV2",
        path,
        (s3) => new s3.ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, Delimiter: delimiter, ContinuationToken: token }),
      );
      yield page;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  async delete(path: string): Promise<void> {
    const { bucket, key } = split(path);
    try {
      await this.send("DeleteObject", path, (s3) => new s3.DeleteObjectCommand({ Bucket: bucket, Key: key }));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  async deleteDirectory(path: string): Promise<void> {
    const { bucket, key } = split(path);
    const keys: string[] = [];
    for await (const page of this.pages(path, bucket, prefixOf(key))) for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const out = await this.send<{ Errors?: { Key?: string; Code?: string; Message?: string }[] }>(
        "DeleteObjects",
        path,
        (s3) => new s3.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
      const failed = (out.Errors ?? []).filter((e) => e.Code !== "NoSuchKey");
      if (failed.length > 0) throw new Error(`S3 DeleteObjects under ${path} at ${this.server}: ${failed.length} not deleted, first s3://${bucket}/${failed[0]!.Key}: ${failed[0]!.Code}: ${failed[0]!.Message}`);
    }
  }

  async makeDirectories(): Promise<boolean> {
    return false;
  }

  async syncDirectory(): Promise<void> {}

  /** A probe object written under `path` and deleted; the reason a request failed otherwise (no bucket, unreachable, refused). */
  async writableProblem(path: string): Promise<string | undefined> {
    const probe = `${path}/.weir-probe-${randomBytes(6).toString("hex")}`;
    try {
      await this.write(probe, new Uint8Array(0), "atomic");
      await this.delete(probe);
      return undefined;
    } catch (error) {
      const e = errorOf(error instanceof S3RequestError ? error.cause : error);
      const { bucket } = split(path);
      if (e.name === "NoSuchBucket") return `cannot be used: bucket '${bucket}' does not exist at ${this.server}`;
      if (e.status === undefined) return `cannot be used: the S3 server at ${this.server} cannot be reached (${e.code ?? e.name}: ${e.message})`;
      if (e.status === 403 || e.name === "AccessDenied" || e.name === "InvalidAccessKeyId" || e.name === "SignatureDoesNotMatch") {
        return `is not writable: ${e.name} from ${this.server} (check s3.access-key / s3.secret-key or the AWS credentials): ${e.message}`;
      }
      return `cannot be written at ${this.server}: ${e.name}: ${e.message}`;
    }
  }
}

/** `endpoint` with `https://` when it names no scheme (Flink's `s3.endpoint` may be a host). */
function endpointUrl(endpoint: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint) ? endpoint : `https://${endpoint}`;
}
