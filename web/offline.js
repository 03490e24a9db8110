// Offline support is the build engineer's (the service worker, web/sw.js). Until their
// offline.js lands on this branch, registering does nothing and the site works online.

/** Register the service worker (no-op in this build). */
export function registerOffline() {}
