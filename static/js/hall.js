/* Arbiters' clock hall: every board of a round, live. Uses clock.js's helpers.
 *
 * The hall socket sends {"type": "hall", "boards": [snapshot, ...]} at most four times a second
 * (coalesced on the server); running clocks are interpolated here in between.
 */
(function () {
  "use strict";
  var C = window.IngeniousClock, root = document.getElementById("hall");
  if (!C || !root) return;

  var strings = C.strings;
  /* Round-wide commands that reach every board ask first: a stray click would start or stop
   * every game of the room. */
  var confirmations = {
    start_round: gettext("Start every clock of this round that has not started?"),
    stop_round: gettext("Stop every clock of this round for good? Games still being played lose their clock."),
  };
  var snaps = {}, rows = {}, lastUpdate = Date.now();
  root.querySelectorAll("tr[data-board]").forEach(function (row) {
    rows[row.dataset.board] = row;
  });

  function apply(snap) {
    var current = snaps[snap.board];
    if (current && current.version > snap.version) return;
    C.noteServerTime(snap.server_time_ms);
    snaps[snap.board] = snap;
  }
  JSON.parse(document.getElementById("hall-initial").textContent).forEach(apply);

  function statusText(snap) {
    if (snap.finished) return strings.finished;
    if (snap.status === "running_a" || snap.status === "running_b") return strings.running_spectator;
    return strings[snap.status] || snap.status;
  }

  function render() {
    var now = C.serverNow();
    Object.keys(snaps).forEach(function (id) {
      var snap = snaps[id], row = rows[id];
      if (!row) return;
      var running = C.runningSide(snap);
      row.dataset.status = snap.status;
      ["A", "B"].forEach(function (side) {
        var cell = row.querySelector('[data-time="' + side + '"]'), left = C.remaining(snap, side, now);
        cell.textContent = C.format(left);
        cell.classList.toggle("running", running === side);
        cell.classList.toggle("low", left < 60000);
        cell.classList.toggle("flagged", snap.flags[side] !== null || (running === side && left === 0));
      });
      var status = row.querySelector("[data-status-text]"), text = statusText(snap);
      if (status.textContent !== text) status.textContent = text;
    });
    var age = Math.round((Date.now() - lastUpdate) / 1000);
    document.getElementById("hall-updated").textContent = interpolate(
      ngettext("updated %(s)s second ago", "updated %(s)s seconds ago", age), { s: age }, true);
  }

  /* What a round-wide command did, said with the number of clocks it reached. */
  function doneText(action, n) {
    var text = action === "start_round" ? ngettext("%(n)s clock started", "%(n)s clocks started", n)
      : action === "pause_round" ? ngettext("%(n)s clock paused", "%(n)s clocks paused", n)
      : action === "stop_round" ? ngettext("%(n)s clock stopped", "%(n)s clocks stopped", n)
      : ngettext("%(n)s clock resumed", "%(n)s clocks resumed", n);
    return interpolate(text, { n: n }, true);
  }
  var conn = C.socket(root.dataset.ws, {
    state: function (state) {
      C.connectionLabel(document.getElementById("hall-connection"), state);
    },
    message: function (data) {
      lastUpdate = Date.now();
      if (data.type === "hall") { data.boards.forEach(apply); render(); }
      else if (data.type === "snapshot" || data.type === "ignored") { apply(data.clock); render(); }
      else if (data.type === "done") C.showMessage(doneText(data.action, data.count));
      else if (data.type === "error") C.showMessage(data.message);
    },
  });

  root.querySelectorAll("[data-round-command]").forEach(function (button) {
    button.addEventListener("click", function () {
      var ask = confirmations[button.dataset.roundCommand];
      if (ask && !window.confirm(ask)) return;
      conn.send({ type: button.dataset.roundCommand });
    });
  });
  root.querySelectorAll("tr[data-board] [data-command]").forEach(function (button) {
    button.addEventListener("click", function () {
      var message = C.commandFor(button);
      if (!message) return;
      message.board = parseInt(button.closest("tr").dataset.board, 10);
      conn.send(message);
    });
  });

  render();
  setInterval(render, 200);
})();
