#!/usr/bin/env node
// How the dashboard's libraries were chosen (docs/dashboard.md): each candidate UI, graph layout and chart library
// bundled as the dashboard bundles it (esbuild, browser, minified) with a small program that uses it the way the
// dashboard does, its size minified and gzipped, and the time in headless Chromium
// to render (then refresh) a 500-row table, to lay out a 30-node job graph and to draw a 1 000-point series (fastest and
// median of 50 runs after a first one; on a busy machine the fastest is the steadier number).
//
//   npm install --no-save preact htm lit solid-js @dagrejs/dagre elkjs d3-dag uplot chart.js
//   node bench/dashboard-libraries.mjs [--modules DIR] [--chromium /usr/bin/chromium]
//
// --modules: the node_modules folder holding the candidates (default: the repository's).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { chromium } from "playwright-core";

const root = fileURLToPath(new URL("..", import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : process.argv[i + 1];
};
const modules = arg("--modules", join(root, "node_modules"));
const executablePath = arg("--chromium", "/usr/bin/chromium");

/** A job graph of 30 vertices in 6 stages: each vertex feeds one or two of the next stage (a fan-out, a join). */
const GRAPH = `
const NODES = Array.from({ length: 30 }, (_, i) => ({ id: "v" + i, label: "Operator " + i + " -> Map -> Filter", width: 220, height: 70 }));
const EDGES = [];
for (let i = 0; i < 25; i++) { EDGES.push(["v" + i, "v" + (i + 5)]); if (i % 3 === 0) EDGES.push(["v" + i, "v" + (5 * Math.floor(i / 5) + 5 + ((i + 1) % 5))]); }
`;
/** A checkpoint history: 500 rows of 6 cells, every value new at each call (a refresh). */
const TABLE = `
let tick = 0;
const rows = () => { tick++; return Array.from({ length: 500 }, (_, i) => [i, "COMPLETED", tick + i, (tick * i) % 997, i * 1024, tick]); };
`;
/** 1 000 points of records/s, one a second. */
const SERIES = `
const X = Array.from({ length: 1000 }, (_, i) => 1_700_000_000 + i);
const Y = X.map((_, i) => 5000 + 3000 * Math.sin(i / 40) + (i % 7) * 100);
const box = () => { const d = document.createElement("div"); d.style.width = "800px"; d.style.height = "300px"; document.body.append(d); return d; };
`;

/** Each candidate: its kind, what to install, a program using it, and for layout/chart `run()` (awaited, timed). */
const CANDIDATES = [
  {
    kind: "UI",
    name: "preact + htm",
    code: `import { render } from "preact"; import { html } from "htm/preact"; ${TABLE}
      const Table = ({ rows }) => html\`<table><tbody>\${rows.map((r) => html\`<tr key=\${r[0]}>\${r.map((c) => html\`<td>\${c}</td>\`)}</tr>\`)}</tbody></table>\`;
      window.run = () => render(html\`<\${Table} rows=\${rows()} />\`, document.body);`,
  },
  {
    kind: "UI",
    name: "lit",
    code: `import { html, render } from "lit"; import { repeat } from "lit/directives/repeat.js"; ${TABLE}
      const table = (rows) => html\`<table><tbody>\${repeat(rows, (r) => r[0], (r) => html\`<tr>\${r.map((c) => html\`<td>\${c}</td>\`)}</tr>\`)}</tbody></table>\`;
      window.run = () => render(table(rows()), document.body);`,
  },
  {
    kind: "UI",
    name: "solid-js (html templates)",
    code: `import { createSignal, For } from "solid-js"; import { render } from "solid-js/web"; import html from "solid-js/html"; ${TABLE}
      const [get, set] = createSignal([]);
      render(() => html\`<table><tbody><\${For} each=\${get}>\${(r) => html\`<tr><\${For} each=\${() => r}>\${(c) => html\`<td>\${c}</td>\`}</></tr>\`}</></tbody></table>\`, document.body);
      window.run = () => set(rows());`,
  },
  {
    kind: "layout",
    name: "@dagrejs/dagre",
    code: `import dagre from "@dagrejs/dagre"; ${GRAPH}
      window.run = () => { const g = new dagre.graphlib.Graph(); g.setGraph({ rankdir: "LR", nodesep: 30, ranksep: 60 }); g.setDefaultEdgeLabel(() => ({}));
        for (const n of NODES) g.setNode(n.id, { width: n.width, height: n.height }); for (const [a, b] of EDGES) g.setEdge(a, b);
        dagre.layout(g); return g.node("v29").x; };`,
  },
  {
    kind: "layout",
    name: "elkjs (layered, in the page)",
    code: `import ELK from "elkjs/lib/elk.bundled.js"; ${GRAPH}
      const elk = new ELK();
      window.run = async () => { const r = await elk.layout({ id: "root", layoutOptions: { "elk.algorithm": "layered", "elk.direction": "RIGHT" },
        children: NODES.map((n) => ({ id: n.id, width: n.width, height: n.height })), edges: EDGES.map(([a, b], i) => ({ id: "e" + i, sources: [a], targets: [b] })) });
        return r.children[29].x; };`,
  },
  {
    kind: "layout",
    name: "d3-dag (sugiyama)",
    code: `import { graphConnect, sugiyama } from "d3-dag"; ${GRAPH}
      window.run = () => { const dag = graphConnect()(EDGES); const { width } = sugiyama().nodeSize([220, 70]).gap([30, 60])(dag); return width; };`,
  },
  {
    kind: "chart",
    name: "uplot",
    css: "uplot/dist/uPlot.min.css",
    code: `import uPlot from "uplot"; ${SERIES}
      window.run = async () => { const el = box(); const u = new uPlot({ width: 800, height: 300, series: [{}, { label: "records/s", stroke: "blue" }] }, [X, Y], el);
        await null; const w = u.bbox.width; u.destroy(); el.remove(); return w; };`,
  },
  {
    kind: "chart",
    name: "chart.js (tree-shaken, no animation)",
    code: `import { Chart, LineController, LineElement, PointElement, LinearScale, Legend, Tooltip } from "chart.js"; ${SERIES}
      Chart.register(LineController, LineElement, PointElement, LinearScale, Legend, Tooltip);
      window.run = async () => { const el = box(); const c = document.createElement("canvas"); el.append(c);
        const chart = new Chart(c, { type: "line", data: { datasets: [{ label: "records/s", data: X.map((x, i) => ({ x, y: Y[i] })), pointRadius: 0, borderWidth: 1 }] },
          options: { animation: false, responsive: false, parsing: false, scales: { x: { type: "linear" } } } });
        await null; const w = chart.width; chart.destroy(); el.remove(); return w; };`,
  },
];

const work = mkdtempSync(join(tmpdir(), "weir-dashboard-libraries-"));
const browser = await chromium.launch({
  executablePath,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const rows = [];
  for (const c of CANDIDATES) {
    const entry = join(work, "entry.js");
    writeFileSync(entry, c.code);
    const out = join(work, "out.js");
    await build({ entryPoints: [entry], outfile: out, bundle: true, minify: true, format: "iife", platform: "browser", target: "es2022", nodePaths: [modules], logLevel: "error" });
    const js = readFileSync(out);
    const css = c.css ? readFileSync(join(modules, c.css)) : Buffer.alloc(0);
    const bytes = js.length + css.length;
    const gzip = gzipSync(js, { level: 9 }).length + (css.length ? gzipSync(css, { level: 9 }).length : 0);
    let first;
    let fastest;
    let median;
    {
      const page = await browser.newPage();
      writeFileSync(join(work, "page.html"), `<!doctype html><meta charset="utf-8"><body><script src="out.js"></script>`);
      await page.goto(pathToFileURL(join(work, "page.html")).href);
      await page.waitForFunction(() => typeof window.run === "function");
      const times = await page.evaluate(async () => {
        const t = [];
        for (let i = 0; i < 51; i++) {
          const s = performance.now();
          await window.run();
          t.push(performance.now() - s);
        }
        return t;
      });
      await page.close();
      first = times[0].toFixed(1);
      const rest = times.slice(1).sort((a, b) => a - b);
      fastest = rest[0].toFixed(1);
      median = rest[Math.floor(rest.length / 2)].toFixed(1);
    }
    const version = (name) => JSON.parse(readFileSync(join(modules, name, "package.json"), "utf8")).version;
    const pkgs = c.code.match(/from "([^"]+)"/g).map((m) => m.slice(6, -1).split("/").slice(0, m.includes('"@') ? 2 : 1).join("/"));
    const versions = [...new Set(pkgs)].map((p) => `${p}@${version(p)}`).join(", ");
    rows.push(`| ${c.kind} | ${c.name} | ${versions} | ${(bytes / 1024).toFixed(1)} | ${(gzip / 1024).toFixed(1)} | ${first} | ${fastest} | ${median} |`);
  }
  console.log("| kind | candidate | versions | min KiB | gzip KiB | first run ms | fastest ms | median ms |");
  console.log("|---|---|---|---:|---:|---:|---:|---:|");
  for (const r of rows) console.log(r);
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
