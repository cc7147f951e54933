/**
 * Options of the S3-compatible object store that `s3://` checkpoint and
 * savepoint locations are in (Flink's `s3.*` keys of its S3 file systems).
 * Unset: the AWS SDK's defaults (AWS S3; region and credentials from the
 * `AWS_*` environment variables, `~/.aws`, or the instance's role).
 */
import { ConfigOptions } from "../config-option.ts";

/** `s3.endpoint`. */
export const S3_ENDPOINT = ConfigOptions.string(
  "s3.endpoint",
  "The URL of the S3-compatible server (e.g. http://minio:9000; https:// when no scheme is given); unset: AWS S3.",
);

/** `s3.path.style.access`. */
export const S3_PATH_STYLE_ACCESS = ConfigOptions.boolean(
  "s3.path.style.access",
  "Whether requests name the bucket in the path (http://host/bucket/key) instead of the host name (http://bucket.host/key), as most self-hosted servers need.",
  false,
);

/** `s3.region` (Hadoop's `fs.s3a.endpoint.region` is Flink's `s3.endpoint.region`). */
export const S3_REGION = ConfigOptions.string(
  "s3.region",
  "The region requests are signed for; unset: AWS_REGION, else us-east-1.",
  undefined,
  { aliases: ["s3.endpoint.region"] },
);

/** `s3.access-key`. */
export const S3_ACCESS_KEY = ConfigOptions.string(
  "s3.access-key",
  "The access key id (with s3.secret-key); unset: the AWS SDK's credential chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, ~/.aws, the instance's role).",
  undefined,
  { aliases: ["s3.access.key"] },
);

/** `s3.secret-key`. */
export const S3_SECRET_KEY = ConfigOptions.string("s3.secret-key", "The secret access key (with s3.access-key); hidden in the REST API.", undefined, {
  aliases: ["s3.secret.key"],
});

export const S3_OPTIONS = [S3_ENDPOINT, S3_PATH_STYLE_ACCESS, S3_REGION, S3_ACCESS_KEY, S3_SECRET_KEY] as const;
