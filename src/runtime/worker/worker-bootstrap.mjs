// Entry of a Weir worker thread: enables TypeScript (tsx), then runs the worker.
import { register } from "tsx/esm/api";

register();
await import("./worker-main.ts");
