// The check-in kiosk: after "Checked in: <name>" the screen goes back to the empty search by
// itself (no meta refresh: it cannot be paused and screen readers announce it badly). The
// "Next player" link does the same at once, with or without this script.
(function () {
  "use strict";
  var done = document.querySelector("[data-kiosk-return]");
  if (!done) return;
  var seconds = 5;
  var note = document.querySelector("[data-kiosk-countdown]");
  function tick() {
    if (seconds <= 0) {
      window.location.replace(done.dataset.kioskReturn);
      return;
    }
    if (note) {
      note.textContent = interpolate(
        ngettext("Back to the search in %s second.", "Back to the search in %s seconds.", seconds),
        [seconds]);
    }
    seconds -= 1;
    window.setTimeout(tick, 1000);
  }
  tick();
})();
