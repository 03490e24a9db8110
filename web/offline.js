// Offline play: registers the service worker (sw.js) that keeps the whole site in one cache
// per build. The shell calls registerOffline() once at start:
//
//   import { registerOffline } from "./offline.js";
//   registerOffline();
//
// Registration waits until the page has loaded and Python is ready (window.gridforge.ready,
// or the `after` promise given), so that filling the cache never competes with the first
// visit's own start; it is then a background job whose outcome only matters next visit.

const SW_URL = new URL("./sw.js", import.meta.url);

function loaded() {
  if (document.readyState === "complete") return Promise.resolve();
  return new Promise((resolve) => window.addEventListener("load", resolve, { once: true }));
}

/**
 * Register the offline service worker. Resolves to the registration, or to null where
 * service workers are unavailable (an insecure origin, a private window that refuses them)
 * or registration failed: the page works on without offline play, never fails for it.
 * @param {{after?: Promise<unknown>}} options  wait for this before registering (default:
 *   the load event, then window.gridforge.ready when the shell defines it)
 */
export async function registerOffline({ after } = {}) {
  if (!("serviceWorker" in navigator)) return null;
  try {
    await loaded();
    const wait = after ?? globalThis.gridforge?.ready;
    if (wait) await Promise.resolve(wait).catch(() => {});  // a failed start still registers
    // updateViaCache "none": the browser checks sw.js itself against the server on every
    // visit, so a plain static host's cache headers cannot hide a new build.
    return await navigator.serviceWorker.register(SW_URL, {
      scope: new URL("./", import.meta.url).href, updateViaCache: "none",
    });
  } catch (error) {
    console.warn(`offline play is unavailable: ${error && error.message || error}`);
    return null;
  }
}
