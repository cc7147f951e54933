import { configDefaults, defineConfig } from "vitest/config";

/**
 * What every run shares: generous deadlines (busy machines), child processes as workers, and two test files at a
 * time — most end-to-end suites wait on child processes, so on a 2-core machine the second file uses the time the
 * first spends waiting.
 */
export const common = { testTimeout: 180_000, hookTimeout: 180_000, pool: "forks", maxWorkers: 2 } as const;

/** The global setup of the end-to-end suites: the test bundle, the Kafka jars, the shared servers (test/support/global-setup.ts). */
export const globalSetup = ["test/support/global-setup.ts"];

/** Unit tests that change process-wide registries (a table factory): each runs in a new process (project `isolated`). */
const ISOLATED_UNIT_TESTS = ["src/table/connectors/table-factory-registry.test.ts"];

/**
 * `npm test`: every suite except the exhaustive variants (`*.long.test.ts`, run by `npm run test:long`, see
 * vitest.long.config.ts), in three projects:
 * - `unit`: the unit tests beside the code (src/), without isolation — the files a worker runs share one module
 *   graph instead of each importing src/ again in a new process (a third of the CPU time of these files);
 * - `e2e`: the cross-module suites (test/, bench/), with the global setup (which runs only when a selected file is in
 *   this project), also without isolation: a worker process runs file after file with the modules it imported (the
 *   suites keep no state in modules beyond what they release in `afterAll`; a new process per file cost 114 s of
 *   imports a run, against 36 s);
 * - `isolated`: the few files that must start from fresh modules, each in a new process.
 */
export default defineConfig({
  test: {
    ...common,
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["src/**/*.test.ts"], exclude: [...configDefaults.exclude, "**/*.long.test.ts", ...ISOLATED_UNIT_TESTS], isolate: false },
      },
      {
        extends: true,
        test: { name: "e2e", include: ["test/**/*.test.ts", "bench/**/*.test.ts"], exclude: [...configDefaults.exclude, "**/*.long.test.ts"], globalSetup, isolate: false },
      },
      { extends: true, test: { name: "isolated", include: ISOLATED_UNIT_TESTS } },
    ],
  },
});
