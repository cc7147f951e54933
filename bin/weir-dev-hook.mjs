// Module hook of bin/weir-dev.mjs: a `src/…ts` module resolves to its entry in the test bundle (dist-dev/), so that
// jobs importing src/ share the CLI's copy of Weir. A module of src/ without an entry would be a second copy: an error.
let map = {};
let src = "";

/** `data`: the bundle's map, src URL → entry URL, and the URL of src/. */
export function initialize(data) {
  map = data.map;
  src = data.src;
}

export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (!r.url.startsWith(src)) return r;
  const entry = map[r.url];
  if (entry === undefined) throw new Error(`${r.url} is not in the test bundle (dist-dev/): rebuild it (node -e 'import("./scripts/dev-bundle.mjs").then((m) => m.buildDevBundle())')`);
  return { ...r, url: entry, format: "module" };
}
