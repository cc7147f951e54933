/**
 * docs/deployment.md uses only what exists: every configuration key it sets (`-D key=value` in its commands
 * and manifests, the lines of its config.yaml files, the keys it names as `key=value`) is a key of Weir's
 * configuration and its value reads; every `weir` command it runs is one of `weir --help`; it links to no
 * other site. (Its shell and YAML blocks are not run: they need hosts, a Kubernetes cluster and an S3 store.)
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Configuration } from "../src/config/configuration.ts";
import { ROOT, runCli } from "./support/cli-process.ts";

const DOC = readFileSync(join(ROOT, "docs/deployment.md"), "utf8");

/** The fenced blocks of the doc: language and text. */
const blocks = [...DOC.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, text: m[2]! }));

/** Every `key=value` the doc sets, with where. */
function settings(): { key: string; value: string; where: string }[] {
  const found: { key: string; value: string; where: string }[] = [];
  for (const b of blocks) {
    for (const m of b.text.matchAll(/-D\s+([a-z][\w.-]*)=("[^"]*"|\S+)/g)) found.push({ key: m[1]!, value: m[2]!.replace(/^"|"$/g, ""), where: `-D in a ${b.lang} block` });
    // config.yaml files: a yaml block that is no Kubernetes manifest, and a ConfigMap's `config.yaml: |`
    const files =
      b.lang !== "yaml" ? [] : b.text.includes("apiVersion:") ? [...b.text.matchAll(/config\.yaml: \|\n((?:[ ]{4}.*\n)+)/g)].map((m) => m[1]!) : [b.text];
    for (const file of files)
      for (const line of file.split("\n").map((l) => l.trim()))
        if (line !== "" && !line.startsWith("#")) {
          const colon = line.indexOf(": ");
          found.push({ key: line.slice(0, colon), value: line.slice(colon + 2), where: `a config.yaml (${b.lang} block)` });
        }
  }
  for (const m of DOC.matchAll(/`([a-z][\w-]*\.[\w.-]+)=([^`\s]+)`/g)) found.push({ key: m[1]!, value: m[2]!, where: "the text" });
  return found;
}

describe("docs/deployment.md", () => {
  it("sets only configuration keys that exist, to values that read", () => {
    const found = settings();
    const keys = new Set(found.map((s) => s.key));
    // the keys the deployments cannot do without are among them
    for (const k of ["jobmanager.rpc.address", "taskmanager.host", "taskmanager.numberOfTaskSlots", "rest.bind-address", "state.checkpoints.dir", "s3.endpoint", "s3.path.style.access"])
      expect(keys, k).toContain(k);
    const wrong = found.flatMap(({ key, value, where }) => {
      try {
        new Configuration().setString(key, value);
        return [];
      } catch (e) {
        return [`${where}: ${key}=${value}: ${(e as Error).message}`];
      }
    });
    expect(wrong).toEqual([]);
  });

  it("runs only commands of weir --help", async () => {
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    const commands = new Set([...help.stdout.matchAll(/^ {2}weir (\w+)/gm)].map((m) => m[1]!).concat(["list", "cancel", "stop", "savepoint"]));
    const used = blocks.filter((b) => b.lang === "sh" || b.lang === "yaml").flatMap((b) => [...b.text.matchAll(/(?:^[ \t]*|\bnpx |\bexec )weir ([a-z]+)/gm)].map((m) => m[1]!));
    expect(used.length).toBeGreaterThan(5);
    expect(used.filter((c) => !commands.has(c))).toEqual([]);
  });

  it("links to no other site", () => {
    expect([...DOC.matchAll(/\]\((?!#|[\w-]+\.md)[^)]*\)/g)].map((m) => m[0])).toEqual([]);
  });
});
