// Result slip entry (the arbiter's slip page, the players' confirmation: every element with
// data-slip holding templates/tournament/_slip_table.html): shows the derived lowest levels and
// VP while one types, and refuses impossible scores on the spot. The server derives and checks
// everything again.
(function () {
  "use strict";
  document.querySelectorAll("[data-slip]").forEach(function (form) { attach(form); });
  function attach(form) {
    function read(seat) {
      var inputs = form.querySelectorAll('tr[data-seat="' + seat + '"] input.score');
      var values = [];
      inputs.forEach(function (input) {
        var v = input.value === "" ? null : Number(input.value);
        var bad = v !== null && (!Number.isInteger(v) || v < 0 || v > 18);
        input.setCustomValidity(bad ? "0–18" : "");
        input.classList.toggle("invalid", bad);
        values.push(bad ? null : v);
      });
      return values;
    }
    function compare(a, b) {
      for (var i = 0; i < a.length; i++) { if (a[i] !== b[i]) return a[i] > b[i] ? 1 : -1; }
      return 0;
    }
    function update() {
      var a = read("first"), b = read("second");
      var rows = { first: form.querySelector('tr[data-seat="first"]'), second: form.querySelector('tr[data-seat="second"]') };
      var complete = a.indexOf(null) < 0 && b.indexOf(null) < 0;
      var la = a.slice().sort(function (x, y) { return x - y; });
      var lb = b.slice().sort(function (x, y) { return x - y; });
      var summary = form.querySelector("[data-slip-summary]");
      if (!complete) {
        rows.first.querySelector(".lowest").textContent = ""; rows.second.querySelector(".lowest").textContent = "";
        rows.first.querySelector(".vp").textContent = ""; rows.second.querySelector(".vp").textContent = "";
        if (summary) summary.textContent = "";
        return;
      }
      var diff = la[0] - lb[0];
      rows.first.querySelector(".lowest").textContent = la[0] + " (" + (diff >= 0 ? "+" : "") + diff + ")";
      rows.second.querySelector(".lowest").textContent = lb[0] + " (" + (-diff >= 0 ? "+" : "") + (-diff) + ")";
      var c = compare(la, lb);
      rows.first.querySelector(".vp").textContent = c > 0 ? "1" : c < 0 ? "0" : "½";
      rows.second.querySelector(".vp").textContent = c > 0 ? "0" : c < 0 ? "1" : "½";
      // the same below the table, where a phone shows it without swiping the table sideways
      if (summary) {
        summary.textContent = rows.first.querySelector(".name-col").textContent + " " +
          rows.first.querySelector(".vp").textContent + " – " +
          rows.second.querySelector(".vp").textContent + " " +
          rows.second.querySelector(".name-col").textContent + " · " +
          rows.first.querySelector(".lowest").textContent + " – " +
          rows.second.querySelector(".lowest").textContent;
      }
    }
    /* Answering the other player's account (data-was on the inputs): the cells typed away
     * from it are marked, and the button no longer says "Accept these scores" but sends the
     * player's own version (data-send-own). */
    var button = form.querySelector('button[type="submit"]');
    var accept = button ? button.textContent : "";
    function compareWithTheirs() {
      var changed = false;
      form.querySelectorAll("input.score[data-was]").forEach(function (input) {
        var differs = input.value !== input.dataset.was;
        input.classList.toggle("differs", differs);
        changed = changed || differs;
      });
      if (button && form.dataset.sendOwn) button.textContent = changed ? form.dataset.sendOwn : accept;
    }
    form.addEventListener("input", update);
    form.addEventListener("input", compareWithTheirs);
    update();
    compareWithTheirs();
  }
})();
