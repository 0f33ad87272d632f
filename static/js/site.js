// Behaviour every page may use, declared by data attributes instead of inline handlers (the
// Content-Security-Policy allows no inline script: docs/deployment.md).
//   <button data-print>                prints the page;
//   <select data-go-board>             opens the page again for the chosen board (?board=N);
//   <form data-confirm="question">     asks first, and sends nothing unless the answer is OK
//                                      (closing a round, withdrawing a player: one tap too many
//                                      does damage).
(function () {
  "use strict";
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  });
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
  document.querySelectorAll("select[data-go-board]").forEach(function (select) {
    select.addEventListener("change", function () {
      location.search = "?board=" + encodeURIComponent(select.value);
    });
  });
})();
