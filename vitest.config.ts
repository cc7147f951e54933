import { configDefaults, defineConfig } from "vitest/config";

/**
 * `npm test`: every suite except the exhaustive variants (`*.long.test.ts`, run by `npm run test:long`, see
 * vitest.long.config.ts). Two test files run at a time: most end-to-end suites wait on child processes, so on a
 * 2-core machine the second file uses the time the first spends waiting.
 */
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "bench/**/*.test.ts"],
    exclude: [...configDefaults.exclude, "**/*.long.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: "forks",
    globalSetup: ["test/support/global-setup.ts"],
    maxWorkers: 2,
  },
});
