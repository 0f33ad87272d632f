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
  var snaps = {}, rows = {}, linkOf = {}, lastUpdate = Date.now();
  root.querySelectorAll("tr[data-board]").forEach(function (row) {
    rows[row.dataset.board] = row;
  });

  function apply(snap) {
    if (snap.link) linkOf[snap.board] = snap.link;
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

  /* The link of the device keeping a board's clock: live, offline since its last message,
   * and reconciled presses to look at. */
  function linkText(link) {
    var text = link.state === "live" ? gettext("live")
      : link.state === "offline" ? interpolate(gettext("offline since %(t)s"),
        { t: C.localTime(link.since_ms) }, true)
      : gettext("no device");
    if (link.marked) {
      text += " · " + interpolate(ngettext("%(n)s press reconciled", "%(n)s presses reconciled",
        link.marked), { n: link.marked }, true);
    }
    return text;
  }
  /* Which device keeps the clock, since when and how, and the others watching. */
  var how = {
    first: gettext("kept by the first device since %(t)s"),
    players: gettext("handed over by both players at %(t)s"),
    arbiter: gettext("handed over by the arbiter at %(t)s"),
  };
  function deviceText(link) {
    if (!link.holder && link.state === "none") return "";  // no device has opened the board
    var text = link.holder ? interpolate(how[link.holder.how] || how.first,
      { t: C.localTime(link.holder.since_ms) }, true) : gettext("no device keeps the clock");
    if (link.viewers) {
      text += " · " + interpolate(ngettext("%(n)s other device watching", "%(n)s other devices watching",
        link.viewers), { n: link.viewers }, true);
    }
    return text;
  }
  /* The devices asking to keep a board's clock, one line each: its code (the asking page shows
   * it too), its browser, when it asked, when its page opened and how long it watched, and
   * whether it is still connected; the arbiter hands the clock to the one the players show. */
  function duration(ms) {
    var s = Math.max(0, Math.round(ms / 1000));
    if (s < 60) return interpolate(gettext("%(s)s s"), { s: s }, true);
    return interpolate(gettext("%(m)s min %(s)s s"), { m: Math.floor(s / 60), s: s % 60 }, true);
  }
  function requestText(r) {
    var text = interpolate(gettext("Device %(code)s asks for the clock at %(t)s"),
      { code: r.code, t: C.localTime(r.at_ms) }, true);
    if (r.agent) text += " (" + r.agent + ")";
    if (typeof r.opened_ms === "number") {
      text += " · " + interpolate(gettext("its page opened at %(t)s and watched for %(d)s"),
        { t: C.localTime(r.opened_ms), d: duration(r.at_ms - r.opened_ms) }, true);
    }
    return text + " · " + (r.connected ? gettext("connected") : gettext("not connected"));
  }
  function renderRequests(box, requests) {
    var key = JSON.stringify(requests);
    if (box.dataset.shown === key) return;  // a button stays under the arbiter's finger
    box.dataset.shown = key;
    box.textContent = "";
    requests.forEach(function (r) {
      var line = document.createElement("span"), button = document.createElement("button");
      line.className = "hall-request";
      line.textContent = requestText(r) + " ";
      button.type = "button";
      button.className = "secondary";
      button.dataset.device = r.device;
      button.dataset.code = r.code;
      button.textContent = interpolate(gettext("Hand the clock to %(code)s"), { code: r.code }, true);
      line.appendChild(button);
      box.appendChild(line);
    });
    box.hidden = !requests.length;
  }

  /* The seconds the server credited each side's presses (dated before their arrival). */
  function creditText(snap) {
    var credit = snap.credited_ms || { A: 0, B: 0 };
    if (!credit.A && !credit.B) return "";
    return interpolate(gettext("credited: first %(a)s s · second %(b)s s"),
      { a: (credit.A / 1000).toFixed(1), b: (credit.B / 1000).toFixed(1) }, true);
  }
  function renderLinks() {
    var offline = 0, marked = 0;
    Object.keys(rows).forEach(function (id) {
      var link = linkOf[id] || { state: "none", marked: 0, notes: [] }, cell = rows[id].querySelector("[data-link]");
      if (link.state === "offline") offline += 1;
      if (link.marked) marked += 1;
      cell.dataset.link = link.state;
      cell.classList.toggle("marked", !!link.marked);
      cell.querySelector("[data-link-text]").textContent = linkText(link);
      cell.title = (link.notes || []).join("\n");
      cell.querySelector("[data-seen]").hidden = !link.marked;
      cell.querySelector("[data-device-text]").textContent = deviceText(link);
      var requests = link.requests || [];
      renderRequests(cell.querySelector("[data-requests]"), requests);
      cell.querySelector("[data-free]").hidden = !!requests.length || !link.holder;
    });
    var parts = [];
    if (offline) parts.push(interpolate(ngettext("%(n)s board offline", "%(n)s boards offline", offline), { n: offline }, true));
    if (marked) parts.push(interpolate(ngettext("%(n)s board to check", "%(n)s boards to check", marked), { n: marked }, true));
    var top = document.getElementById("hall-links");
    top.textContent = parts.join(" · ");
    top.classList.toggle("alert", offline > 0);
  }

  function render() {
    var now = C.serverNow();
    Object.keys(snaps).forEach(function (id) {
      var snap = snaps[id], row = rows[id];
      if (!row) return;
      var running = C.runningSide(snap);
      if (row.dataset.status !== snap.status) row.dataset.status = snap.status;
      ["A", "B"].forEach(function (side) {
        var cell = row.querySelector('[data-time="' + side + '"]'), left = C.remaining(snap, side, now);
        C.setText(cell, C.format(left));
        cell.classList.toggle("running", running === side);
        cell.classList.toggle("low", left < 60000);
        cell.classList.toggle("flagged", snap.flags[side] !== null || (running === side && left === 0));
      });
      var status = row.querySelector("[data-status-text]"), text = statusText(snap);
      if (status.textContent !== text) status.textContent = text;
      var credit = row.querySelector("[data-credit]");
      text = creditText(snap);
      if (credit.textContent !== text) credit.textContent = text;
      usable(row, snap);
    });
    var age = Math.round((Date.now() - lastUpdate) / 1000);
    C.setText(document.getElementById("hall-updated"), interpolate(
      ngettext("updated %(s)s second ago", "updated %(s)s seconds ago", age), { s: age }, true));
  }

  /* A board's controls offer only what its clock can take: nothing once it is finished, Start
   * before the start, Pause while it runs, Resume while paused (the server refuses the rest
   * anyway; greyed out, the arbiter sees it before clicking). */
  function usable(row, snap) {
    var started = snap.status !== "not_started", finished = Boolean(snap.finished);
    row.querySelectorAll("[data-command]").forEach(function (button) {
      var command = button.dataset.command;
      button.disabled = finished || (command === "start" ? started
        : command === "pause" ? !started || snap.paused
        : command === "resume" ? !snap.paused : false);
    });
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
      if (data.type === "hall") { data.boards.forEach(apply); render(); renderLinks(); }
      else if (data.type === "link") { linkOf[data.board] = data.link; renderLinks(); }
      else if (data.type === "snapshot" || data.type === "ignored") { apply(data.clock); render(); }
      else if (data.type === "done" && data.action === "hand_over") C.showMessage(data.outcome === "freed"
        ? gettext("The clock is free: the next device whose players agree keeps it.")
        : interpolate(gettext("The clock is handed over to device %(code)s."), { code: data.device }, true));
      else if (data.type === "done") C.showMessage(doneText(data.action, data.count));
      else if (data.type === "error") C.showMessage(data.message);
    },
  });

  /* A command reaches the clocks only over the hall's socket: while it is not open (the page
   * just loaded, or the link is down) the arbiter is told that nothing was sent, never left
   * believing a board paused. */
  function command(message) {
    if (!conn.send(message)) C.showMessage(gettext("Not connected: nothing was sent. Try again when the hall says Connected."), true);
  }

  root.querySelectorAll("[data-round-command]").forEach(function (button) {
    button.addEventListener("click", function () {
      var ask = confirmations[button.dataset.roundCommand];
      if (ask && !window.confirm(ask)) return;
      command({ type: button.dataset.roundCommand });
    });
  });
  root.querySelectorAll("tr[data-board] [data-seen]").forEach(function (button) {
    button.addEventListener("click", function () {
      command({ type: "seen", board: parseInt(button.closest("tr").dataset.board, 10) });
    });
  });
  /* The clock to a device that asked for it, or freed for the next whose players agree. */
  root.querySelectorAll("tr[data-board] [data-requests]").forEach(function (box) {
    box.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-device]");
      if (!button) return;
      var ask = interpolate(gettext("Hand this board's clock to device %(code)s? The device keeping it now will only show it; the time on the clock stays as it is."),
        { code: button.dataset.code }, true);
      if (!window.confirm(ask)) return;
      command({ type: "hand_over", board: parseInt(box.closest("tr").dataset.board, 10),
                  device: button.dataset.device });
    });
  });
  root.querySelectorAll("tr[data-board] [data-free]").forEach(function (button) {
    button.addEventListener("click", function () {
      if (!window.confirm(gettext("Free this board's clock? The device keeping it will only show it, and the next device whose players agree keeps it."))) return;
      command({ type: "hand_over", board: parseInt(button.closest("tr").dataset.board, 10) });
    });
  });
  root.querySelectorAll("tr[data-board] [data-command]").forEach(function (button) {
    button.addEventListener("click", function () {
      var board = parseInt(button.closest("tr").dataset.board, 10);
      var message = C.commandFor(button, snaps[board]);
      if (!message) return;
      message.board = board;
      command(message);
    });
  });

  /* An online round: beside each game's clock, its seats (connected, or since when not), its
   * moves and the lowest colours, read from the round's feed every few seconds (the players'
   * sockets are the online games', not the hall's). Past the waiting time, a player who never
   * came gets the round's online page's own Record the no-show button. */
  var online = {
    live: gettext("%(name)s connected"),
    offline: gettext("%(name)s offline since %(t)s"),
    never: gettext("%(name)s has not opened the game"),
    moves: gettext("moves: %(n)s"),
    lowest: gettext("lowest %(a)s–%(b)s"),
  };
  function seatText(row, seat, info) {
    var who = row.querySelector('[data-player="' + seat + '"]').textContent;
    if (info.live) return interpolate(online.live, { name: who }, true);
    if (info.heard) {
      return interpolate(online.offline, { name: who, t: new Date(info.heard).toLocaleTimeString() }, true);
    }
    return info.appeared ? "" : interpolate(online.never, { name: who }, true);
  }
  function renderOnline(feed) {
    Object.keys(feed.boards).forEach(function (id) {
      var row = rows[id], board = feed.boards[id];
      if (!row) return;
      var box = row.querySelector("[data-online]");
      var parts = [seatText(row, "A", board.seats.A), seatText(row, "B", board.seats.B),
        interpolate(online.moves, { n: board.moves }, true) +
          (board.last_move ? " (" + new Date(board.last_move).toLocaleTimeString() + ")" : ""),
        interpolate(online.lowest, { a: board.seats.A.lowest, b: board.seats.B.lowest }, true)];
      var text = parts.filter(Boolean).join(" · ");
      if (box.dataset.shown === text + board.no_show_due) return;  // a button stays under the finger
      box.dataset.shown = text + board.no_show_due;
      box.textContent = text;
      if (board.no_show_due) {  // the same form as on the round's online page
        var form = document.getElementById("no-show-form").content.firstElementChild.cloneNode(true);
        form.action = feed.no_show;
        form.querySelector('[name="board"]').value = board.number;
        form.addEventListener("submit", function (event) {
          if (!window.confirm(form.dataset.confirm)) event.preventDefault();
        });
        box.appendChild(document.createTextNode(" "));
        box.appendChild(form);
      }
      box.hidden = false;
      row.querySelector("[data-link-text]").hidden = true;  // no board device: the moves press
      row.querySelector("[data-device-text]").hidden = true;
    });
  }
  function readFeed() {
    fetch(root.dataset.feed, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (feed) { if (feed) renderOnline(feed); })
      .catch(function () { /* the next read tries again */ });
  }
  if (root.dataset.feed) { readFeed(); setInterval(readFeed, 3000); }

  render();
  renderLinks();
  setInterval(render, 200);
})();
