/* Board clock. The server's snapshots are the record; between them, and through a lost
 * connection, the page keeps time itself (docs/clock.md, "The board device keeps time").
 *
 * The server sends a full snapshot on connect and after every change. The page turns it into a
 * local model on the device's monotonic clock (performance.now(), anchored to timeOrigin so
 * that a reload keeps the timeline), with the snapshot's age estimated from server_time_ms (the
 * largest recent "server minus client" sample is the one with the least network delay; pongs
 * are samples too, and a better estimate dates the running turn again). The
 * model runs the clock, flags a side whose time runs out and takes presses, online or not: each
 * press is queued in localStorage with what the device measured (the press number it ends, the
 * turn's running time, the arbiter epoch it saw) and sent as soon as the socket is open; the
 * server answers each ("pressed": accepted, duplicate or refused with the reason). When the
 * queue is empty the server's snapshot is taken again, and it wins.
 *
 * window.IngeniousClock exposes the helpers hall.js shares (format, remaining, socket, offsets,
 * the translated strings).
 */
(function () {
  "use strict";

  /* The server's clock as this device sees it: the largest recent "server minus device"
   * sample, the one with the least delay. Snapshots and the board page's pongs (one after each
   * 1.25 s without a message) are the samples; noteServerTime says whether the estimate moved. */
  var offsets = [];
  function bestOffset() { return offsets.length ? Math.max.apply(null, offsets) : 0; }
  function noteServerTime(serverMs) {
    if (typeof serverMs !== "number") return false;
    var before = bestOffset();
    offsets.push(serverMs - Date.now());
    if (offsets.length > 16) offsets.shift();
    return bestOffset() !== before;
  }
  function serverNow() { return Date.now() + bestOffset(); }

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
    offline: gettext("Offline"),
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

  /* A websocket that reconnects by itself with backoff and gives up only when the server
   * refuses (close code 4403). It pings after 20 s without a message (a sync) and counts 30 s
   * of silence as a lost connection; with heartbeat set (the board page) it pings after 1.25 s
   * without one and counts 2.75 s as lost, so a dead Wi-Fi is noticed within 3 s and a pong
   * has 1.25 s to come back. One ping per silence: a slow moment of the Wi-Fi is not
   * answered with more traffic. A lost socket is dropped at once, without waiting for a
   * closing handshake that cannot arrive. */
  function socket(path, handlers, heartbeat) {
    var ws = null, attempt = 0, lastMessage = 0, lastPing = 0, refused = false, timer = null;
    var opened = 0, url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
    var silence = heartbeat ? 2750 : 30000, ping = heartbeat ? 1250 : 19750;
    function retry() {
      handlers.state("reconnecting");
      var delay = Math.min(heartbeat ? 4000 : 10000, 500 * Math.pow(2, attempt++));
      timer = setTimeout(open, delay * (0.75 + Math.random() / 2));
    }
    function drop() {
      if (!ws) return;
      ws.onopen = ws.onmessage = ws.onclose = null;
      try { ws.close(); } catch (_err) { /* already closed */ }
      ws = null;
      retry();
    }
    function open() {
      handlers.state("connecting");
      ws = new WebSocket(url);
      opened = Date.now();
      ws.onopen = function () { attempt = 0; lastMessage = Date.now(); handlers.state("connected"); };
      ws.onmessage = function (e) {
        lastMessage = Date.now();
        var data;
        try { data = JSON.parse(e.data); } catch (_err) { return; }
        if (data.type === "error" && data.fatal) refused = true;
        handlers.message(data);
      };
      ws.onclose = function (e) {
        ws = null;
        if (e.code === 4403 || refused) { refused = true; handlers.state("refused"); return; }
        retry();
      };
    }
    setInterval(function () {
      if (!ws) return;
      if (ws.readyState === WebSocket.CONNECTING && Date.now() - opened > 5000) { drop(); return; }
      if (ws.readyState !== WebSocket.OPEN) return;
      var now = Date.now();
      if (now - lastMessage > silence) { drop(); return; }  // silent network: redo
      if (now - lastMessage >= ping && lastPing <= lastMessage) {
        lastPing = now;
        send(heartbeat ? { type: "ping" } : { type: "sync" });
      }
    }, heartbeat ? 250 : 5000);
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

  /* A note under the clock, hidden after 6 s unless it must stay (a refused press). */
  function showMessage(text, stays) {
    var box = document.getElementById("clock-message");
    if (!box) return;
    box.textContent = text;
    box.hidden = !text;
    clearTimeout(showMessage.timer);
    if (text && !stays) showMessage.timer = setTimeout(function () { box.hidden = true; }, 6000);
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

  var canPress = root.dataset.canPress === "1";
  var sides = {
    A: root.querySelector(".side-A"), B: root.querySelector(".side-B"),
  };
  var statusEl = document.getElementById("clock-status");
  var connectionEl = document.getElementById("clock-connection");
  var other = { A: "B", B: "A" };

  function devNow() { return performance.timeOrigin + performance.now(); }
  function timeControl(text) {
    var inc = /\+(\d+)$/.exec(text), delay = /d(\d+)$/.exec(text);
    return { inc: inc ? 1000 * parseInt(inc[1], 10) : 0, delay: delay ? 1000 * parseInt(delay[1], 10) : 0 };
  }

  /* The local model: each side's time at the start of the running turn (base), the running
   * side and when its turn began on the device's clock, flags, press number and epoch. */
  function fromSnapshot(s) {
    var tc = timeControl(s.time_control), running = runningSide(s);
    var m = {
      version: s.version, status: s.status, finished: s.finished, paused: s.paused,
      running: running, pressNumber: s.press_number, epoch: s.epoch || 0,
      base: { A: s.remaining_ms.A, B: s.remaining_ms.B }, turnStart: null,
      flags: { A: s.flags.A !== null, B: s.flags.B !== null }, inc: tc.inc, delay: tc.delay,
    };
    if (running) {
      var age = Math.max(0, serverNow() - s.server_time_ms), elapsed = s.turn_elapsed_ms || 0;
      m.turnStart = devNow() - elapsed - age;
      m.base[running] = s.remaining_ms[running] + Math.max(0, elapsed - tc.delay);
    }
    return m;
  }
  function left(m, side, now) {
    if (m.running !== side) return m.base[side];
    return Math.max(0, m.base[side] - Math.max(0, now - m.turnStart - m.delay));
  }
  /* Flags the device's own timeline reaches: the side runs out at its deadline, the other
   * plays on alone from there (or nothing runs when both are out), offline too. */
  function advance(m, now) {
    while (m.running && now >= m.turnStart + m.base[m.running] + m.delay) {
      var out = m.running, deadline = m.turnStart + m.base[out] + m.delay;
      m.flags[out] = true;
      m.base[out] = 0;
      m.running = m.flags[other[out]] ? null : other[out];
      m.turnStart = deadline;
      m.status = m.running ? out.toLowerCase() + "_flagged" : "both_flagged";
    }
  }

  var store = "ingenious-clock:" + root.dataset.ws;
  var saved = null;
  try { saved = JSON.parse(localStorage.getItem(store) || "null"); } catch (_err) { saved = null; }
  var initial = JSON.parse(document.getElementById("clock-initial").textContent);
  noteServerTime(initial.server_time_ms);
  var queue = saved && saved.queue && saved.queue.length ? saved.queue : [];
  var model = queue.length ? saved.model : fromSnapshot(initial);
  var latest = initial;  // the newest snapshot the server sent
  var confirmed = initial.version;
  var link = { state: "connecting", lastContact: null, accepted: 0, refused: [] };

  function save() {
    try {
      if (queue.length) localStorage.setItem(store, JSON.stringify({ queue: queue, model: model }));
      else localStorage.removeItem(store);
    } catch (_err) { /* private mode: the queue lives as long as the tab */ }
  }

  /* The server's snapshot is taken as soon as no press of this device waits for its answer. */
  function adopt() {
    if (queue.length || latest.version < confirmed) return;
    confirmed = latest.version;
    model = fromSnapshot(latest);
  }
  function received(snapshot) {
    noteServerTime(snapshot.server_time_ms);
    if (snapshot.version >= latest.version) latest = snapshot;
    adopt();
    render();
  }

  function timeOfDay(ms) { return new Date(ms).toLocaleTimeString(); }
  function linkText() {
    var n = queue.length;
    if (link.state === "refused") return strings.refused;
    if (link.state === "connected") {
      if (!n) return strings.connected;
      return interpolate(ngettext("Back online: sending %(n)s press…", "Back online: sending %(n)s presses…", n), { n: n }, true);
    }
    if (link.lastContact === null) return strings.connecting;
    var text = n
      ? ngettext("Offline since %(t)s: this board keeps time; %(n)s press will be sent",
                 "Offline since %(t)s: this board keeps time; %(n)s presses will be sent", n)
      : gettext("Offline since %(t)s: this board keeps time");
    return interpolate(text, { t: timeOfDay(link.lastContact), n: n }, true);
  }

  function statusText() {
    if (model.finished) return strings.finished;
    if (model.status === "not_started" || model.status === "paused") return strings[model.status];
    if (model.status.indexOf("flagged") >= 0) return strings[model.status];
    return root.dataset.mode === "player" ? strings.running : strings.running_spectator;
  }

  function render() {
    var now = devNow();
    advance(model, now);
    root.dataset.status = model.status;
    root.dataset.queued = String(queue.length);
    ["A", "B"].forEach(function (side) {
      var ms = left(model, side, now), el = sides[side];
      el.querySelector(".time").textContent = format(ms);
      el.classList.toggle("running", model.running === side);
      el.classList.toggle("low", ms < 60000);
      el.classList.toggle("flagged", model.flags[side]);
      el.setAttribute("aria-pressed", model.running === side ? "true" : "false");
    });
    var text = statusText();
    if (statusEl.textContent !== text) statusEl.textContent = text;
    var state = link.state === "connected" || link.state === "refused" || link.lastContact === null
      ? link.state : "offline";
    if (connectionEl.dataset.state !== state) connectionEl.dataset.state = state;
    text = linkText();
    if (connectionEl.textContent !== text) connectionEl.textContent = text;
  }

  /* The server's answer to a queued press: it leaves the queue, counted or refused. */
  function answered(data) {
    var i = queue.findIndex(function (p) { return p.press === data.press && p.side === data.side; });
    if (i < 0) return;
    queue.splice(0, i + 1);
    if (data.status === "refused") link.refused.push(data.message);
    else link.accepted += 1;
    noteServerTime(data.clock.server_time_ms);
    if (data.clock.version >= latest.version) latest = data.clock;
    save();
    if (queue.length) return;
    adopt();
    if (link.refused.length) {
      showMessage(interpolate(ngettext("%(n)s press refused: %(why)s", "%(n)s presses refused: %(why)s",
        link.refused.length), { n: link.refused.length, why: link.refused[0] }, true), true);
    } else if (link.accepted > 1) {
      showMessage(interpolate(ngettext("Back online: %(n)s press accepted", "Back online: %(n)s presses accepted",
        link.accepted), { n: link.accepted }, true));
    }
    link.accepted = 0;
    link.refused = [];
  }

  function send(p) {
    conn.send({ type: "press", side: p.side, press: p.press, elapsed_ms: p.elapsed_ms, epoch: p.epoch });
  }
  function flush() { queue.forEach(send); }

  /* This tab's id, kept through reloads (sessionStorage): the server lists the board's link
   * per socket, and a new socket of the same tab replaces the older ones, including those of
   * a server worker that died without closing them. */
  function pageId() {
    var id = null;
    try { id = sessionStorage.getItem("ingenious-page"); } catch (_err) { /* storage off */ }
    if (!id) {
      var bytes = new Uint8Array(12);
      crypto.getRandomValues(bytes);
      id = Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
      try { sessionStorage.setItem("ingenious-page", id); } catch (_err) { /* storage off */ }
    }
    return id;
  }

  var conn = socket(root.dataset.ws + "?page=" + pageId(), {
    state: function (state) {
      if (link.state === "connected" && state !== "connected") link.lastContact = Date.now();
      link.state = state;
      if (state === "connected") { link.lastContact = Date.now(); flush(); }
      render();
    },
    message: function (data) {
      link.lastContact = Date.now();
      if (data.type === "snapshot") received(data.clock);
      else if (data.type === "pong") { if (noteServerTime(data.server_time_ms)) { adopt(); render(); } }
      else if (data.type === "pressed") { answered(data); render(); }
      else if (data.type === "ignored") { confirmed = Math.min(confirmed, data.clock.version); received(data.clock); showMessage(data.message); }
      else if (data.type === "error") showMessage(data.message);
    },
  }, root.dataset.mode === "player");

  /* A press counts on this device at once and waits in the queue for the server's answer. */
  function press(side) {
    keepAwake();
    if (!canPress) return;
    var now = devNow();
    advance(model, now);
    if (model.running !== side) { showMessage(strings.not_your_turn); return; }
    if (navigator.vibrate) navigator.vibrate(30);
    queue.push({ side: side, press: model.pressNumber, elapsed_ms: Math.round(now - model.turnStart),
                 epoch: model.epoch });
    model.base[side] = left(model, side, now) + model.inc;
    model.pressNumber += 1;
    model.running = model.flags[other[side]] ? side : other[side];
    model.turnStart = now;
    save();
    send(queue[queue.length - 1]);
    render();
  }

  ["A", "B"].forEach(function (side) {
    sides[side].addEventListener("click", function () { press(side); });
  });
  document.addEventListener("keydown", function (e) {
    var tag = (e.target && e.target.tagName) || "";
    if (/INPUT|TEXTAREA|SELECT/.test(tag) || e.ctrlKey || e.metaKey || e.altKey) return;
    var side = null;
    if (e.key === " " || e.key === "Enter") { advance(model, devNow()); side = model.running; }
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
