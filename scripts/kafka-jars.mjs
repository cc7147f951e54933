// The Apache Kafka broker the tests and the benchmark start (a real one, from its own jars): fetches
// org.apache.kafka:kafka_2.13 with its dependencies from Maven Central into a cache folder once, with Maven.
// `node scripts/kafka-jars.mjs` fetches and prints the folder; the test setup imports `kafkaJars()`.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The broker's version (Kafka 4 runs on Java 17). */
export const KAFKA_VERSION = "4.4.0";
const LOG4J_VERSION = "2.26.1";

/** Where the jars are kept: `$WEIR_CACHE` or `~/.cache/weir`, then `kafka-<version>/lib`. */
export function kafkaJarsDirectory() {
  const root = process.env.WEIR_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "weir");
  return join(root, `kafka-${KAFKA_VERSION}`, "lib");
}

const POM = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>weir.test</groupId><artifactId>kafka-broker</artifactId><version>1</version><packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>${KAFKA_VERSION}</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-core</artifactId><version>${LOG4J_VERSION}</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>${LOG4J_VERSION}</version></dependency>
  </dependencies>
</project>
`;

/** The folder of the broker's jars, fetched first when missing (Maven; a few seconds from a warm ~/.m2). */
export function kafkaJars() {
  const lib = kafkaJarsDirectory();
  if (existsSync(join(lib, `kafka_2.13-${KAFKA_VERSION}.jar`))) return lib;
  const work = mkdtempSync(join(tmpdir(), "weir-kafka-jars-"));
  try {
    writeFileSync(join(work, "pom.xml"), POM);
    const staging = join(work, "lib");
    try {
      execFileSync("mvn", ["-q", "-B", "dependency:copy-dependencies", `-DoutputDirectory=${staging}`, "-DincludeScope=runtime"], { cwd: work, stdio: ["ignore", "pipe", "pipe"] });
    } catch (e) {
      const out = `${e.stdout ?? ""}${e.stderr ?? ""}`.trim().split("\n").slice(-15).join("\n");
      throw new Error(`could not fetch the Kafka ${KAFKA_VERSION} broker's jars with Maven (mvn dependency:copy-dependencies): ${e.message}\n${out}`);
    }
    if (!readdirSync(staging).some((f) => f.startsWith("kafka_2.13-"))) throw new Error(`Maven fetched no kafka_2.13 jar into ${staging}`);
    mkdirSync(join(lib, ".."), { recursive: true });
    rmSync(lib, { recursive: true, force: true });
    renameSync(staging, lib);
    return lib;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(kafkaJars());
