// Projector view: shows one screenful at a time and pages through long tables by itself.
// The page reloads itself every minute (data-reload seconds) to pick up new results: a script
// rather than a meta refresh, which WCAG 2.2.1 forbids (axe's meta-refresh rule). WCAG 2.2.1
// also asks that moving and timed content can be stopped: the Pause button (or Space, or P)
// stops the paging and the reloading until it is pressed again, which reloads at once.
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
  var paging = screens.length > 1 ? setInterval(show, seconds * 1000) : null;
  var reload = Number(container.dataset.reload || 0);
  var reloading = reload > 0 ? setTimeout(function () { window.location.reload(); }, reload * 1000) : null;
  var button = document.getElementById("projector-pause");
  function toggle() {
    if (button.getAttribute("aria-pressed") === "true") { window.location.reload(); return; }
    clearInterval(paging);
    clearTimeout(reloading);
    button.setAttribute("aria-pressed", "true");
    button.textContent = button.dataset.resume;
  }
  if (button) {
    button.addEventListener("click", toggle);
    document.addEventListener("keydown", function (e) {
      if (e.target !== document.body || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === " " || e.key === "p" || e.key === "P") { e.preventDefault(); toggle(); }
    });
  }
})();
