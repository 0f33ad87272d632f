/* A table wider than its frame says so: "more columns →" above it, gone once the reader has
 * scrolled to its end (phones: the standings' decided-by, a player's lowest colours). The
 * frame (.table-wrap) scrolls sideways by itself; this only makes that visible, to the eye and
 * to the keyboard.
 *
 * Scrolled to the end, the hint turns invisible but keeps its line: were it taken out, the
 * table would jump up a line under the finger that has just scrolled it, and a tap or click
 * meant for one button (Pause, in the clock hall) would land on the one below it. Its line
 * comes and goes only with the overflow itself (a resize). */
(function () {
  "use strict";
  function watch(wrap) {
    var hint = document.createElement("p");
    hint.className = "scroll-hint";
    hint.setAttribute("aria-hidden", "true");
    hint.textContent = gettext("More columns: swipe the table sideways →");
    wrap.parentNode.insertBefore(hint, wrap);
    function update() {
      var overflows = wrap.scrollWidth > wrap.clientWidth + 2;
      hint.hidden = !overflows;
      hint.classList.toggle("at-end", wrap.scrollWidth - wrap.clientWidth - wrap.scrollLeft <= 2);
      // A frame that scrolls must be reachable by keyboard to scroll it (WCAG 2.1.1, axe's
      // scrollable-region-focusable), and then says what it is.
      if (overflows) {
        wrap.tabIndex = 0;
        wrap.setAttribute("role", "region");
        wrap.setAttribute("aria-label", gettext("Table, scrolls sideways"));
      } else if (wrap.getAttribute("role") === "region") {
        wrap.removeAttribute("tabindex");
        wrap.removeAttribute("role");
        wrap.removeAttribute("aria-label");
      }
    }
    wrap.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    update();
  }
  function start() { document.querySelectorAll(".table-wrap").forEach(watch); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
