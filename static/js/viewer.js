// Game viewer: step through a verified record (buttons, slider, arrow keys, Home/End).
(function () {
  "use strict";
  var steps = JSON.parse(document.getElementById("steps").textContent);
  var board = HexBoard.draw(document.getElementById("board"), 5);
  var slider = document.getElementById("slider");
  var label = document.getElementById("step-label");
  var placed = [];
  steps.forEach(function (s) {
    if (!s.placement) { placed.push(null); return; }
    var halves = s.placement.split("-");
    placed.push(halves.map(function (h) { return [h.slice(0, -1), h.slice(-1)]; }));
  });
  var shown = 0;
  function show(k) {
    k = Math.max(0, Math.min(steps.length, k));
    for (var i = 0; i < placed.length; i++) {
      if (!placed[i]) continue;
      placed[i].forEach(function (cell) {
        board.setColour(cell[0], i < k ? cell[1] : null);
        board.highlight(cell[0], i === k - 1);
      });
    }
    var scores = k > 0 ? steps[k - 1].scores : { A: null, B: null };
    HexBoard.tracks(document.getElementById("tracks-A"), scores.A);
    HexBoard.tracks(document.getElementById("tracks-B"), scores.B);
    document.querySelectorAll("#moves li").forEach(function (li) {
      li.classList.toggle("current", Number(li.dataset.step) === k);
    });
    var s = steps[k - 1];
    // the action's text carries its clock note (@M:SS: time left when the turn ended)
    label.textContent = k === 0 ? "0 / " + steps.length : k + " / " + steps.length + ": " + s.text;
    slider.value = k;
    shown = k;
  }
  document.querySelectorAll("[data-go]").forEach(function (b) {
    b.addEventListener("click", function () {
      var go = b.dataset.go;
      show(go === "first" ? 0 : go === "last" ? steps.length : go === "prev" ? shown - 1 : shown + 1);
    });
  });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  document.querySelectorAll("#moves li").forEach(function (li) {
    li.addEventListener("click", function () { show(Number(li.dataset.step)); });
  });
  document.addEventListener("keydown", function (e) {
    if (e.target.tagName === "INPUT" && e.target !== slider) return;
    if (e.key === "ArrowLeft") { show(shown - 1); e.preventDefault(); }
    else if (e.key === "ArrowRight") { show(shown + 1); e.preventDefault(); }
    else if (e.key === "Home") { show(0); e.preventDefault(); }
    else if (e.key === "End") { show(steps.length); e.preventDefault(); }
  });
  show(steps.length);
})();
