// Entry of a worker thread when Weir runs from its TypeScript source (the repository's tests and
// benchmarks): enables TypeScript (tsx), then runs the worker. Compiled Weir starts worker-main.js itself.
import { register } from "tsx/esm/api";

register();
await import("./worker-main.ts");
