/**
 * A small parser of the Prometheus text format for tests: every sample with
 * its name, labels (unescaped) and value. Comments (# HELP, # TYPE) are skipped.
 */

export interface PrometheusSample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

export function parsePrometheusText(text: string): PrometheusSample[] {
  const out: PrometheusSample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    const body = m[3] ?? "";
    const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/g;
    let l: RegExpExecArray | null;
    let consumed = 0;
    while ((l = re.exec(body))) {
      labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
      consumed = re.lastIndex;
    }
    if (consumed !== body.length) throw new Error(`bad labels in Prometheus line: ${line}`);
    const v = m[4]!;
    out.push({ name: m[1]!, labels, value: v === "+Inf" ? Infinity : v === "-Inf" ? -Infinity : Number(v) });
  }
  return out;
}
