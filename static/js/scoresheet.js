// Live scoresheet on the board page: tap two cells, pick their colours, place. The server
// (the rules engine) decides; this page only shows its state and sends entries with the
// version they are based on, so two devices can never interleave their entries.
(function () {
  "use strict";
  var root = document.getElementById("scoresheet");
  if (!root) return;
  var url = root.dataset.liveUrl;
  var names = { A: root.dataset.seatA, B: root.dataset.seatB };
  var state = null, picked = [], colours = [null, null], neighbours = null;
  var board = HexBoard.draw(document.getElementById("live-board"), 5, onCell);
  var $ = function (id) { return document.getElementById(id); };
  function fmt(text, values) { return interpolate(text, values, true); }

  function csrf() {
    var m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function adjacent(a, b) {
    function qr(name) { var n = 5, r = n - (name.charCodeAt(0) - 97), q = Number(name.slice(1)) - n - 1; return [q, r]; }
    var x = qr(a), y = qr(b), dq = y[0] - x[0], dr = y[1] - x[1];
    return [[1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]].some(function (d) { return d[0] === dq && d[1] === dr; });
  }
  function onCell(name) {
    if (!state || state.over || state.cells[name]) return;
    if (picked.length === 2 || (picked.length === 1 && !adjacent(picked[0], name))) { clearPick(); }
    if (picked.indexOf(name) >= 0) { clearPick(); return; }
    picked.push(name);
    board.highlight(name, true);
    updatePick();
  }
  function clearPick() {
    picked.forEach(function (c) { board.highlight(c, false); });
    picked = [];
    updatePick();
  }
  function updatePick() {
    $("pick-cells").textContent = picked.length ? picked.join(" – ") : "—";
    $("place-btn").disabled = !(picked.length === 2 && colours[0] && colours[1] && state && !state.over);
  }
  root.querySelectorAll(".colour-pick").forEach(function (group) {
    var half = Number(group.dataset.half);
    group.querySelectorAll("button").forEach(function (btn) {
      btn.addEventListener("click", function () {
        colours[half] = btn.dataset.colour;
        group.querySelectorAll("button").forEach(function (b) { b.setAttribute("aria-pressed", String(b === btn)); });
        updatePick();
      });
    });
  });

  function render(s) {
    var before = state;
    state = s;
    Object.keys(board.cells).forEach(function (name) { board.setColour(name, s.cells[name] || null); });
    HexBoard.tracks($("live-tracks-A"), s.scores.A);
    HexBoard.tracks($("live-tracks-B"), s.scores.B);
    var status;
    if (s.over) status = fmt(gettext("Game over: %(result)s"), { result: s.result });
    else status = fmt(gettext("%(name)s (%(seat)s) to place"), { name: names[s.to_move], seat: s.to_move }) +
      (s.bonus ? " — " + gettext("bonus play (Ingenious!)") : "");
    if (s.swap_window && !s.over) status += " · " + fmt(gettext("%(seat)s may swap now"), { seat: s.swap_window });
    $("live-status").textContent = status;
    var list = $("live-moves");
    list.innerHTML = "";
    s.actions.forEach(function (a) {
      var li = document.createElement("li");
      li.textContent = a.seat + " " + (a.placement || (a.action + (a.tiles ? " " + a.tiles.join(" ") : "")));
      list.appendChild(li);
    });
    list.scrollTop = list.scrollHeight;
    if (before && s.version === before.version + 1 && s.actions.length > before.actions.length) {
      var seat = s.actions[s.actions.length - 1].seat, gained = [];
      "RGBOYP".split("").forEach(function (c) {
        var d = s.scores[seat][c] - before.scores[seat][c];
        if (d > 0) gained.push(c + "+" + d);
      });
      $("last-points").textContent = seat + ": " + (gained.length ? gained.join(" ") : gettext("0 points"));
    }
    $("confirm-box").hidden = !s.over;
    $("final-result").textContent = s.over ? fmt(gettext("Result %(result)s"), { result: s.result }) : "";
    root.querySelectorAll("[data-confirm]").forEach(function (b) {
      b.disabled = !!(s.confirmed && s.confirmed[b.dataset.confirm]);
    });
    $("record-link").innerHTML = "";
    if (s.record_id) {
      var a = document.createElement("a");
      a.href = "/games/" + s.record_id + "/";
      a.textContent = gettext("Record submitted: view the game");
      $("record-link").appendChild(a);
    }
    updatePick();
  }
  function send(path, body) {
    $("live-error").textContent = "";
    body.version = state ? state.version : 0;
    return fetch(url + path, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(body)
    }).then(function (r) { return r.json().then(function (data) { return [r.status, data]; }); })
      .then(function (res) {
        var data = res[1];
        if (!data.ok) $("live-error").textContent = data.error || gettext("Refused");
        if (data.cells) render(data);
        return data;
      }).catch(function () { $("live-error").textContent = gettext("No connection: the entry was not sent."); });
  }
  $("place-btn").addEventListener("click", function () {
    var text = picked[0] + colours[0] + "-" + picked[1] + colours[1];
    send("", { entry: { seat: state.to_move, action: "place", placement: text } }).then(function (d) {
      if (d && d.ok) clearPick();
    });
  });
  $("undo-btn").addEventListener("click", function () { send("undo/", {}); });
  $("swap-btn").addEventListener("click", function () {
    var tiles = $("swap-tiles").value.trim().split(/[\s,]+/).filter(Boolean);
    send("", { entry: { seat: state.swap_window || state.to_move, action: "swap", tiles: tiles } });
  });
  /* A resignation ends the game and stops its clock for good: asked first. */
  root.querySelectorAll("[data-other]").forEach(function (b) {
    b.addEventListener("click", function () {
      if (b.dataset.other === "resign" && !window.confirm(fmt(
        gettext("%(name)s (%(seat)s) resigns: the game ends and the clock stops. Go on?"),
        { name: names[b.dataset.seat], seat: b.dataset.seat }))) return;
      send("", { entry: { seat: b.dataset.seat, action: b.dataset.other } });
    });
  });
  root.querySelectorAll("[data-confirm]").forEach(function (b) {
    b.addEventListener("click", function () { send("confirm/", { seat: b.dataset.confirm }); });
  });
  function poll() {
    fetch(url, { credentials: "same-origin" }).then(function (r) { return r.json(); }).then(function (s) {
      if (s.ok && (!state || s.version !== state.version || s.record_id !== state.record_id ||
          JSON.stringify(s.confirmed) !== JSON.stringify(state.confirmed))) render(s);
    }).catch(function () {});
  }
  poll();
  setInterval(poll, 3000);
})();
