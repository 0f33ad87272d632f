/* Board clock: shows the server's snapshots and interpolates between them; never decides.
 *
 * The server sends a full snapshot on connect and after every change (docs/clock.md). Between
 * snapshots the running side's time is derived from the snapshot and the server's time, which is
 * estimated from the snapshots' server_time_ms (the largest recent "server minus client" sample
 * is the one with the least network delay). A press is shown at once (optimistic) and replaced
 * by the server's next snapshot, which always wins.
 *
 * window.IngeniousClock exposes the helpers hall.js shares (format, remaining, socket, offsets,
 * the translated strings).
 */
(function () {
  "use strict";

  var offsets = [];
  function noteServerTime(serverMs) {
    offsets.push(serverMs - Date.now());
    if (offsets.length > 16) offsets.shift();
  }
  function serverNow() {
    return offsets.length ? Date.now() + Math.max.apply(null, offsets) : Date.now();
  }

  function runningSide(snap) {
    return snap && !snap.finished && !snap.paused ? snap.running : null;
  }
  function remaining(snap, side, now) {
    var base = snap.remaining_ms[side];
    if (runningSide(snap) !== side) return base;
    var elapsed = Math.max(0, (now === undefined ? serverNow() : now) - snap.server_time_ms);
    return Math.max(0, base - Math.max(0, elapsed - (snap.delay_left_ms || 0)));
  }
  function format(ms) {
    if (ms < 10000) {
      var tenths = Math.floor(ms / 100);
      return "0:0" + Math.floor(tenths / 10) + "." + (tenths % 10);
    }
    var s = Math.ceil(ms / 1000), m = Math.floor(s / 60), r = s % 60;
    return m + ":" + (r < 10 ? "0" : "") + r;
  }

  /* Every text the clock pages show, from Django's JavaScript catalog (/jsi18n/), keyed by
   * the connection state or the clock status it describes. */
  var strings = {
    connected: gettext("Connected"),
    connecting: gettext("Connecting…"),
    reconnecting: gettext("Connection lost: reconnecting…"),
    refused: gettext("Refused"),
    not_started: gettext("Waiting for the arbiter to start the clock"),
    paused: gettext("Paused by the arbiter"),
    finished: gettext("Game over: the clock is stopped"),
    a_flagged: gettext("First player's time is up: the second player plays on alone"),
    b_flagged: gettext("Second player's time is up: the first player plays on alone"),
    both_flagged: gettext("Both players' time is up"),
    running: gettext("Tap your side when your turn is over"),
    running_spectator: gettext("Live"),
    not_your_turn: gettext("It is not this side's turn."),
    reason_prompt: gettext("Reason (kept in the clock log):"),
    reason_default: gettext("Arbiter decision"),
    confirm_finish: gettext("Stop this clock for good?"),
    no_wake_lock: gettext("This device may dim its screen: keep it awake in its settings."),
  };

  /* A websocket that reconnects by itself with backoff, pings every 20 s and gives up only
   * when the server refuses (close code 4403). */
  function socket(path, handlers) {
    var ws = null, attempt = 0, lastMessage = 0, refused = false, timer = null;
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
    function open() {
      handlers.state("connecting");
      ws = new WebSocket(url);
      ws.onopen = function () { attempt = 0; lastMessage = Date.now(); handlers.state("connected"); };
      ws.onmessage = function (e) {
        lastMessage = Date.now();
        var data;
        try { data = JSON.parse(e.data); } catch (_err) { return; }
        if (data.type === "error" && data.fatal) refused = true;
        handlers.message(data);
      };
      ws.onclose = function (e) {
        if (e.code === 4403 || refused) { refused = true; handlers.state("refused"); return; }
        handlers.state("reconnecting");
        var delay = Math.min(10000, 500 * Math.pow(2, attempt++)) * (0.75 + Math.random() / 2);
        timer = setTimeout(open, delay);
      };
    }
    setInterval(function () {
      if (!ws || ws.readyState !== WebSocket.OPEN) return;
      if (Date.now() - lastMessage > 30000) { ws.close(); return; }  // silent network: redo
      if (Date.now() - lastMessage > 20000) send({ type: "sync" });
    }, 5000);
    function send(message) {
      if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify(message)); return true; }
      return false;
    }
    window.addEventListener("online", function () {
      if (!refused && (!ws || ws.readyState === WebSocket.CLOSED)) { clearTimeout(timer); open(); }
    });
    open();
    return { send: send };
  }

  function askReason() {
    var reason = window.prompt(strings.reason_prompt, strings.reason_default);
    return reason && reason.trim() ? reason.trim() : null;
  }

  /* The message for an arbiter command button (data-command, data-side, ...), or null. */
  function commandFor(button) {
    var d = button.dataset, message = { type: d.command };
    if (d.side) message.side = d.side;
    if (d.kind) message.kind = d.kind;
    if (d.seconds) message.seconds = parseInt(d.seconds, 10);
    if (d.turn) message.turn = d.turn;
    if (d.command === "adjust" || d.command === "correct" || d.command === "finish") {
      if (d.command === "finish" && !window.confirm(strings.confirm_finish)) return null;
      var reason = askReason();
      if (!reason) return null;
      message.reason = reason;
    }
    return message;
  }

  function showMessage(text) {
    var box = document.getElementById("clock-message");
    if (!box) return;
    box.textContent = text;
    box.hidden = !text;
    clearTimeout(showMessage.timer);
    if (text) showMessage.timer = setTimeout(function () { box.hidden = true; }, 6000);
  }

  function connectionLabel(el, state) {
    if (!el) return;
    el.dataset.state = state;
    el.textContent = strings[state] || state;
  }

  window.IngeniousClock = {
    noteServerTime: noteServerTime, serverNow: serverNow, remaining: remaining,
    runningSide: runningSide, format: format, strings: strings, socket: socket,
    commandFor: commandFor, showMessage: showMessage, connectionLabel: connectionLabel,
  };

  var root = document.getElementById("clock");
  if (!root) return;

  var snap = JSON.parse(document.getElementById("clock-initial").textContent);
  var confirmed = snap.version;
  var canPress = root.dataset.canPress === "1";
  var sides = {
    A: root.querySelector(".side-A"), B: root.querySelector(".side-B"),
  };
  var statusEl = document.getElementById("clock-status");
  var connectionEl = document.getElementById("clock-connection");
  noteServerTime(snap.server_time_ms);

  function apply(next) {
    if (!next || next.version < confirmed) return;  // an older snapshot overtaken by a newer one
    confirmed = next.version;
    noteServerTime(next.server_time_ms);
    snap = next;
    render();
  }

  function statusText() {
    if (snap.finished) return strings.finished;
    if (snap.status === "not_started" || snap.status === "paused") return strings[snap.status];
    if (snap.status.indexOf("flagged") >= 0) return strings[snap.status];
    return root.dataset.mode === "player" ? strings.running : strings.running_spectator;
  }

  function render() {
    var now = serverNow(), running = runningSide(snap);
    root.dataset.status = snap.status;
    ["A", "B"].forEach(function (side) {
      var left = remaining(snap, side, now), el = sides[side];
      el.querySelector(".time").textContent = format(left);
      el.classList.toggle("running", running === side);
      el.classList.toggle("low", left < 60000);
      el.classList.toggle("flagged", snap.flags[side] !== null || (running === side && left === 0));
      el.setAttribute("aria-pressed", running === side ? "true" : "false");
    });
    var text = statusText();
    if (statusEl.textContent !== text) statusEl.textContent = text;
  }

  var conn = socket(root.dataset.ws, {
    state: function (state) {
      connectionLabel(connectionEl, state);
      root.classList.toggle("offline", state !== "connected");
    },
    message: function (data) {
      if (data.type === "snapshot") apply(data.clock);
      else if (data.type === "ignored") { confirmed = Math.min(confirmed, data.clock.version); apply(data.clock); showMessage(data.message); }
      else if (data.type === "error") showMessage(data.message);
    },
  });

  /* Optimistic press: hand the turn over on screen now; the server's snapshot confirms it. */
  function press(side) {
    keepAwake();
    if (!canPress) return;
    if (runningSide(snap) !== side) { showMessage(strings.not_your_turn); return; }
    if (!conn.send({ type: "press", side: side, press: snap.press_number })) return;
    if (navigator.vibrate) navigator.vibrate(30);
    var now = serverNow(), local = JSON.parse(JSON.stringify(snap));
    local.remaining_ms[side] = remaining(snap, side, now);
    local.running = local.turn = side === "A" ? "B" : "A";
    local.server_time_ms = now;
    local.delay_left_ms = 0;
    local.press_number += 1;
    snap = local;
    render();
  }

  ["A", "B"].forEach(function (side) {
    sides[side].addEventListener("click", function () { press(side); });
  });
  document.addEventListener("keydown", function (e) {
    var tag = (e.target && e.target.tagName) || "";
    if (/INPUT|TEXTAREA|SELECT/.test(tag) || e.ctrlKey || e.metaKey || e.altKey) return;
    var side = null;
    if (e.key === " " || e.key === "Enter") side = runningSide(snap);
    else if (e.key === "ArrowLeft" || e.key === "a" || e.key === "A") side = "A";
    else if (e.key === "ArrowRight" || e.key === "l" || e.key === "L") side = "B";
    if (!side) return;
    e.preventDefault();  // also stops Space/Enter from "clicking" the focused half a second time
    press(side);
  });

  document.querySelectorAll(".arbiter-clock [data-command]").forEach(function (button) {
    button.addEventListener("click", function () {
      var message = commandFor(button);
      if (message) conn.send(message);
    });
  });

  var fullscreen = root.querySelector("[data-fullscreen]");
  if (fullscreen) {
    fullscreen.hidden = !document.documentElement.requestFullscreen;
    fullscreen.addEventListener("click", function () {
      keepAwake();
      if (document.fullscreenElement) document.exitFullscreen();
      else document.documentElement.requestFullscreen().catch(function () {});
    });
  }

  /* Keep the screen on: the Screen Wake Lock API where there is one, a note where not. */
  var lock = null;
  function keepAwake() {
    if (!("wakeLock" in navigator)) {
      if (!keepAwake.warned) { keepAwake.warned = true; showMessage(strings.no_wake_lock); }
      return;
    }
    if (lock && !lock.released) return;
    navigator.wakeLock.request("screen").then(function (l) { lock = l; }).catch(function () {});
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { keepAwake(); conn.send({ type: "sync" }); }
  });
  if ("wakeLock" in navigator) keepAwake();

  render();
  setInterval(render, 100);
})();
