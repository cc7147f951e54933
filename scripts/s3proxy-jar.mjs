// The S3-compatible server the checkpoint-on-S3 tests start (a real one: S3Proxy with its file-system
// backend): fetches org.gaul:s3proxy's jar-with-dependencies (one self-contained jar) from Maven Central
// into a cache folder once, with Maven, as scripts/kafka-jars.mjs does for the Kafka broker.
// `node scripts/s3proxy-jar.mjs` fetches and prints the jar's path; test/support/s3-server.ts imports `s3ProxyJar()`.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** S3Proxy's version (4.x runs on Java 17). */
export const S3PROXY_VERSION = "4.1.0";

/** Where the jar is kept: `$WEIR_CACHE` or `~/.cache/weir`, then `s3proxy-<version>/`. */
export function s3ProxyJarPath() {
  const root = process.env.WEIR_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "weir");
  return join(root, `s3proxy-${S3PROXY_VERSION}`, `s3proxy-${S3PROXY_VERSION}-jar-with-dependencies.jar`);
}

/** The path of S3Proxy's jar, fetched first when missing (Maven: `dependency:copy` of the jar-with-dependencies, 55 MB). */
export function s3ProxyJar() {
  const jar = s3ProxyJarPath();
  if (existsSync(jar)) return jar;
  const work = mkdtempSync(join(tmpdir(), "weir-s3proxy-jar-"));
  try {
    const artifact = `org.gaul:s3proxy:${S3PROXY_VERSION}:jar:jar-with-dependencies`;
    try {
      execFileSync("mvn", ["-q", "-B", "dependency:copy", `-Dartifact=${artifact}`, `-DoutputDirectory=${work}`], { cwd: work, stdio: ["ignore", "pipe", "pipe"] });
    } catch (e) {
      const out = `${e.stdout ?? ""}${e.stderr ?? ""}`.trim().split("\n").slice(-15).join("\n");
      throw new Error(`could not fetch S3Proxy ${S3PROXY_VERSION} with Maven (mvn dependency:copy ${artifact}): ${e.message}\n${out}`);
    }
    const fetched = join(work, `s3proxy-${S3PROXY_VERSION}-jar-with-dependencies.jar`);
    if (!existsSync(fetched)) throw new Error(`Maven fetched no S3Proxy jar into ${work}`);
    mkdirSync(join(jar, ".."), { recursive: true });
    renameSync(fetched, jar);
    return jar;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(s3ProxyJar());
