/**
 * The S3 file system of the checkpoint storage against a real S3-compatible server (S3Proxy): whole-object
 * writes and reads, one-level listings of "directories" (key prefixes), deletes, and the start-up probe's
 * messages for a missing bucket, an endpoint nobody answers on and wrong credentials.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3FileSystem } from "../src/checkpoint/storage/s3-file-system.ts";
import { freePort } from "./support/kafka-broker.ts";
import { startS3Server, type S3Server } from "./support/s3-server.ts";

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server(["fs-test"]);
}, 120_000);
afterAll(() => s3?.stop());

const bytes = (text: string) => new TextEncoder().encode(text);

describe("S3FileSystem", () => {
  it("writes, reads, sizes, lists one level, deletes files and whole prefixes", async () => {
    const fs = new S3FileSystem(s3.settings);
    await fs.write("s3://fs-test/ck/chk-1/a.state", bytes("alpha"), "durable");
    await fs.write("s3://fs-test/ck/chk-1/_metadata", bytes("meta"), "atomic");
    await fs.write("s3://fs-test/ck/chk-2/b.state", bytes("beta"), "durable");
    await fs.write("s3://fs-test/ck/shared/x.state", bytes("x"), "atomic");
    await fs.write("s3://fs-test/ck/top", bytes("t"), "atomic");
    expect(new TextDecoder().decode((await fs.read("s3://fs-test/ck/chk-1/a.state"))!)).toBe("alpha");
    expect(await fs.read("s3://fs-test/ck/chk-1/none")).toBeNull();
    expect(await fs.size("s3://fs-test/ck/chk-2/b.state")).toBe(4);
    expect(await fs.size("s3://fs-test/ck/chk-2/none")).toBeNull();
    const chunks: Uint8Array[] = [];
    for await (const c of (await fs.readChunks("s3://fs-test/ck/shared/x.state"))!) chunks.push(c);
    expect(Buffer.concat(chunks).toString()).toBe("x");
    expect(await fs.readChunks("s3://fs-test/ck/shared/none")).toBeNull();
    const listing = await fs.list("s3://fs-test/ck");
    expect([...listing.directories].sort()).toEqual(["chk-1", "chk-2", "shared"]);
    expect(listing.files).toEqual(["top"]);
    expect(await fs.list("s3://fs-test/nothing-here")).toEqual({ directories: [], files: [] });
    await fs.deleteDirectory("s3://fs-test/ck/chk-1");
    await fs.delete("s3://fs-test/ck/top");
    await fs.delete("s3://fs-test/ck/top"); // missing: nothing
    expect([...(await fs.list("s3://fs-test/ck")).directories].sort()).toEqual(["chk-2", "shared"]);
    expect((await fs.list("s3://fs-test/ck")).files).toEqual([]);
  });

  it("lists past one page of 1000 keys", async () => {
    const fs = new S3FileSystem(s3.settings);
    await Promise.all(Array.from({ length: 1005 }, (_, i) => fs.write(`s3://fs-test/many/f-${i}`, bytes(""), "durable")));
    expect((await fs.list("s3://fs-test/many")).files).toHaveLength(1005);
    await fs.deleteDirectory("s3://fs-test/many");
    expect((await fs.list("s3://fs-test/many")).files).toHaveLength(0);
  }, 120_000);

  it("the probe names a missing bucket, an endpoint nobody answers on, and refused credentials", async () => {
    expect(await new S3FileSystem(s3.settings).writableProblem("s3://fs-test/ck")).toBeUndefined();
    expect(await new S3FileSystem(s3.settings).writableProblem("s3://no-such-bucket/ck")).toBe(
      `cannot be used: bucket 'no-such-bucket' does not exist at endpoint ${s3.endpoint}`,
    );
    const port = await freePort();
    expect(await new S3FileSystem({ ...s3.settings, endpoint: `http://127.0.0.1:${port}` }).writableProblem("s3://fs-test/ck")).toMatch(
      new RegExp(`^cannot be used: the S3 server at endpoint http://127.0.0.1:${port} cannot be reached \\(ECONNREFUSED`),
    );
    expect(await new S3FileSystem({ ...s3.settings, secretKey: "wrong" }).writableProblem("s3://fs-test/ck")).toMatch(
      /^is not writable: SignatureDoesNotMatch from endpoint .* \(check s3.access-key \/ s3.secret-key/,
    );
  }, 120_000);
});
