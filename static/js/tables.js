/* A table wider than its frame says so: "more columns →" above it, gone once the reader has
 * scrolled to its end (phones: the standings' decided-by, a player's lowest colours). The
 * frame (.table-wrap) scrolls sideways by itself; this only makes that visible. */
(function () {
  "use strict";
  function watch(wrap) {
    var hint = document.createElement("p");
    hint.className = "scroll-hint";
    hint.setAttribute("aria-hidden", "true");
    hint.textContent = gettext("More columns: swipe the table sideways →");
    wrap.parentNode.insertBefore(hint, wrap);
    function update() {
      var hidden = wrap.scrollWidth - wrap.clientWidth - wrap.scrollLeft;
      hint.hidden = hidden <= 2;
    }
    wrap.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    update();
  }
  function start() { document.querySelectorAll(".table-wrap").forEach(watch); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
