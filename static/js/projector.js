// Projector view: shows one screenful at a time and pages through long tables by itself.
// The page reloads itself every minute (data-reload seconds) to pick up new results: a script
// rather than a meta refresh, which WCAG 2.2.1 forbids (axe's meta-refresh rule).
(function () {
  "use strict";
  var container = document.getElementById("pages");
  if (!container) return;
  var seconds = Number(container.dataset.seconds || 12);
  var screens = [];
  container.querySelectorAll(".page").forEach(function (page) {
    var rows = Array.prototype.slice.call(page.querySelectorAll("tbody tr"));
    var perScreen = Math.max(5, Math.floor((window.innerHeight - 160) / 56));
    for (var start = 0; start < Math.max(rows.length, 1); start += perScreen) {
      screens.push({ page: page, rows: rows, start: start, end: start + perScreen });
    }
  });
  var index = 0;
  function show() {
    if (!screens.length) return;
    var s = screens[index % screens.length];
    container.querySelectorAll(".page").forEach(function (p) { p.hidden = p !== s.page; });
    s.rows.forEach(function (row, i) { row.hidden = i < s.start || i >= s.end; });
    index += 1;
  }
  show();
  if (screens.length > 1) setInterval(show, seconds * 1000);
  var reload = Number(container.dataset.reload || 0);
  if (reload > 0) setTimeout(function () { window.location.reload(); }, reload * 1000);
})();
