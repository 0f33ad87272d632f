/* An online game (docs/online-protocol.md): shows the server's views and sends moves; the
 * server (the rules engine) decides everything. A seat's page: tap a tile of the rack (tap it
 * again to turn it), then two adjacent cells; the tile shows on the board with Confirm and
 * Cancel (or goes at once with confirmation switched off in Options); or type "f10R-f9G", or
 * two cell names for the chosen tile. A move sent shows on the own board at once, marked as
 * sent, until the server's answer confirms it or takes it back with the reason. A spectator's
 * page only shows. Clocks as on the clock page (clock.js helpers).
 */
(function () {
  "use strict";
  var root = document.getElementById("online");
  if (!root) return;
  var C = window.IngeniousClock, M = window.IngeniousMoves;
  var seat = root.dataset.seat || null;
  var view = JSON.parse(document.getElementById("online-initial").textContent);
  var clock = view.clock;
  var $ = function (id) { return document.getElementById(id); };
  var board = HexBoard.draw($("online-board"), 5, onCell, onStart, Boolean(seat));
  var chosen = null, turned = false, picked = [], outlined = [], lastTap = null;
  /* A placement shown on the board and not sent (waiting for Confirm). */
  var preview = null;
  /* The move sent and not yet answered (kept through a lost link and sent again with the same
   * number when it is back), and the reason this link stopped playing (the arbiter gave the
   * seat a new link): the page never shows a move as made, or the rack as playable, when the
   * server has not said so. ``pending.message`` is what went to the server; ``pending.shown``
   * the tile shown on the own board meanwhile. */
  var pending = null, replaced = null, linkState = "connecting", reconnected = false;
  var S = {
    your_move: gettext("Your move: tap a tile, then two cells"),
    your_bonus: gettext("Ingenious! Your bonus play: place another tile"),
    your_choice: gettext("Swap your rack or refill it"),
    confirm: gettext("Confirm the tile shown, or cancel"),
    waiting: gettext("%(name)s to move"),
    waiting_bonus: gettext("%(name)s makes a bonus play"),
    not_started: gettext("Waiting for the arbiter to start the clocks"),
    paused: gettext("Paused by the arbiter"),
    flagged: gettext("%(name)s's time is up and plays no more"),
    over: gettext("Game over: %(result)s (%(end)s)"),
    pick_tile: gettext("Choose a tile of your rack first."),
    not_adjacent: gettext("Those cells do not touch: tap two adjacent free cells."),
    not_yours: gettext("It is not your turn."),
    choose_first: gettext("Swap your rack or refill it first."),
    taken: gettext("That cell is taken: tap a free cell."),
    start_cell: gettext("That is a start symbol: tiles go on the free cells."),
    no_room: gettext("No tile can go there now: tap one of the marked cells."),
    breaks_rule: gettext("Those two cells break the placement rule: a tile must touch a tile or a start symbol. Tap one of the marked cells."),
    cell_free: gettext("%(cell)s, free"),
    cell_reach: gettext("%(cell)s, free, a tile can go here"),
    cell_tile: gettext("%(cell)s, %(colour)s"),
    cell_start: gettext("%(cell)s, start symbol, %(colour)s"),
    cell_preview: gettext("%(cell)s, %(colour)s, shown only: confirm or cancel"),
    cell_sent: gettext("%(cell)s, %(colour)s, sent"),
    cell_chosen: gettext("%(cell)s, chosen"),
    moved: gettext("%(name)s: %(move)s"),
    lowest_words: gettext("lowest: %(colours)s %(points)s"),
    lowest_all: gettext("lowest: all six colours at %(points)s"),
    ingenious: gettext("Ingenious! %(colours)s"),  // at 18: the track shows the star
    score_label: gettext("%(colour)s %(points)s"),
    full_name: gettext("%(name)s (plays %(side)s)"),
    first: gettext("first"),
    second: gettext("second"),
    bad_entry: gettext("Type a move like f10R-f9G, or two cells like f10 f9 for the chosen tile."),
    confirm_resign: gettext("Resign this game? Your opponent wins."),
    sending: gettext("Sending your move…"),
    sending_offline: gettext("Offline: your move is kept and will be sent when the connection is back."),
    still_sending: gettext("Your move is still on its way: wait for the server's answer."),
    moved_on: gettext("Your move was not sent: the game changed while the connection was lost."),
    replaced: gettext("This link no longer plays this seat: %(why)s Ask the arbiter for the new link."),
    won: gettext("You won"),
    lost: gettext("You lost"),
    drawn: gettext("Drawn"),
    winner: gettext("%(name)s won"),
    lowest: gettext("%(name)s: lowest colour %(points)s"),
    next_board: gettext("Your next game: round %(round)s, board %(board)s against %(name)s."),
    next_bye: gettext("Round %(round)s: you have the bye."),
    next_at: gettext("Round %(round)s starts at %(time)s, in %(left)s."),
    next_starts: gettext("It starts at %(time)s, in %(left)s."),
    next_now: gettext("Round %(round)s is starting."),
    next_words: gettext("Round %(round)s starts %(when)s."),
    next_absent: gettext("You asked to miss round %(round)s."),
    next_paused: gettext("The event is paused: %(why)s"),
    next_withdrawn: gettext("You were withdrawn from the event: you are not paired again."),
    next_over: gettext("The event is over."),
    next_standings: gettext("Final standings"),
    next_play: gettext("Play your next game"),
    title_move: gettext("Your move"),
    absent_wait: gettext("%(name)s has not opened the game yet. If they are still away at %(time)s, you may claim the win by forfeit."),
    absent_claim: gettext("%(name)s has not opened the game within the waiting time: you may claim the win by forfeit."),
    confirm_claim: gettext("Claim the win? %(name)s is recorded as absent and loses by forfeit."),
  };
  // Why a game ended, by the engine's code (the view's end_code and end_params): the view's
  // English "end" is for other clients; this page says it in the reader's language.
  var END = {
    end_capped: gettext("all six colours at %(cap)s"),
    end_resignation: pgettext("why the game ended", "resignation"),
    end_no_placement: gettext("no tile fits: no two free cells touch"),
    end_all_stopped: gettext("every seat has stopped"),
    end_no_tiles: gettext("no tiles left to place"),
    end_no_show: gettext("%(names)s did not appear: a forfeit"),
  };
  function endText(v) {
    var params = v.end_params || {};
    if (v.end_code === "end_no_show") {
      params = { names: (params.seats || "").split("").map(name).join(", ") };
    }
    return END[v.end_code] ? fmt(END[v.end_code], params) : v.end;
  }
  C.noteServerTime(clock.server_time_ms);
  function fmt(text, values) { return interpolate(text, values, true); }
  function name(s) { return view.players[s]; }

  // --- options (static/js/online-options.js) ----------------------------------------------------
  var O = window.IngeniousOptions, option = O.option, notify = O.notify;
  O.wire(function (key, on) {
    if (key === "confirm" && !on && preview) confirmPreview();
  });

  // --- feedback where the finger is --------------------------------------------------------------
  /* A note after a tap: over the status line (never over a cell, never in the way of the
   * next tap), the tapped cell flashing where the finger is. */
  var hintTimer = null, flashed = null;
  function hint(text, cell) {
    var box = $("online-message");
    window.clearTimeout(hintTimer);
    box.textContent = text || "";
    box.hidden = !text;
    if (flashed) { board.toggle(flashed, "refused", false); flashed = null; }
    if (!text) return;
    if (cell && board.cells[cell]) { flashed = cell; board.toggle(cell, "refused", true); }
    hintTimer = window.setTimeout(function () { hint(""); }, 4000);
  }
  /* Words for a screen reader, said once (the opponent's move, the next game). */
  var announcing = null;
  function announce(text) {
    var box = $("online-announce");
    box.textContent = "";  // emptied first, so that the same words are said again
    window.clearTimeout(announcing);  // a newer turn says what an older one would have
    announcing = window.setTimeout(function () { box.textContent = text; }, 50);
  }

  function qr(cell) { return [Number(cell.slice(1)) - 6, 5 - (cell.charCodeAt(0) - 97)]; }
  function adjacent(a, b) {
    var x = qr(a), y = qr(b), dq = y[0] - x[0], dr = y[1] - x[1];
    return [[1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]].some(function (d) {
      return d[0] === dq && d[1] === dr;
    });
  }
  var cellsOf = M.cellsOf;
  /* Where a tile can go: the server names the free cells from which a tile meets the placement
   * rule (``reach``, for the seat to move); two adjacent free cells take one exactly when one
   * of them is among these. The page marks them, and refuses a pair that breaks the rule at
   * the second tap instead of after Confirm (the server checks every move again). */
  var reach = null;
  function free(cell) { return Boolean(board.cells[cell]) && !view.cells[cell] && !board.starts[cell]; }
  function neighbours(cell) {
    var p = qr(cell);
    return [[1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]].map(function (d) {
      return HexBoard.cellName(p[0] + d[0], p[1] + d[1], 5);
    }).filter(function (c) { return Boolean(board.cells[c]); });
  }
  function legalPair(a, b) {
    return reach !== null && free(a) && free(b) && adjacent(a, b) && (reach[a] || reach[b]);
  }
  function partners(cell) {
    return neighbours(cell).filter(function (other) { return legalPair(cell, other); });
  }
  function myTurn(awaiting) {
    return seat && !view.over && view.to_act === seat && (!awaiting || view.awaiting === awaiting);
  }
  /* Why this seat may not place now (null: it may): not its turn, the clocks not started or
   * paused, the link replaced, a move of its own still unanswered. */
  function refusal(awaiting) {
    if (replaced || view.over) return "";
    if (pending) return S.still_sending;
    if (!myTurn()) return S.not_yours;
    if (awaiting === "place" && view.awaiting === "choice") return S.choose_first;
    if (!myTurn(awaiting)) return S.not_yours;
    if (clock.status === "not_started") return S.not_started;
    if (clock.paused) return S.paused;
    return null;
  }
  function mayMove(awaiting) { return refusal(awaiting) === null; }

  /* When this seat's turn began on this screen: a move sends how long ago (think_ms), and the
   * server credits the network's delay within bounds (docs/online-protocol.md). */
  var turnKey = null, turnSeen = performance.now();
  function noteTurn(c) {
    var key = c.running === seat ? c.press_number + ":" + c.epoch : null;
    if (key !== null && key !== turnKey) turnSeen = performance.now();
    turnKey = key;
  }
  noteTurn(clock);

  function send(move, shown) {
    if (replaced) return;
    if (pending) { hint(S.still_sending, lastTap); return; }
    hint("");
    move.type = "move";
    move.number = view.number;
    if (turnKey !== null) move.think_ms = Math.max(0, Math.round(performance.now() - turnSeen));
    pending = { message: move, shown: shown || null };
    conn.send(move);  // on a lost link it waits in `pending` for the link to come back
    render();
  }

  /* The first view after the link came back: a move still unanswered was either played (the
   * game's number went past it), or is sent again as it was, or can no longer be played. */
  function resend() {
    if (!pending) return;
    var number = pending.message.number;
    if (view.number > number) { pending = null; return; }
    if (view.number === number && myTurn()) { conn.send(pending.message); return; }
    pending = null;
    clearPick();
    hint(S.moved_on);
  }

  /* A placement goes: shown on the own board at once (faded, the tile gone from the rack)
   * until the server answers. */
  function commit(placement) {
    var cells = cellsOf(placement);
    var tile = cells.length ? [cells[0][1], cells[1][1]].sort(function (a, b) {
      return "RGBOYP".indexOf(a) - "RGBOYP".indexOf(b);
    }).join("") : null;
    var index = chosen !== null && view.rack[chosen] === tile ? chosen : view.rack.indexOf(tile);
    preview = null;
    clearPick();
    send({ move: "place", placement: placement }, { cells: cells, index: index });
  }

  function propose(first, second) {
    var tile = view.rack[chosen];
    var a = turned ? tile[1] : tile[0], b = turned ? tile[0] : tile[1];
    var placement = first + a + "-" + second + b;
    if (!option("confirm")) { commit(placement); return; }
    preview = { placement: placement, cells: cellsOf(placement) };
    render();
  }

  function confirmPreview() {
    if (preview) commit(preview.placement);
  }

  function cancelPreview() {
    preview = null;
    chosen = null;  // the tile back in the rack, not chosen
    turned = false;
    clearPick();
    render();
  }

  function clearPick() {
    picked.forEach(function (c) { board.highlight(c, false); });
    picked = [];
  }

  function onStart(cell) {
    if (seat && !replaced && !view.over) hint(S.start_cell, cell);
  }

  function onCell(cell) {
    lastTap = cell;
    if (!seat || replaced || view.over) return;
    var why = refusal("place");
    if (why) { hint(why, cell); return; }
    if (view.cells[cell]) { hint(S.taken, cell); return; }
    if (chosen === null) { hint(S.pick_tile, cell); return; }
    if (preview) { preview = null; clearPick(); }  // a new tap starts the placement anew
    hint("");
    if (picked.length === 1 && picked[0] === cell) { clearPick(); render(); return; }
    if (picked.length === 1 && adjacent(picked[0], cell) && reach && !legalPair(picked[0], cell)) {
      clearPick();
      hint(S.breaks_rule, cell);
      render();
      return;
    }
    if (picked.length === 1 && !adjacent(picked[0], cell)) { clearPick(); hint(S.not_adjacent, cell); }
    if (!picked.length && reach && !partners(cell).length) { hint(S.no_room, cell); render(); return; }
    picked.push(cell);
    board.highlight(cell, true);
    if (picked.length === 2) propose(picked[0], picked[1]); else render();
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
    var playable = mayMove("place");
    view.rack.forEach(function (tile, i) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "tile";
      button.dataset.tile = tile;
      button.dataset.index = i;
      var shown = chosen === i && turned ? tile[1] + tile[0] : tile;
      button.innerHTML = symbolSvg(shown[0]) + symbolSvg(shown[1]);
      button.setAttribute("aria-pressed", chosen === i ? "true" : "false");
      button.disabled = !playable;
      if (pending && pending.shown && pending.shown.index === i) button.classList.add("sent");
      button.addEventListener("click", function () {
        if (chosen === i) turned = !turned; else { chosen = i; turned = false; }
        hint("");
        if (preview && chosen === i) {
          // the tile turned where it lies: the same two cells, the colours the other way round
          propose(preview.cells[0][0], preview.cells[1][0]);
          return;
        }
        preview = null;
        clearPick();
        render();
      });
      rack.appendChild(button);
    });
  }

  /* Each player's six tracks, 0 to 18, as the game's own board shows them: the lowest colour
   * marked and named in words, a colour at 18 ("Ingenious!") marked too. */
  function renderScores() {
    ["A", "B"].forEach(function (s) {
      var box = root.querySelector('[data-scores="' + s + '"]');
      var low = view.lowest[s], scores = view.scores[s], full = [];
      box.querySelectorAll(".score").forEach(function (el) {
        var c = el.dataset.colour, points = scores[c];
        el.querySelector("b").textContent = points;
        el.querySelector(".track-fill").style.width = (100 * Math.min(points, 18) / 18) + "%";
        el.classList.toggle("lowest", low.indexOf(c) >= 0);
        el.classList.toggle("full", points >= 18);
        if (points >= 18) full.push(HexBoard.NAMES[c]);
        el.setAttribute("aria-label", fmt(S.score_label, { colour: HexBoard.NAMES[c], points: points }));
        el.setAttribute("role", "img");
      });
      var words = low.length === 6 ? fmt(S.lowest_all, { points: scores[low[0]] })
        : fmt(S.lowest_words, {
          colours: low.split("").map(function (c) { return HexBoard.NAMES[c]; }).join(", "),
          points: low.length ? scores[low[0]] : 0,
        });
      if (full.length) words += "\n" + fmt(S.ingenious, { colours: full.join(", ") });  // a line of its own
      var line = root.querySelector('[data-lowest="' + s + '"]');
      if (line.textContent !== words) line.textContent = words;
    });
    $("bag").textContent = view.bag;
  }

  /* The board as the position has it, plus the tile previewed or sent: only cells that change
   * are redrawn. */
  var drawn = {};
  function renderBoard() {
    var want = {};
    Object.keys(view.cells).forEach(function (cell) { want[cell] = view.cells[cell] + ":"; });
    var extra = pending && pending.shown ? [pending.shown.cells, "pending"]
      : preview ? [preview.cells, "preview"] : null;
    if (extra) {
      extra[0].forEach(function (part) {
        if (!view.cells[part[0]]) want[part[0]] = part[1] + ":" + extra[1];
      });
    }
    Object.keys(drawn).forEach(function (cell) {
      if (!(cell in want)) { board.setColour(cell, null); board.mark(cell, null); }
    });
    Object.keys(want).forEach(function (cell) {
      if (drawn[cell] === want[cell]) return;
      var parts = want[cell].split(":");
      board.setColour(cell, parts[0]);
      board.mark(cell, parts[1] || null);
    });
    drawn = want;
    renderReach();
    outlined.forEach(function (c) { board.highlight(c, false); });
    var turns = M.turns(view.actions || []), last = null;
    for (var i = turns.length - 1; i >= 0 && !last; i--) if (turns[i].cells.length) last = turns[i];
    outlined = last ? last.cells : [];
    outlined.forEach(function (c) {
      board.cells[c].setAttribute("stroke", "#dc2626");
      board.cells[c].setAttribute("stroke-width", 3);
    });
    picked.forEach(function (c) { board.highlight(c, true); });
    renderLabels();
  }

  /* The cells a tile can go to now, marked: any such cell before the first tap, the partners
   * of the first cell after it; none while a move is previewed or on its way. */
  var marked = {};
  function renderReach() {
    reach = null;
    if (view.reach && mayMove("place")) {
      reach = {};
      view.reach.forEach(function (c) { reach[c] = true; });
    }
    var want = {};
    if (reach && !preview && !pending && chosen !== null) {
      var cells = picked.length === 1 ? partners(picked[0])
        : Object.keys(board.cells).filter(function (c) { return free(c) && partners(c).length; });
      cells.forEach(function (c) { want[c] = true; });
    }
    Object.keys(marked).forEach(function (c) { if (!want[c]) board.toggle(c, "reach", false); });
    Object.keys(want).forEach(function (c) { if (!marked[c]) board.toggle(c, "reach", true); });
    marked = want;
  }

  /* Every cell's name for a screen reader: free (and whether a tile can go there), a tile and
   * its colour, a start symbol, a tile shown only or sent, the cell chosen. */
  var labels = {};
  function renderLabels() {
    if (!seat) return;
    Object.keys(board.cells).forEach(function (c) {
      var parts = (drawn[c] || "").split(":"), text;
      if (board.starts[c]) text = fmt(S.cell_start, { cell: c, colour: HexBoard.NAMES[board.starts[c]] });
      else if (parts[0] && parts[1] === "preview") text = fmt(S.cell_preview, { cell: c, colour: HexBoard.NAMES[parts[0]] });
      else if (parts[0] && parts[1] === "pending") text = fmt(S.cell_sent, { cell: c, colour: HexBoard.NAMES[parts[0]] });
      else if (parts[0]) text = fmt(S.cell_tile, { cell: c, colour: HexBoard.NAMES[parts[0]] });
      else if (picked.indexOf(c) >= 0) text = fmt(S.cell_chosen, { cell: c });
      else text = fmt(marked[c] ? S.cell_reach : S.cell_free, { cell: c });
      if (labels[c] !== text) { labels[c] = text; board.label(c, text); }
    });
  }

  var logged = -1;
  function renderLog() {
    var actions = view.actions || [];
    if (actions.length === logged) return;
    logged = actions.length;
    M.render($("log"), actions, view.players);
  }

  function statusText() {
    if (replaced) return fmt(S.replaced, { why: replaced });
    if (view.over) return fmt(S.over, { result: view.result, end: endText(view) });
    if (pending) return linkState === "connected" ? S.sending : S.sending_offline;
    if (clock.status === "not_started") return S.not_started;
    if (clock.paused) return S.paused;
    if (preview) return S.confirm;
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

  var baseTitle = document.title;
  /* The keyboard's place: a render rebuilds the rack and hides bars, which would drop the
   * focus of a player on the keyboard (a screen reader's user) on the page's body. The focus
   * goes where the game goes on instead: the same tile, Confirm once a tile is shown (from the
   * board), the swap choice, or the board. A tap moves no focus. */
  var usingKeys = false, shownPreview = false;  // whether the last render showed a preview
  document.addEventListener("keydown", function () { usingKeys = true; }, true);
  document.addEventListener("pointerdown", function () { usingKeys = false; }, true);
  function focusPlace() {
    var active = document.activeElement, tile = active && active.closest ? active.closest("#rack .tile") : null;
    return { tile: tile ? Number(tile.dataset.index) : null,
             board: Boolean(active && active.closest && active.closest("#online-board")) };
  }
  function keepFocus(was) {
    var fresh = Boolean(preview) && !shownPreview;
    shownPreview = Boolean(preview);
    if (!usingKeys || !seat || !$("rack") || !$("online-end").hidden) return;
    var active = document.activeElement;
    var lost = !active || active === document.body || Boolean(active.closest("[hidden]")) || active.disabled;
    if (was.board && fresh) { $("confirm-btn").focus(); return; }
    if (!lost) return;
    var tile = was.tile === null ? null : $("rack").querySelector('.tile[data-index="' + was.tile + '"]');
    if (tile && !tile.disabled) tile.focus();
    else if (!$("choice").hidden) $("swap-btn").focus();
    else if (!$("confirm-bar").hidden) $("confirm-btn").focus();
    else board.focus();
  }

  function render() {
    var was = focusPlace();
    root.dataset.number = view.number;
    root.dataset.toAct = view.to_act || "";
    root.dataset.awaiting = view.awaiting || "";
    root.dataset.over = view.over ? "1" : "0";
    root.dataset.pending = pending ? "1" : "0";
    root.dataset.preview = preview ? "1" : "0";
    root.dataset.replaced = replaced ? "1" : "0";
    renderBoard();
    renderScores();
    renderRack();
    renderLog();
    if ($("choice")) $("choice").hidden = !mayMove("choice");
    if ($("confirm-bar")) $("confirm-bar").hidden = !preview;
    if ($("entry")) $("entry").hidden = Boolean(replaced) || view.over;
    $("online-status").textContent = statusText();
    document.title = (myTurn() && mayMove() ? S.title_move + " · " : "") + baseTitle;
    if (view.over) renderEnd();
    renderClock();
    keepFocus(was);
  }

  // --- the end ------------------------------------------------------------------------------------
  var endShown = false, endClosed = false, nextAsked = false;
  function renderEnd() {
    var result = view.result, winner = result === "1-0" ? "A" : result === "0-1" ? "B" : null;
    $("end-title").textContent = !winner ? S.drawn : seat ? (winner === seat ? S.won : S.lost)
      : fmt(S.winner, { name: name(winner) });
    $("end-result").textContent = fmt(S.over, { result: result, end: endText(view) });
    $("end-scores").textContent = ["A", "B"].map(function (s) {
      var points = Math.min.apply(null, Object.keys(view.scores[s]).map(function (c) { return view.scores[s][c]; }));
      return fmt(S.lowest, { name: name(s), points: points });
    }).join(" · ");
    $("end-seed").textContent = view.seed || "";
    if (view.record_id) $("end-record").href = document.body.dataset.viewer.replace("/0/", "/" + view.record_id + "/");
    if (!endShown && !endClosed) { $("online-end").hidden = false; endShown = true; $("end-close").focus(); }
    if (seat && !nextAsked) { nextAsked = true; conn.send({ type: "news" }); }
  }

  /* What comes next, as the event's news says (the socket brings it as the event moves on,
   * docs/online-protocol.md "The news socket"): the next game, its start and a countdown, a
   * pause, a withdrawal, the final standings; the seat of the next game, when it is dealt, is
   * where the page goes. */
  var news = null;
  function tookNews(next) {
    news = next;
    var mine = view.round;
    if (view.over && next.seat && next.round > mine && next.seat !== window.location.pathname) {
      notify("move");
      C.notifyBrowser(fmt(gettext("Round %(n)s: your game has started"), { n: next.round }));
      window.location.assign(next.seat);
      return;
    }
    renderNext();
  }
  function renderNext() {
    var box = $("end-next");
    if (!box || !news || !view.over) return;
    var parts = [], link = null;
    if (news.final) { parts.push(S.next_over); link = [news.final, S.next_standings]; }
    else if (news.withdrawn) parts.push(S.next_withdrawn);
    else {
      if (news.round > view.round && news.bye) parts.push(fmt(S.next_bye, { round: news.round }));
      else if (news.round > view.round && news.board) {
        parts.push(fmt(S.next_board, { round: news.round, board: news.board, name: news.opponent }));
        var at = news.round_starts_ms, wait = at ? at - C.serverNow() : 0;
        if (wait > 0) parts.push(fmt(S.next_starts, { time: C.localTime(at), left: C.format(wait) }));
        if (news.seat) link = [news.seat, S.next_play];
      }
      if (news.next_round && news.next_round > view.round && !(news.round >= news.next_round)) {
        if (news.starts_ms) {
          var due = news.starts_ms - C.serverNow();
          parts.push(due > 0 ? fmt(S.next_at, { round: news.next_round, time: C.localTime(news.starts_ms), left: C.format(due) })
            : fmt(S.next_now, { round: news.next_round }));
        } else if (news.starts_words) parts.push(fmt(S.next_words, { round: news.next_round, when: news.starts_words }));
        if (news.absent) parts.push(fmt(S.next_absent, { round: news.next_round }));
      }
      if (news.paused) parts.push(fmt(S.next_paused, { why: news.paused_reason || "—" }));
    }
    var text = parts.join(" ");
    if (box.dataset.text === text + (link ? link[0] : "")) return;
    box.dataset.text = text + (link ? link[0] : "");
    box.textContent = text;
    if (link) {
      var a = document.createElement("a");
      a.href = link[0];
      a.textContent = link[1];
      box.appendChild(document.createTextNode(" "));
      box.appendChild(a);
    }
    box.hidden = !text;
    root.dataset.nextKnown = "1";
  }
  $("end-close").addEventListener("click", function () {
    $("online-end").hidden = true;
    endClosed = true;
  });

  /* The opponent never came (games.online.no_show): the server says who has appeared and from
   * when a claim may be made; the page offers it then, and the server checks it again. */
  function renderClaim() {
    var box = $("claim");
    if (!box) return;
    var other = seat === "A" ? "B" : "A", due = view.claim_from_ms;
    var absent = !view.over && !replaced && view.appeared && !view.appeared[other] &&
      due !== null && due !== undefined && clock.finished === null;
    box.hidden = !absent;
    if (!absent) return;
    var ready = C.serverNow() >= due;
    var text = ready ? fmt(S.absent_claim, { name: name(other) })
      : fmt(S.absent_wait, { name: name(other), time: C.localTime(due) });
    if ($("claim-text").textContent !== text) $("claim-text").textContent = text;
    $("claim-btn").hidden = !ready;
    $("claim-btn").disabled = Boolean(pending) || clock.paused;
  }

  var warned = {};
  function renderClock() {
    var now = C.serverNow(), running = C.runningSide(clock);
    ["A", "B"].forEach(function (s) {
      var left = C.remaining(clock, s, now);
      var box = root.querySelector('[data-player="' + s + '"]');
      C.setText(box.querySelector(".time"), C.format(left));
      box.classList.toggle("running", running === s);
      box.classList.toggle("low", left < 60000);
      box.classList.toggle("flagged", clock.flags[s] !== null);
      if (s === seat && running === s) {
        [60000, 10000].forEach(function (mark) {
          if (left < mark && !warned[mark]) { warned[mark] = true; notify("low"); }
        });
      }
    });
    renderClaim();
    renderNext();
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
    var moved = next.number > view.number, actions = next.actions || [];
    if (next.number !== view.number) { chosen = null; turned = false; preview = null; clearPick(); hint(""); }
    if (pending && next.number > pending.message.number) pending = null;  // answered: the move stands
    view = next;
    if (moved && actions.length) {  // every turn in words for a screen reader, with its points
      if (actions[actions.length - 1].seat !== seat) notify("move");
      var turns = M.turns(actions), last = turns[turns.length - 1];
      if (seat && last) announce(fmt(S.moved, { name: name(last.seat), move: M.turnText(last) }));
    }
    applyClock(next.clock);
    render();
  }

  var lastError = "";
  var conn = C.socket(root.dataset.ws, {
    state: function (state) {
      C.connectionLabel($("online-connection"), state);
      if (state === "connected" && pending) reconnected = true;  // decided on the next view
      if (state === "connected") nextAsked = false;  // a new socket: the news is asked again
      linkState = state;
      if (state === "refused") { replaced = lastError || C.strings.refused; pending = null; preview = null; }
      render();
    },
    message: function (data) {
      if (data.type === "state") {
        applyView(data.view);
        if (reconnected) { reconnected = false; resend(); render(); }
      } else if (data.type === "clock") applyClock(data.clock);
      else if (data.type === "news") tookNews(data.news);
      else if (data.type === "refused") {
        pending = null;  // the tile sent goes back to the rack, the board as the server has it
        clearPick();
        applyView(data.view);
        hint(data.message, lastTap);
        render();
      } else if (data.type === "error") {
        lastError = data.message;
        if (pending) { pending = null; clearPick(); render(); }
        if (!data.fatal) hint(data.message, lastTap);
      }
    },
  }, seat ? "keeper" : "watcher");

  /* A name cut to fit shows whole on a tap (in the note over the status line). */
  root.querySelectorAll(".player .name").forEach(function (button) {
    button.addEventListener("click", function () {
      var s = button.closest(".player").dataset.player;
      hint(fmt(S.full_name, { name: button.dataset.fullName, side: s === "A" ? S.first : S.second }));
    });
  });

  if (seat) {
    $("confirm-btn").addEventListener("click", confirmPreview);
    $("claim-btn").addEventListener("click", function () {
      var other = seat === "A" ? "B" : "A";
      if (window.confirm(fmt(S.confirm_claim, { name: name(other) }))) conn.send({ type: "claim" });
    });
    $("cancel-btn").addEventListener("click", cancelPreview);
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
      lastTap = null;
      if (full) {
        commit(full[1].slice(0, -1).toLowerCase() + full[1].slice(-1).toUpperCase() + "-" +
          full[2].slice(0, -1).toLowerCase() + full[2].slice(-1).toUpperCase());
      } else if (cells) {
        if (chosen === null) { hint(S.pick_tile); return; }
        var tile = view.rack[chosen], a = turned ? tile[1] : tile[0], b = turned ? tile[0] : tile[1];
        commit(cells[1].toLowerCase() + a + "-" + cells[2].toLowerCase() + b);
      } else { hint(S.bad_entry); return; }
      $("entry-text").value = "";
    });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") conn.send({ type: "sync" });
  });
  render();
  setInterval(renderClock, 200);
})();
