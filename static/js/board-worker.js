/* The board page's service worker (served as /b/worker.js, so that it serves the board pages
 * under /b/): it keeps a board page and the files it loads, so that a reload without the network
 * still shows the running clock, its queued presses and its scoresheet as last seen (board.js
 * keeps those in localStorage). Network first, always: the cache answers only when the network
 * does not. Board pages that registered it send their files to keep ("keep"); only board pages
 * and the files under /static/ and /jsi18n/ are kept, nothing else the pages fetch.
 */
"use strict";

var CACHE = "ingenious-board-pages-v1";

function kept(url) {
  var u = new URL(url, self.location.href);
  return u.origin === self.location.origin &&
    (/^\/b\/[^/]+\/$/.test(u.pathname) || u.pathname.indexOf("/static/") === 0 ||
     u.pathname.indexOf("/jsi18n/") === 0);
}

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("message", function (event) {
  var files = event.data && Array.isArray(event.data.keep) ? event.data.keep.filter(kept) : [];
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return Promise.all(files.map(function (url) {
      return fetch(url, { credentials: "same-origin" }).then(function (response) {
        if (response.ok) return cache.put(url, response);
      }).catch(function () { /* offline already: what was kept stays */ });
    }));
  }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || !kept(request.url)) return;
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(request, { ignoreSearch: false }).then(function (hit) {
      return hit || Response.error();
    });
  }));
});
