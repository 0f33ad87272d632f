// The arbiter's check-in ticks on the players page. Without this script each tick is a plain
// form (POST, then the page again); with it the tick toggles in place and keys move along the
// list: ↓ or J to the next player's button, ↑ or K to the previous one, Space or Enter ticks.
(function () {
  "use strict";
  var forms = Array.prototype.slice.call(document.querySelectorAll("form[data-checkin-tick]"));
  if (!forms.length) return;
  var summary = document.querySelector("[data-checkin-summary]");

  function buttons() {
    return forms.map(function (form) { return form.querySelector("button"); });
  }

  function show(form, checkedIn) {
    var button = form.querySelector("button");
    form.querySelector("input[name=state]").value = checkedIn ? "out" : "in";
    button.setAttribute("aria-pressed", checkedIn ? "true" : "false");
    button.setAttribute("aria-label", checkedIn ? button.dataset.labelIn : button.dataset.labelOut);
    button.textContent = checkedIn ? "✓ " + gettext("here") : gettext("check in");
    button.classList.toggle("secondary", !checkedIn);
    var row = form.closest("tr");
    if (row) row.classList.toggle("checked-in", checkedIn);
  }

  forms.forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var button = form.querySelector("button");
      button.disabled = true;
      fetch(form.action, {
        method: "POST", body: new FormData(form), credentials: "same-origin",
        headers: {"Accept": "application/json"}
      }).then(function (response) {
        return response.json();
      }).then(function (data) {
        show(form, data.checked_in);
        if (summary && data.summary) summary.textContent = data.summary;
        if (!data.ok && data.error) window.alert(data.error);
      }).catch(function () {
        form.submit();  // the plain way: the page says what happened
      }).finally(function () {
        button.disabled = false;
        button.focus();
      });
    });
  });

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var list = buttons();
    var at = list.indexOf(document.activeElement);
    if (at < 0) return;
    var step = 0;
    if (event.key === "ArrowDown" || event.key === "j" || event.key === "J") step = 1;
    if (event.key === "ArrowUp" || event.key === "k" || event.key === "K") step = -1;
    if (!step) return;
    var next = list[at + step];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  });
})();
