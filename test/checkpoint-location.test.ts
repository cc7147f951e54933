/**
 * Every way to name a checkpoint directory — `setCheckpointStorage`, SQL's
 * `SET 'state.checkpoints.dir'`, a storage config — goes through one check:
 * a path or `file://` URI is a local directory, `s3://bucket/path` is in object
 * storage, any other URI scheme is refused before a job runs (the
 * `--checkpoint-dir` flag: test/cli.test.ts).
 */
import { describe, expect, it } from "vitest";
import { StreamExecutionEnvironment, UnsupportedCheckpointLocationError } from "../src/index.ts";
import { StreamTableEnvironment } from "../src/table/api/table-environment.ts";
import { Configuration } from "../src/config/configuration.ts";
import { checkpointDirectoryOf, createCheckpointStorage, FileSystemCheckpointStorage } from "../src/checkpoint/storage/index.ts";

describe("checkpoint locations", () => {
  it("a path stays a path, a file:// URI is its local path, an S3 URI is normalized, any other scheme is refused naming it", () => {
    expect(checkpointDirectoryOf(".weir/checkpoints/orders")).toBe(".weir/checkpoints/orders");
    expect(checkpointDirectoryOf("file:///var/weir/chk%20a")).toBe("/var/weir/chk a");
    expect(checkpointDirectoryOf("file://rel/chk")).toBe("rel/chk");
    expect(checkpointDirectoryOf("C:\\weir\\chk")).toBe("C:\\weir\\chk");
    expect(checkpointDirectoryOf("s3://bucket/chk")).toBe("s3://bucket/chk");
    expect(checkpointDirectoryOf("S3A://bucket/chk/a/")).toBe("s3://bucket/chk/a");
    expect(checkpointDirectoryOf("s3p://bucket")).toBe("s3://bucket");
    expect(() => checkpointDirectoryOf("s3://Bad_Bucket/chk")).toThrow("'Bad_Bucket' is not a bucket name");
    expect(() => checkpointDirectoryOf("s3://bucket/a//b")).toThrow("the key has an empty, '.' or '..' part");
    expect(() => checkpointDirectoryOf("s3://bucket/a/../b")).toThrow(UnsupportedCheckpointLocationError);
    expect(() => checkpointDirectoryOf("HDFS://nn/chk")).toThrow("the 'hdfs://' scheme is not supported");
  });

  it("setCheckpointStorage takes s3:// and refuses other schemes at the call; a storage config with one is refused when the storage is created", () => {
    const env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.getCheckpointConfig().setCheckpointStorage("s3://bucket/chk/");
    expect(env.getCheckpointConfig().getCheckpointStorage()).toEqual({ type: "filesystem", directory: "s3://bucket/chk" });
    expect(() => env.getCheckpointConfig().setCheckpointStorage("gs://bucket/chk")).toThrow("checkpoint location 'gs://bucket/chk': the 'gs://' scheme is not supported");
    env.getCheckpointConfig().setCheckpointStorage("file:///tmp/weir-chk");
    expect(env.getCheckpointConfig().getCheckpointStorage()).toEqual({ type: "filesystem", directory: "/tmp/weir-chk" });
    expect(() => createCheckpointStorage({ type: "filesystem", directory: "gs://bucket/chk" }, { retained: 1 })).toThrow(UnsupportedCheckpointLocationError);
    const local = createCheckpointStorage({ type: "filesystem", directory: "file:///tmp/weir-chk" }, { retained: 1 });
    expect((local as FileSystemCheckpointStorage).directory).toBe("/tmp/weir-chk");
    const s3 = createCheckpointStorage({ type: "filesystem", directory: "s3a://bucket/chk/" }, { retained: 1 });
    expect((s3 as FileSystemCheckpointStorage).directory).toBe("s3://bucket/chk");
  });

  it("SET 'state.checkpoints.dir' sets the job's checkpoint directory; an hdfs:// value is refused at the SET", () => {
    const env = StreamExecutionEnvironment.getExecutionEnvironment();
    const tEnv = StreamTableEnvironment.create(env);
    expect(() => tEnv.executeSql("SET 'state.checkpoints.dir' = 'hdfs://nn/chk'")).toThrow(
      "Invalid value 'hdfs://nn/chk' for 'state.checkpoints.dir': expected a local directory (a path or a file:// URI) or s3://bucket/path; the 'hdfs://' scheme is not supported",
    );
    tEnv.executeSql("SET 'state.checkpoints.dir' = 's3://bucket/sql-chk'");
    expect(env.getCheckpointConfig().getCheckpointStorage()).toEqual({ type: "filesystem", directory: "s3://bucket/sql-chk" });
    tEnv.executeSql("SET 'state.checkpoints.dir' = 'file:///tmp/weir-sql-chk'");
    expect(env.getCheckpointConfig().getCheckpointStorage()).toEqual({ type: "filesystem", directory: "/tmp/weir-sql-chk" });
  });

  it("the s3.* keys reach the checkpoint settings (none set: none passed); an access key needs its secret", () => {
    const env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.getCheckpointConfig().setCheckpointStorage("s3://bucket/chk");
    expect(env.checkpointSettings().s3).toBeUndefined();
    env.configure(Configuration.fromMap({ "s3.endpoint": "http://127.0.0.1:9000", "s3.path.style.access": "true", "s3.endpoint.region": "eu-west-1", "s3.access-key": "k", "s3.secret-key": "s" }));
    const settings = env.checkpointSettings();
    expect(settings.s3).toEqual({ endpoint: "http://127.0.0.1:9000", pathStyleAccess: true, region: "eu-west-1", accessKey: "k", secretKey: "s" });
    expect(settings.stateBackend?.localDirectory, "no local directory beside an S3 one").toBeUndefined();
    const half = StreamExecutionEnvironment.getExecutionEnvironment();
    half.configure(Configuration.fromMap({ "s3.access-key": "k" }));
    expect(() => half.checkpointSettings()).toThrow("s3.access-key and s3.secret-key go together: only s3.access-key is set");
  });
});
