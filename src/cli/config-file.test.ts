import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { configFileEntries } from "./config-file.ts";
import { commandLineConfiguration } from "./config-flags.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A directory whose config.yaml is `text`. */
function confDir(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "weir-conf-"));
  dirs.push(dir);
  writeFileSync(join(dir, "config.yaml"), text);
  return dir;
}

describe("$WEIR_CONF_DIR/config.yaml", () => {
  it("reads flat key: value lines, skipping comments and blank lines, unquoting values", () => {
    const dir = confDir("# the cluster\n\ntaskmanager.numberOfTaskSlots: 4\nexecution.checkpointing.interval: '10 s'  # often\nrest.address: \"0.0.0.0\"\n");
    expect(configFileEntries(dir)).toEqual([
      { key: "taskmanager.numberOfTaskSlots", value: "4", where: `${dir}/config.yaml:3` },
      { key: "execution.checkpointing.interval", value: "10 s", where: `${dir}/config.yaml:4` },
      { key: "rest.address", value: "0.0.0.0", where: `${dir}/config.yaml:5` },
    ]);
  });

  it("is below the flags, which are below -D", () => {
    const dir = confDir("parallelism.default: 2\nexecution.checkpointing.interval: 10 s\nstate.backend.type: disk\n");
    const c = commandLineConfiguration({ parallelism: "3", D: ["state.backend.type=heap"] }, true, dir).toMap();
    expect(c["parallelism.default"]).toBe("3");
    expect(c["state.backend.type"]).toBe("heap");
    expect(c["execution.checkpointing.interval"]).toBe("10 s");
  });

  it("is not read for a client of -m (its settings go with the job)", () => {
    const dir = confDir("parallelism.default: 2\n");
    expect(commandLineConfiguration({}, false, dir).toMap()["parallelism.default"]).toBeUndefined();
  });

  it("names the file and line of a nested or malformed line, an unknown key, a bad value, a missing file", () => {
    expect(() => configFileEntries(confDir("rest:\n  port: 8081\n"))).toThrow(/config\.yaml:1: expected a flat 'key: value' line \(nested YAML is not read/);
    expect(() => configFileEntries(confDir("rest.port=8081\n"))).toThrow(/config\.yaml:1: expected a flat 'key: value' line/);
    const unknown = confDir("rest.prot: 8081\n");
    expect(() => commandLineConfiguration({}, true, unknown)).toThrow(`${unknown}/config.yaml:1: unknown configuration key 'rest.prot' (did you mean 'rest.port'?)`);
    expect(() => commandLineConfiguration({}, true, confDir("rest.port: eighty\n"))).toThrow(/config\.yaml:1: invalid value 'eighty' for 'rest\.port'/);
    expect(() => configFileEntries(join(tmpdir(), "weir-no-such-conf-dir"))).toThrow(/WEIR_CONF_DIR=.*weir-no-such-conf-dir: cannot read .*config\.yaml/);
  });
});
