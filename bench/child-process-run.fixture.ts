/** Functions for bench/child-process-run.test.ts to call in a child process. */
import { BenchIntegrityError } from "./integrity-error.ts";

/** Reports two progress lines, then its process id and its argument back (with an undefined field). */
export async function echo(value: { readonly n: number }, progress: (line: string) => void): Promise<{ pid: number; value: { readonly n: number }; missing: undefined }> {
  progress(`got ${value.n}`);
  await new Promise((resolve) => setTimeout(resolve, 10));
  progress("done");
  return { pid: process.pid, value, missing: undefined };
}

/** Fails as a bench run with lost rows does. */
export async function fail(): Promise<never> {
  throw new BenchIntegrityError("q5 in the child", "rows", 10, 9);
}

/** Ends its process without a value. */
export async function exit(): Promise<never> {
  process.exit(3);
}
