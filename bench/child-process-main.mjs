// The child side of bench/child-process-run.ts: enables TypeScript (tsx), waits for the call from its parent, runs the
// exported function, sends its progress lines and then its value or its error back, and exits.
import { register } from "tsx/esm/api";

register();
process.once("message", async ({ module, name, args }) => {
  let reply;
  try {
    const fn = (await import(module))[name];
    if (typeof fn !== "function") throw new TypeError(`${module} exports no function '${name}'`);
    reply = { value: await fn(...args, (line) => process.send({ progress: String(line) })) };
  } catch (e) {
    reply = { error: { name: e?.name ?? "Error", message: e?.message ?? String(e), stack: e?.stack } };
  }
  process.send(reply, () => process.exit(0));
});
