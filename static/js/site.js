// Behaviour every page may use, declared by data attributes instead of inline handlers (the
// Content-Security-Policy allows no inline script: docs/deployment.md).
//   <button data-print>                prints the page;
//   <select data-go-board>             opens the page again for the chosen board (?board=N).
(function () {
  "use strict";
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
  document.querySelectorAll("select[data-go-board]").forEach(function (select) {
    select.addEventListener("change", function () {
      location.search = "?board=" + encodeURIComponent(select.value);
    });
  });
})();
