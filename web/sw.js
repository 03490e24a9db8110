// The offline service worker: after the first visit the whole site (the shell, the Pyodide
// runtime, micropip, the gridforge wheel, the main line's first 100 levels) is served from
// one cache, so a second visit is ready with the network gone and does not wait for the
// server. The rest of the main line joins the cache in the background once the worker is
// active (the page asks for it with a "fill-line" message, offline.js), one block at a
// time, each checked against its SHA-256; a block the page opens before then joins at once.
// A new build's install takes every block it shares with the old build from the old cache.
//
// One build, one cache: build.py writes the build's file list (path, SHA-256, bytes) and a
// version (a hash of that list) into the line below, so every new build is a new sw.js and
// so a new service worker. It fills a new cache `gridforge-<version>`, checking every file
// against its SHA-256 (a file of another build, say from a half-finished deploy or a stale
// HTTP cache, fails the install: nothing is half-filled or mixed). It waits, as service
// workers do, until no page of the old build is open, then becomes active and deletes the
// old caches: a page is always served by exactly one build.
//
// Without build.py's line (web/ served as it is) this worker does nothing at all.
/** A file of the build: its path, SHA-256 and bytes; `lazy` for the later line blocks.
 * @typedef {{path: string, sha256: string, bytes: number, lazy?: boolean}} SiteFile */
/** @typedef {{version: string, files: SiteFile[]}} SiteBuild */
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const BUILD = /** @type {SiteBuild | null} */ (null);  // build.py writes this build's version and files here

const PREFIX = "gridforge-";
const CACHE = BUILD ? PREFIX + BUILD.version : "";  // "": no build, nothing cached
// The main line's later blocks (build.py marks them lazy): not fetched at install, but
// cached, checked against their SHA-256, the first time the page asks for one.
const LAZY = new Map((BUILD ? BUILD.files : []).filter((f) => f.lazy)
  .map((f) => [new URL(f.path, sw.registration.scope).href, f]));

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Download one file of the build and check it; resolves to [url, response].
 * @param {SiteFile} file @param {RequestCache} cacheMode @returns {Promise<[string, Response]>} */
async function fetchChecked(file, cacheMode) {
  const url = new URL(file.path, sw.registration.scope).href;
  const response = await fetch(url, { cache: cacheMode, credentials: "same-origin" });
  if (!response.ok) throw new Error(`${file.path}: HTTP ${response.status}`);
  const digest = hex(await crypto.subtle.digest("SHA-256", await response.clone().arrayBuffer()));
  if (digest !== file.sha256) {
    throw new Error(`${file.path}: SHA-256 ${digest}, this build has ${file.sha256}`);
  }
  return [url, response];
}

/** What `cache` holds for `url`, if its body has `sha256`; else null. */
async function cachedChecked(cache, url, sha256) {
  const hit = await cache.match(url);
  if (!hit) return null;
  const digest = hex(await crypto.subtle.digest("SHA-256", await hit.clone().arrayBuffer()));
  return digest === sha256 ? hit : null;
}

/** The main-line blocks an older build's cache already holds, checked: kept, not fetched. */
async function carryOver(cache) {
  const older = (await caches.keys()).filter((k) => k.startsWith(PREFIX) && k !== CACHE);
  for (const key of older) {
    const old = await caches.open(key);
    for (const [url, file] of LAZY) {
      if (await cache.match(url)) continue;
      const hit = await cachedChecked(old, url, file.sha256);
      if (hit) await cache.put(url, hit);
    }
  }
}

async function fillCache() {
  const build = /** @type {SiteBuild} */ (BUILD);  // called only with a build (install)
  try {
    const entries = await Promise.all(build.files.filter((f) => !f.lazy).map(async (file) => {
      try {
        // A revalidation first: right after the first visit the files are in the HTTP
        // cache and the server answers 304.
        return await fetchChecked(file, "no-cache");
      } catch {
        return await fetchChecked(file, "reload");  // the HTTP cache held another build's
      }
    }));
    // Only when every file is here and checked is anything stored.
    const cache = await caches.open(CACHE);
    await Promise.all(entries.map(([url, response]) => cache.put(url, response)));
    try { await carryOver(cache); } catch { /* the background fill fetches them instead */ }
  } catch (error) {
    await caches.delete(CACHE);
    throw error;  // the install fails; the browser tries again on a later visit
  }
}

