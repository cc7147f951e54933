import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDirs } from "../../test/support/temp-dirs.ts";
import { JarStore } from "./jar-store.ts";

const tempDir = tempDirs("weir-jar-store-");

describe("JarStore with a high-availability directory", () => {
  it("copies each upload there; another job manager's store recovers the bundle from it", async () => {
    const root = tempDir();
    const ha = join(root, "ha", "jars");
    const leader = new JarStore(join(root, "jm-1"), ha);
    const jar = await leader.upload(new TextEncoder().encode("export {};\n"), "job.mjs");
    expect(existsSync(join(ha, jar.id))).toBe(true);
    const standby = new JarStore(join(root, "jm-2"), ha);
    expect(standby.has(jar.id)).toBe(false);
    expect(await standby.recover(jar.id)).toBe(true);
    expect(readFileSync(standby.path(jar.id), "utf8")).toBe("export {};\n");
    expect(await standby.recover(`${"0".repeat(64)}.mjs`)).toBe(false);
    expect(await new JarStore(join(root, "jm-3")).recover(jar.id)).toBe(false);
  });
});
