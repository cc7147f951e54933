/**
 * The user-defined function of Nexmark q14 (the nexmark project's Java
 * `CountChar`): how many times the first character of `character` occurs in
 * `s` (0 for a NULL `s`). Registered by q14's
 * `CREATE FUNCTION count_char AS './bench/jobs/nexmark/sql/count-char.ts#CountChar'`
 * (a function class: `resultType` and `eval`, as Flink's `ScalarFunction`).
 *
 * The Java function counts bytes of the UTF-8 text; Nexmark's strings are
 * ASCII, where bytes and characters agree.
 *
 * @example
 * ```ts
 * new CountChar().eval("cocoa", "c"); // 2n
 * ```
 */
export class CountChar {
  readonly resultType = "BIGINT NOT NULL";
  readonly argumentTypes = ["STRING", "STRING"];

  eval(s: string | null, character: string): bigint {
    if (s === null) return 0n;
    const c = character[0];
    let count = 0;
    for (let i = 0; i < s.length; i++) if (s[i] === c) count++;
    return BigInt(count);
  }
}
