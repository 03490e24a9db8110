// The offline service worker: after the first visit the whole site (the shell, the Pyodide
// runtime, micropip, the gridforge wheel, the main line's first 100 levels) is served from
// one cache, so a second visit is ready with the network gone and does not wait for the
// server; each later block of the line joins the cache when the player first opens it.
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
const BUILD = null;  // build.py writes this build's version and files here

const PREFIX = "gridforge-";
const CACHE = BUILD ? PREFIX + BUILD.version : null;
// The main line's later blocks (build.py marks them lazy): not fetched at install, but
// cached, checked against their SHA-256, the first time the page asks for one.
const LAZY = new Map((BUILD ? BUILD.files : []).filter((f) => f.lazy)
  .map((f) => [new URL(f.path, self.registration.scope).href, f]));

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Download one file of the build and check it; resolves to [url, response]. */
async function fetchChecked(file, cacheMode) {
  const url = new URL(file.path, self.registration.scope).href;
  const response = await fetch(url, { cache: cacheMode, credentials: "same-origin" });
  if (!response.ok) throw new Error(`${file.path}: HTTP ${response.status}`);
  const digest = hex(await crypto.subtle.digest("SHA-256", await response.clone().arrayBuffer()));
  if (digest !== file.sha256) {
    throw new Error(`${file.path}: SHA-256 ${digest}, this build has ${file.sha256}`);
  }
  return [url, response];
}

async function fillCache() {
  try {
    const entries = await Promise.all(BUILD.files.filter((f) => !f.lazy).map(async (file) => {
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
  } catch (error) {
    await caches.delete(CACHE);
    throw error;  // the install fails; the browser tries again on a later visit
  }
}

self.addEventListener("install", (event) => {
  if (BUILD) event.waitUntil(fillCache());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
    }
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

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (!BUILD || request.method !== "GET") return;
  if (new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(respond(request));
});
