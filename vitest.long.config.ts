import { configDefaults, defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

/** `npm run test:long`: the exhaustive variants of the end-to-end suites (`*.long.test.ts`: more kill loops, modes, sizes). */
export default defineConfig({
  test: { ...base.test, include: ["src/**/*.long.test.ts", "test/**/*.long.test.ts"], exclude: [...configDefaults.exclude] },
});
