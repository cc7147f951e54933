import { configDefaults, defineConfig } from "vitest/config";
import { common, globalSetup } from "./vitest.config.ts";

/** `npm run test:long`: the exhaustive variants of the end-to-end suites (`*.long.test.ts`: more kill loops, modes, sizes), each file in a new process. */
export default defineConfig({
  test: { ...common, include: ["src/**/*.long.test.ts", "test/**/*.long.test.ts"], exclude: [...configDefaults.exclude], globalSetup },
});
