/**
 * The dashboard's files, served from one folder (`webRoot`) and nothing
 * outside it: the request path is decoded once, must not contain `..`
 * segments, NUL or backslashes, and the file found must resolve (symbolic
 * links followed) inside the folder.
 */
import { readFile, realpath, stat } from "node:fs/promises";
import { extname, join, sep } from "node:path";
import { RestError } from "./rest-error.ts";

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/** A file to send. */
export interface StaticFile {
  readonly body: Buffer;
  readonly contentType: string;
}

/**
 * The file of `rawPath` (the URL path as sent, still percent-encoded) under `root`, or undefined when there is
 * none. `/` is `index.html`. Throws a 400 `RestError` for a path that tries to leave the folder.
 *
 * @example
 * ```ts
 * await staticFile("/srv/web", "/assets/app.js"); // { body, contentType: "text/javascript; charset=utf-8" }
 * await staticFile("/srv/web", "/%2e%2e/secret"); // throws RestError 400
 * ```
 */
export async function staticFile(root: string, rawPath: string): Promise<StaticFile | undefined> {
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    throw new RestError(400, `bad path encoding: ${rawPath}`);
  }
  if (path.includes("\0") || path.includes("\\") || path.split("/").some((s) => s === ".." || s === "."))
    throw new RestError(400, `path not allowed: ${rawPath}`);
  const relative = path === "/" || path === "" ? "index.html" : path.replace(/^\/+/, "");
  let realRoot: string;
  let file: string;
  try {
    realRoot = await realpath(root);
    file = await realpath(join(realRoot, relative));
  } catch {
    return undefined;
  }
  if (!file.startsWith(realRoot + sep)) throw new RestError(400, `path not allowed: ${rawPath}`);
  const info = await stat(file);
  if (!info.isFile()) return undefined;
  return { body: await readFile(file), contentType: CONTENT_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream" };
}
