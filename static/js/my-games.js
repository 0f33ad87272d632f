/* My games for an event that runs itself: counts down to the next round and, when the round
 * starts and the player's new game is dealt, becomes that game's seat (the page goes to the
 * personal link) without the player reloading; a browser notification too, if allowed.
 *
 * The server says what is true (my-games/state.json): the seat's link appears only once the
 * round is published and dealt. The countdown uses the server's time (its offset from this
 * device's clock is measured at every answer), so a device whose clock is wrong still counts
 * to the right moment; reaching zero only makes the page ask sooner.
 */
(function () {
  "use strict";
  var root = document.getElementById("my-games");
  if (!root) return;
  var offset = Number(root.dataset.serverMs) - Date.now();
  var sections = root.querySelectorAll(".my-seat");
  var shown = {};
  sections.forEach(function (section) {
    var link = section.querySelector(".personal-link");
    shown[section.dataset.event] = link ? link.getAttribute("href") : null;
  });
  var counting = root.querySelectorAll(".next-round[data-starts-ms]");
  if (!counting.length && !root.querySelector(".next-round")) return;

  function two(n) { return (n < 10 ? "0" : "") + n; }

  function left(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    return (h ? h + ":" + two(m) : String(m)) + ":" + two(s % 60);
  }

  var soon = false;
  function draw() {
    var now = Date.now() + offset;
    counting.forEach(function (box) {
      var out = box.querySelector(".countdown");
      var due = Number(box.dataset.startsMs) - now;
      if (!out) return;
      out.textContent = due > 0
        ? interpolate(gettext("in %(left)s"), { left: left(due) }, true)
        : gettext("starting now");
      if (due <= 0) soon = true;
    });
  }

  function notify(text) {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    try { new Notification(text); } catch (e) { /* some phones allow it from a worker only */ }
  }

  function check() {
    fetch(root.dataset.state, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) {
        if (!state) return;
        offset = state.server_ms - Date.now();
        Object.keys(state.events).forEach(function (slug) {
          var ev = state.events[slug];
          if (ev.seat && ev.seat !== shown[slug]) {
            shown[slug] = ev.seat;
            notify(interpolate(gettext("Round %(n)s: your game has started"), { n: ev.round },
                               true));
            window.location.assign(ev.seat);
          }
        });
      })
      .catch(function () { /* the next check tries again */ });
  }

  var offer = root.querySelector(".notify-offer");
  if (offer && "Notification" in window && Notification.permission === "default") {
    offer.hidden = false;
    document.getElementById("notify-me").addEventListener("click", function () {
      Notification.requestPermission().then(function () { offer.hidden = true; });
    });
  }
  draw();
  setInterval(draw, 1000);
  // every 10 s while waiting, every 2 s once the countdown reaches the start
  var ticks = 0;
  setInterval(function () {
    ticks += 1;
    if (soon || ticks % 5 === 0) check();
  }, 2000);
})();
