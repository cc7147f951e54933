/**
 * Whether Weir itself runs from its TypeScript source (the repository's tests
 * and benchmarks, with tsx or vitest loading `.ts`) rather than from the
 * compiled package (`dist/`). Every module of one copy has the same extension,
 * so this module's own URL tells. From source a TypeScript loader is active
 * already, and worker threads must load the source too: mixing compiled and
 * source modules would give two copies of every class.
 *
 * @example
 * ```ts
 * if (!RUNS_FROM_SOURCE) await enableTypeScript(); // from source, tsx is there already
 * ```
 */
export const RUNS_FROM_SOURCE = import.meta.url.endsWith(".ts");
