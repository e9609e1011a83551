/**
 * Builds the browser page into a throw-away folder (the HTML, the esbuild bundle of `page/main.ts`
 * with the SDK, the mock and `msw/browser`, and the worker file that `msw init` writes) and serves
 * that folder over loopback http on an OS-assigned port.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, resolve } from "node:path";
import * as esbuild from "esbuild";
import { BROWSER_CONDITIONS } from "../runtimes/chromium.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const PAGE_SOURCES = join(import.meta.dirname, "page");

/** The files the page is made of, each with its media type. */
const MEDIA_TYPES: Readonly<Record<string, string>> = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8" };

/** The worker file's name, which `msw init` writes and `worker.start()` registers. */
export const WORKER_FILE = "mockServiceWorker.js";

/**
 * Writes the page into `dir`: `index.html`, `main.js` (the bundle) and the worker file, which the
 * repository's msw CLI writes (`npx msw init <dir> --no-save`), as an application would.
 *
 * @param dir - an empty folder
 * @throws TypeError when `msw init` writes no worker file, or the bundle fails
 */
export async function buildPage(dir: string): Promise<void> {
  copyFileSync(join(PAGE_SOURCES, "index.html"), join(dir, "index.html"));
  await esbuild.build({
    entryPoints: [join(PAGE_SOURCES, "main.ts")],
    outfile: join(dir, "main.js"),
    bundle: true,
    format: "esm",
    platform: "browser",
    conditions: BROWSER_CONDITIONS,
    target: "es2022",
    logLevel: "error",
  });
  execFileSync("npx", ["--no-install", "msw", "init", dir, "--no-save"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  if (!existsSync(join(dir, WORKER_FILE))) throw new TypeError(`msw init wrote no ${WORKER_FILE} into ${dir}`);
}

/** A running page server. */
export interface PageServer {
  /** The page's URL, `http://127.0.0.1:<port>/`. */
  readonly url: string;
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * Serves the page's files from `dir` on 127.0.0.1, port 0: `/` is `index.html`, the other files by
 * name; anything else is 404.
 *
 * @param dir - the folder `buildPage` wrote
 * @returns the server's URL and how to stop it
 */
export async function servePage(dir: string): Promise<PageServer> {
  const files = new Map(["index.html", "main.js", WORKER_FILE].map((name) => [`/${name}`, name]));
  files.set("/", "index.html");
  const server = createServer((request, response) => {
    const name = files.get(new URL(request.url ?? "/", "http://localhost").pathname);
    if (name === undefined) response.writeHead(404, { "content-type": "text/plain" }).end("not found");
    else response.writeHead(200, { "content-type": MEDIA_TYPES[extname(name)]!, "cache-control": "no-store" }).end(readFileSync(join(dir, name)));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