sw.addEventListener("install", (event) => {
  if (BUILD) event.waitUntil(fillCache());
});

sw.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
    }
    // The page that installed this worker (a first visit) is served by it from now on, so
    // that going offline without a reload still finds every cached level. Only pages with
    // no worker are taken: a worker activates once no page of an older build is open.
    if (BUILD) await sw.clients.claim();
  })());
});

async function respond(request) {
  const cache = await caches.open(CACHE);
  const url = new URL(request.url);
  url.hash = "";
  const navigate = request.mode === "navigate";
  if (navigate && url.pathname.endsWith("/")) url.pathname += "index.html";
  const hit = await cache.match(url.href, { ignoreSearch: navigate });
  if (hit) return hit;
  // A later main-line block: fetched and checked like the rest, then kept for offline play.
  const lazy = LAZY.get(url.href);
  if (lazy) {
    const [key, response] = await fetchChecked(lazy, "no-cache");
    await cache.put(key, response.clone());
    return response;
  }
  // A miss (a file that is not part of the build, or storage the browser evicted) goes to
  // the network as if there were no service worker.
  return fetch(request);
}

// ---------------------------------------------------------------- the whole line, in the background
// One fill at a time per worker; each page's "fill-line" message (with a port) joins it and
// hears its progress: {type: "progress", done, total} then {type: "done", done, total,
// failed}. done and total count the main line's blocks (levels/main-*.json) in the cache.
const BLOCKS = BUILD ? BUILD.files.filter((f) => /^levels\/main-[^/]*\.json$/.test(f.path)) : [];
let filling = null;
const listeners = new Set();

function tell(message) {
  for (const port of listeners) {
    try { port.postMessage(message); } catch { listeners.delete(port); }
  }
}

async function fillLine() {
  // A worker whose cache is gone (a newer build took over) must not make it again.
  if (!(await caches.keys()).includes(CACHE)) return { done: 0, total: BLOCKS.length, failed: BLOCKS.length };
  const cache = await caches.open(CACHE);
  let done = 0;
  let failed = 0;
  /** @type {[string, SiteFile][]} */
  const missing = [];
  for (const file of BLOCKS) {
    const url = new URL(file.path, sw.registration.scope).href;
    if (await cache.match(url)) done += 1;
    else missing.push([url, file]);
  }
  tell({ type: "progress", done, total: BLOCKS.length });
  for (const [url, file] of missing) {
    try {
      if (!(await cache.match(url))) {  // the page may have opened it meanwhile
        const [key, response] = await fetchChecked(file, "no-cache");
        await cache.put(key, response);
      }
      done += 1;
    } catch (error) {
      failed += 1;  // offline, or the server has another build: the next visit tries again
    }
    tell({ type: "progress", done, total: BLOCKS.length });
  }
  return { done, total: BLOCKS.length, failed };
}

sw.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "claim" && BUILD) {
    // A page this active worker does not serve (loaded with the cache bypassed, or opened
    // before the activation's claim): it asks to be taken.
    event.waitUntil(sw.clients.claim());
    return;
  }
  if (data.type !== "fill-line" || !BUILD) return;
  const port = event.ports && event.ports[0];
  if (port) listeners.add(port);
  if (!filling) {
    filling = fillLine().catch(() => ({ done: 0, total: BLOCKS.length, failed: BLOCKS.length }))
      .then((outcome) => {
        filling = null;
        tell({ type: "done", ...outcome });
        listeners.clear();
        return outcome;
      });
  }
  event.waitUntil(filling);
});

sw.addEventListener("fetch", (event) => {
  const { request } = event;
  if (!BUILD || request.method !== "GET") return;
  if (new URL(request.url).origin !== sw.location.origin) return;
  event.respondWith(respond(request));
});
