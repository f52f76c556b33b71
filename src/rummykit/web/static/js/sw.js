// The service worker: the score sheets open without a connection.
//
// Pages of a sheet (the sheet, its read-only and display pages, the chip keeper, the new-sheet
// forms) are fetched from the network first and kept; without a connection the kept copy is
// shown. Static files are served from the cache and refreshed behind. Nothing is ever sent from
// here: entries made offline wait in the page (scoresheet.js) and go through the sheet's
// versioned API once the connection is back.

const CACHE = "rummykit-companion-v1";
const PAGES = /^\/(fr|es|de|en)\/(sheet|view|chips)(\/|$)/;

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

function pageKey(url) {
  // "?ok=round" only says what was just saved: one copy of each page.
  const key = new URL(url);
  key.search = "";
  key.hash = "";
  return key.href;
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") await cache.put(pageKey(request.url), response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(pageKey(request.url));
    if (kept) return kept;
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  const fresh = fetch(request)
    .then((response) => {
      if (response.ok) cache.put(request, response.clone());
      return response;
    })
    .catch(() => undefined);
  return kept || (await fresh) || Response.error();
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== location.origin) return;
  if (url.pathname.startsWith("/static/")) event.respondWith(cacheFirst(request));
  else if (PAGES.test(url.pathname) && !url.pathname.endsWith(".csv")) event.respondWith(networkFirst(request));
});

// A page asks to keep what it needs to open again offline (itself and the files it loaded).
self.addEventListener("message", (event) => {
  const urls = Array.isArray(event.data?.keep) ? event.data.keep : [];
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      Promise.all(
        urls
          .map((href) => new URL(href, location.origin))
          .filter((url) => url.origin === location.origin)
          .map((url) =>
            fetch(url.href)
              .then((response) => response.ok && cache.put(url.pathname.startsWith("/static/") ? url.href : pageKey(url.href), response))
              .catch(() => undefined),
          ),
      ),
    ),
  );
});
