// The check-in kiosk: the names filter as one types, and after "Checked in: <name>" the screen
// goes back to the empty search by itself (no meta refresh: it cannot be paused and screen
// readers announce it badly). The "Next player" link does the same at once, and the Search
// button still works, with or without this script.
(function () {
  "use strict";
  var form = document.querySelector("form.kiosk-search");
  var box = document.getElementById("kiosk-q");
  var results = document.getElementById("kiosk-results");
  if (!form || !box || !results) return;
  var timer = null;
  var asked = 0;
  function filter() {
    var text = box.value.trim();
    // A scanner types a card's address or code and Enter: never sent while typing.
    if (text.length < 2 || /[\/:]/.test(text)) {
      if (!text) results.innerHTML = "";
      return;
    }
    var data = new FormData(form);
    data.set("filter", "1");
    var mine = ++asked;
    fetch(form.action || window.location.href, {
      method: "POST", body: data, credentials: "same-origin",
      headers: {"X-Requested-With": "fetch"}
    }).then(function (response) {
      return response.ok ? response.text() : null;
    }).then(function (html) {
      if (html !== null && mine === asked) results.innerHTML = html;
    }).catch(function () { /* offline for a moment: the Search button still works */ });
  }
  box.addEventListener("input", function () {
    window.clearTimeout(timer);
    timer = window.setTimeout(filter, 200);
  });
})();

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
