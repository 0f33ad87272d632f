/* Pages that follow a player's events live: My games (every event the login plays) and the
 * event page (that event). docs/online-protocol.md, "The news socket".
 *
 * The server sends each player's news on the page's socket (ws/news/) as the event moves on:
 * the next round's pairing and start, the new game's seat, a pause, a withdrawal, the final
 * standings. A section that shows an event (.my-seat) keeps the key of the news it was made
 * from (data-news-key); news with another key brings the section again from the server (the
 * same page's HTML, not a reload: the wording stays the server's), and a new game's seat takes
 * the player there at once (with a browser notification, if allowed). While the socket cannot
 * open, the page asks my-games/state.json every few seconds instead.
 *
 * The countdown to the next round uses the server's time (its offset from this device's clock
 * is measured with every answer), so a device whose clock is wrong counts to the right moment.
 */
(function () {
  "use strict";
  var root = document.querySelector(".follows-news");
  if (!root) return;
  var C = window.IngeniousClock;
  var offset = Number(root.dataset.serverMs) - Date.now();
  // what the page shows of the news, in the order tournament/boards/seats.py joins its key
  var SHOWN = ["round", "round_starts_ms", "board", "opponent", "first", "seat", "next_round", "starts_ms",
    "starts_words", "absent", "paused", "paused_reason", "withdrawn", "final"];

  function key(news) {
    return SHOWN.map(function (name) {
      var value = news[name];
      if (value === null || value === undefined) return "";
      if (typeof value === "boolean") return value ? "true" : "false";
      return String(value);
    }).join("|");
  }
  function sectionOf(slug) {
    var found = null;
    root.querySelectorAll(".my-seat[data-event]").forEach(function (section) {
      if (section.dataset.event === slug) found = section;
    });
    return found;
  }
  function shownSeat(section) {
    var link = section.querySelector(".personal-link");
    return link ? link.getAttribute("href") : null;
  }

  /* The news of one event: a seat the page has not known is where the player goes (the
   * seat the page was opened with, a finished game the player came back from, is not); other
   * news brings the event's section again when the page is behind it. What the page knew is
   * its seat when it was opened and the seats news brought since, never a section fetched
   * again, which may already show a new seat whose news is still on its way. */
  var refreshing = {}, leaving = false, known = {};
  root.querySelectorAll(".my-seat[data-event]").forEach(function (section) {
    known[section.dataset.event] = shownSeat(section);
  });
  function take(news) {
    var section = sectionOf(news.event);
    if (!section || leaving) return;
    var fresh = news.seat && news.seat !== known[news.event];
    if (news.seat) known[news.event] = news.seat;
    if (fresh && !news.withdrawn) {
      leaving = true;  // news keeps coming until the seat's page replaces this one: go once
      C.notifyBrowser(interpolate(gettext("Round %(n)s: your game has started"), { n: news.round }, true));
      window.location.assign(news.seat);
      return;
    }
    if (key(news) !== section.dataset.newsKey && !refreshing[news.event]) refresh(news.event);
  }
  function refresh(slug) {
    refreshing[slug] = true;
    fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        var section = sectionOf(slug);
        if (!html || !section) return;
        if (section.querySelector(".confirm-panel")) { window.location.reload(); return; }
        var page = new DOMParser().parseFromString(html, "text/html"), fresh = null;
        page.querySelectorAll(".my-seat[data-event]").forEach(function (s) {
          if (s.dataset.event === slug) fresh = s;
        });
        if (fresh) section.replaceWith(document.importNode(fresh, true));
        draw();
      })
      .catch(function () { /* the next news tries again */ })
      .then(function () { refreshing[slug] = false; });
  }

  function two(n) { return (n < 10 ? "0" : "") + n; }
  function left(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    return (h ? h + ":" + two(m) : String(m)) + ":" + two(s % 60);
  }
  function draw() {
    var now = Date.now() + offset;
    root.querySelectorAll(".next-round[data-starts-ms]").forEach(function (box) {
      var out = box.querySelector(".countdown"), due = Number(box.dataset.startsMs) - now;
      if (!out) return;
      var text = due > 0 ? interpolate(gettext("in %(left)s"), { left: left(due) }, true)
        : gettext("starting now");
      if (out.textContent !== text) out.textContent = text;
    });
  }

  /* The page's socket; while it cannot open, state.json every 5 s. */
  var connected = false, lostSince = Date.now();
  C.socket(root.dataset.ws, {
    state: function (state) {
      if (state === "connected") connected = true;
      else if (connected || state === "refused") { connected = false; lostSince = Date.now(); }
      root.dataset.news = state;
    },
    message: function (data) {
      if (data.type !== "news") return;
      if (typeof data.server_time_ms === "number") offset = data.server_time_ms - Date.now();
      take(data.news);
    },
  }, "page");
  function poll() {
    if (connected || Date.now() - lostSince < 6000) return;
    fetch(root.dataset.state, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) {
        if (!state) return;
        offset = state.server_ms - Date.now();
        Object.keys(state.events).forEach(function (slug) { take(state.events[slug]); });
      })
      .catch(function () { /* the next poll tries again */ });
  }

  var offer = root.querySelector(".notify-offer");
  if (offer && "Notification" in window && Notification.permission === "default") {
    offer.hidden = false;
    offer.querySelector("button").addEventListener("click", function () {
      Notification.requestPermission().then(function () { offer.hidden = true; });
    });
  }
  draw();
  setInterval(draw, 1000);
  setInterval(poll, 5000);
})();
