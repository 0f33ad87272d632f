/* An online game (docs/online-protocol.md): shows the server's views and sends moves; the
 * server (the rules engine) decides everything. A seat's page: tap a tile of the rack (tap it
 * again to turn it), then two adjacent cells; or type "f10R-f9G", or two cell names for the
 * chosen tile. A spectator's page only shows. Clocks as on the clock page (clock.js helpers).
 */
(function () {
  "use strict";
  var root = document.getElementById("online");
  if (!root) return;
  var C = window.IngeniousClock;
  var seat = root.dataset.seat || null;
  var view = JSON.parse(document.getElementById("online-initial").textContent);
  var clock = view.clock;
  var $ = function (id) { return document.getElementById(id); };
  var board = HexBoard.draw($("online-board"), 5, onCell);
  var chosen = null, turned = false, picked = [], lastCells = [];
  /* The move sent and not yet answered (kept through a lost link and sent again with the same
   * number when it is back), and the reason this link stopped playing (the arbiter gave the
   * seat a new link): the page never shows a move as made, or the rack as playable, when the
   * server has not said so. */
  var pending = null, replaced = null, linkState = "connecting", reconnected = false;
  var S = {
    your_move: gettext("Your move: tap a tile, then two cells"),
    your_bonus: gettext("Ingenious! Your bonus play: place another tile"),
    your_choice: gettext("Swap your rack or refill it"),
    waiting: gettext("%(name)s to move"),
    waiting_bonus: gettext("%(name)s makes a bonus play"),
    not_started: gettext("Waiting for the arbiter to start the clocks"),
    paused: gettext("Paused by the arbiter"),
    flagged: gettext("%(name)s's time is up and plays no more"),
    over: gettext("Game over: %(result)s (%(end)s)"),
    pick_tile: gettext("Choose a tile of your rack first."),
    not_adjacent: gettext("Those cells do not touch: tap two adjacent free cells."),
    not_yours: gettext("It is not your turn."),
    bad_entry: gettext("Type a move like f10R-f9G, or two cells like f10 f9 for the chosen tile."),
    confirm_resign: gettext("Resign this game? Your opponent wins."),
    sending: gettext("Sending your move…"),
    sending_offline: gettext("Offline: your move is kept and will be sent when the connection is back."),
    still_sending: gettext("Your move is still on its way: wait for the server's answer."),
    moved_on: gettext("Your move was not sent: the game changed while the connection was lost."),
    replaced: gettext("This link no longer plays this seat: %(why)s Ask the arbiter for the new link."),
  };
  // Why a game ended, by the engine's code (the view's end_code and end_params): the view's
  // English "end" is for other clients; this page says it in the reader's language.
  var END = {
    end_capped: gettext("all six colours at %(cap)s"),
    end_resignation: pgettext("why the game ended", "resignation"),
    end_no_placement: gettext("no legal placement left"),
    end_all_stopped: gettext("every seat has stopped"),
    end_no_tiles: gettext("no tiles left to place"),
  };
  function endText(v) {
    return END[v.end_code] ? fmt(END[v.end_code], v.end_params || {}) : v.end;
  }
  C.noteServerTime(clock.server_time_ms);
  function fmt(text, values) { return interpolate(text, values, true); }
  function name(s) { return view.players[s]; }

  function message(text) {
    var box = $("online-message");
    box.textContent = text || "";
    box.hidden = !text;
  }

  function qr(cell) { return [Number(cell.slice(1)) - 6, 5 - (cell.charCodeAt(0) - 97)]; }
  function adjacent(a, b) {
    var x = qr(a), y = qr(b), dq = y[0] - x[0], dr = y[1] - x[1];
    return [[1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]].some(function (d) {
      return d[0] === dq && d[1] === dr;
    });
  }
  function myTurn(awaiting) {
    return seat && !view.over && view.to_act === seat && (!awaiting || view.awaiting === awaiting);
  }
  /* Whether this seat may send a move now: its turn, the clocks started and not paused, the
   * link not replaced, no move of its own still unanswered. */
  function mayMove(awaiting) {
    return myTurn(awaiting) && !replaced && !pending && clock.status !== "not_started" &&
      !clock.paused;
  }

  /* When this seat's turn began on this screen: a move sends how long ago (think_ms), and the
   * server credits the network's delay within bounds (docs/online-protocol.md). */
  var turnKey = null, turnSeen = performance.now();
  function noteTurn(c) {
    var key = c.running === seat ? c.press_number + ":" + c.epoch : null;
    if (key !== null && key !== turnKey) turnSeen = performance.now();
    turnKey = key;
  }
  noteTurn(clock);

  function send(move) {
    if (replaced) return;
    if (pending) { message(S.still_sending); return; }
    message("");
    move.type = "move";
    move.number = view.number;
    if (turnKey !== null) move.think_ms = Math.max(0, Math.round(performance.now() - turnSeen));
    pending = move;
    conn.send(move);  // on a lost link it waits in `pending` for the link to come back
    render();
  }

  /* The first view after the link came back: a move still unanswered was either played (the
   * game's number went past it), or is sent again as it was, or can no longer be played. */
  function resend() {
    if (!pending) return;
    if (view.number > pending.number) { pending = null; return; }
    if (view.number === pending.number && myTurn()) { conn.send(pending); return; }
    pending = null;
    clearPick();
    message(S.moved_on);
  }

  function place(first, second) {
    var tile = view.rack[chosen];
    var a = turned ? tile[1] : tile[0], b = turned ? tile[0] : tile[1];
    send({ move: "place", placement: first + a + "-" + second + b });
  }

  function clearPick() {
    picked.forEach(function (c) { board.highlight(c, false); });
    picked = [];
  }

  function onCell(cell) {
    if (!seat || replaced) return;
    if (pending) { message(S.still_sending); return; }
    if (!myTurn("place")) { message(S.not_yours); return; }
    if (view.cells[cell]) return;
    if (chosen === null) { message(S.pick_tile); return; }
    if (picked.length === 1 && picked[0] === cell) { clearPick(); return; }
    if (picked.length === 1 && !adjacent(picked[0], cell)) { clearPick(); message(S.not_adjacent); }
    picked.push(cell);
    board.highlight(cell, true);
    if (picked.length === 2) place(picked[0], picked[1]);
  }

  function symbolSvg(letter) {
    return '<svg class="sym" role="img" aria-label="' + HexBoard.NAMES[letter] + '"><use href="' +
      HexBoard.SYMBOLS + "#sym-" + letter + '"></use></svg>';
  }

  function renderRack() {
    var rack = $("rack");
    if (!rack) return;
    rack.innerHTML = "";
    if (chosen !== null && chosen >= view.rack.length) chosen = null;
    view.rack.forEach(function (tile, i) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "tile";
      button.dataset.tile = tile;
      button.dataset.index = i;
      var shown = chosen === i && turned ? tile[1] + tile[0] : tile;
      button.innerHTML = symbolSvg(shown[0]) + symbolSvg(shown[1]);
      button.setAttribute("aria-pressed", chosen === i ? "true" : "false");
      button.disabled = !mayMove("place");
      button.addEventListener("click", function () {
        if (chosen === i) turned = !turned; else { chosen = i; turned = false; }
        clearPick();
        renderRack();
      });
      rack.appendChild(button);
    });
  }

  function renderScores() {
    ["A", "B"].forEach(function (s) {
      var box = root.querySelector('[data-scores="' + s + '"]');
      var low = view.lowest[s];
      box.querySelectorAll(".score").forEach(function (el) {
        var c = el.dataset.colour;
        el.querySelector("b").textContent = view.scores[s][c];
        el.classList.toggle("lowest", low.indexOf(c) >= 0);
      });
    });
  }

  function statusText() {
    if (replaced) return fmt(S.replaced, { why: replaced });
    if (view.over) return fmt(S.over, { result: view.result, end: endText(view) });
    if (pending) return linkState === "connected" ? S.sending : S.sending_offline;
    if (clock.status === "not_started") return S.not_started;
    if (clock.paused) return S.paused;
    var other = view.to_act;
    var flagged = ["A", "B"].filter(function (s) { return view.stopped[s]; });
    var prefix = flagged.length ? fmt(S.flagged, { name: name(flagged[0]) }) + " · " : "";
    if (seat && other === seat) {
      return prefix + (view.awaiting === "choice" ? S.your_choice : view.bonus ? S.your_bonus : S.your_move);
    }
    // another seat's choice to swap is never shown here (the server says "place"): see the protocol
    var text = view.bonus ? S.waiting_bonus : S.waiting;
    return prefix + fmt(text, { name: name(other) });
  }

  function render() {
    root.dataset.number = view.number;
    root.dataset.toAct = view.to_act || "";
    root.dataset.awaiting = view.awaiting || "";
    root.dataset.over = view.over ? "1" : "0";
    Object.keys(view.cells).forEach(function (cell) { board.setColour(cell, view.cells[cell]); });
    lastCells.forEach(function (c) { board.cells[c].setAttribute("stroke", "#8a8172"); board.cells[c].setAttribute("stroke-width", 1); });
    lastCells = view.last || [];
    lastCells.forEach(function (c) { board.cells[c].setAttribute("stroke", "#dc2626"); board.cells[c].setAttribute("stroke-width", 3); });
    renderScores();
    renderRack();
    if ($("choice")) $("choice").hidden = !mayMove("choice");
    if ($("entry")) $("entry").hidden = Boolean(replaced) || view.over;
    root.dataset.pending = pending ? "1" : "0";
    root.dataset.replaced = replaced ? "1" : "0";
    $("online-status").textContent = statusText();
    if (view.over) {
      $("online-end").hidden = false;
      $("end-result").textContent = fmt(S.over, { result: view.result, end: endText(view) });
      $("end-seed").textContent = view.seed || "";
      if (view.record_id) $("end-record").href = document.body.dataset.viewer.replace("/0/", "/" + view.record_id + "/");
      if ($("entry")) $("entry").hidden = true;
    }
    renderClock();
  }

  function renderClock() {
    var now = C.serverNow(), running = C.runningSide(clock);
    ["A", "B"].forEach(function (s) {
      var left = C.remaining(clock, s, now);
      var box = root.querySelector('[data-player="' + s + '"]');
      box.querySelector(".time").textContent = C.format(left);
      box.classList.toggle("running", running === s);
      box.classList.toggle("low", left < 60000);
      box.classList.toggle("flagged", clock.flags[s] !== null);
    });
  }

  function applyClock(next) {
    if (!next || next.version < clock.version) return;
    C.noteServerTime(next.server_time_ms);
    clock = next;
    noteTurn(clock);
    render();  // the status and the rack follow the clock: started, paused, resumed
  }

  // Views in the order the server made them: by clock version, then move number. Each move
  // adds to the number (a turn's end also to the version); an arbiter's flag taken back
  // removes a move but adds to the version, so the number alone may go down.
  function older(a, b) {
    if (a.clock.version !== b.clock.version) return a.clock.version < b.clock.version;
    return a.number < b.number;
  }

  function applyView(next) {
    if (older(next, view)) return;
    if (next.number !== view.number) { chosen = null; turned = false; clearPick(); }
    if (pending && next.number > pending.number) pending = null;  // answered: the move stands
    view = next;
    applyClock(next.clock);
    render();
  }

  var lastError = "";
  var conn = C.socket(root.dataset.ws, {
    state: function (state) {
      C.connectionLabel($("online-connection"), state);
      if (state === "connected" && pending) reconnected = true;  // decided on the next view
      linkState = state;
      if (state === "refused") { replaced = lastError || C.strings.refused; pending = null; }
      render();
    },
    message: function (data) {
      if (data.type === "state") {
        applyView(data.view);
        if (reconnected) { reconnected = false; resend(); render(); }
      } else if (data.type === "clock") applyClock(data.clock);
      else if (data.type === "refused") {
        pending = null;
        clearPick();
        applyView(data.view);
        message(data.message);
        render();
      } else if (data.type === "error") {
        lastError = data.message;
        if (pending) { pending = null; clearPick(); render(); }
        if (!data.fatal) message(data.message);
      }
    },
  }, seat ? "keeper" : "watcher");

  if (seat) {
    $("swap-btn").addEventListener("click", function () { send({ move: "swap" }); });
    $("refill-btn").addEventListener("click", function () { send({ move: "refill" }); });
    $("resign-btn").addEventListener("click", function () {
      if (window.confirm(S.confirm_resign)) send({ move: "resign" });
    });
    $("entry").addEventListener("submit", function (e) {
      e.preventDefault();
      var text = $("entry-text").value.trim();
      var full = /^([a-k]\d{1,2}[RGBOYP])-([a-k]\d{1,2}[RGBOYP])$/i.exec(text);
      var cells = /^([a-k]\d{1,2})[\s-]+([a-k]\d{1,2})$/i.exec(text);
      if (full) {
        var p = full[1].slice(0, -1).toLowerCase() + full[1].slice(-1).toUpperCase() + "-" +
          full[2].slice(0, -1).toLowerCase() + full[2].slice(-1).toUpperCase();
        send({ move: "place", placement: p });
      } else if (cells) {
        if (chosen === null) { message(S.pick_tile); return; }
        place(cells[1].toLowerCase(), cells[2].toLowerCase());
      } else { message(S.bad_entry); return; }
      $("entry-text").value = "";
    });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") conn.send({ type: "sync" });
  });
  render();
  setInterval(renderClock, 200);
})();
