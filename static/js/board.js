/* The board page's clock (and the spectators' read-only copy). The server's snapshots are the
 * record; between them, and through a lost connection, the page keeps time itself
 * (docs/clock.md, "Pages").
 *
 * The server sends a full snapshot on connect and after every change. The page turns it into a
 * local model on the device's monotonic clock (performance.now(), anchored to timeOrigin so
 * that a reload keeps the timeline), with the snapshot's age estimated from server_time_ms (the
 * largest recent "server minus client" sample is the one with the least network delay; pongs
 * are samples too, and a better estimate dates the running turn again). The model runs the
 * clock, flags a side whose time runs out and takes presses, online or not: each press is
 * queued with what the device measured (the press number it ends, the turn's running time, the
 * arbiter epoch it saw) and sent as soon as the socket is open; the server answers each
 * ("pressed": accepted, duplicate or refused with the reason). When the queue is empty the
 * server's snapshot is taken again, and it wins: the page never runs a side the server does
 * not, and says which side runs.
 *
 * One device keeps a board's clock (the first that opened the page): the page names its device
 * with a random id kept in the browser, and another device's page shows the clock without
 * pressing it, or takes the clock over with both players' agreement on its screen.
 *
 * What the page knows (the queue, the model, the last snapshot) is kept in localStorage, so a
 * reload keeps it; where the browser allows (a secure origin) a service worker keeps the page
 * and its files, so that a reload without the network still shows the running clock, and
 * elsewhere the page asks before it is left while a clock runs or presses wait.
 */
(function () {
  "use strict";
  var C = window.IngeniousClock, root = document.getElementById("clock");
  if (!C || !root) return;

  var strings = C.strings, other = { A: "B", B: "A" };
  var canPress = root.dataset.canPress === "1", isArbiter = root.dataset.arbiter === "1";
  var player = root.dataset.mode === "player", boardNumber = root.dataset.board;
  var sides = { A: root.querySelector(".side-A"), B: root.querySelector(".side-B") };
  var statusEl = document.getElementById("clock-status");
  var connectionEl = document.getElementById("clock-connection");
  var deviceEl = document.getElementById("clock-device");
  var runs = {
    A: gettext("First player's clock runs."), B: gettext("Second player's clock runs."),
  };

  function devNow() { return performance.timeOrigin + performance.now(); }
  function timeControl(text) {
    var inc = /\+(\d+)$/.exec(text), delay = /d(\d+)$/.exec(text);
    return { inc: inc ? 1000 * parseInt(inc[1], 10) : 0, delay: delay ? 1000 * parseInt(delay[1], 10) : 0 };
  }

  /* The local model: each side's time at the start of the running turn (base), the running
   * side and when its turn began on the device's clock, flags, press number and epoch. */
  function fromSnapshot(s) {
    var tc = timeControl(s.time_control), running = C.runningSide(s);
    var m = {
      version: s.version, status: s.status, finished: s.finished, paused: s.paused,
      running: running, pressNumber: s.press_number, epoch: s.epoch || 0,
      base: { A: s.remaining_ms.A, B: s.remaining_ms.B }, turnStart: null,
      flags: { A: s.flags.A !== null, B: s.flags.B !== null }, inc: tc.inc, delay: tc.delay,
    };
    if (running) {
      var age = Math.max(0, C.serverNow() - s.server_time_ms), elapsed = s.turn_elapsed_ms || 0;
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

  /* This browser's id: the board's clock is kept by one device, named by it. */
  function deviceId() {
    var id = null;
    try { id = localStorage.getItem("ingenious-device"); } catch (_err) { /* storage off */ }
    if (!id || !/^[0-9a-f]{24}$/.test(id)) {
      var bytes = new Uint8Array(12);
      crypto.getRandomValues(bytes);
      id = Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
      try { localStorage.setItem("ingenious-device", id); } catch (_err) { /* the tab's life */ }
    }
    return id;
  }

  /* What this page knows, kept through a reload (a page served by the service worker without
   * the network starts from it): the queue, the model, the newest snapshot, the last contact,
   * the device's role and the server's offset. */
  var store = "ingenious-clock:" + root.dataset.ws;
  var saved = null;
  try { saved = JSON.parse(localStorage.getItem(store) || "null"); } catch (_err) { saved = null; }
  var initial = JSON.parse(document.getElementById("clock-initial").textContent);
  if (saved && typeof saved.offset === "number") C.noteServerTime(Date.now() + saved.offset);
  C.noteServerTime(initial.server_time_ms);
  var queue = saved && saved.queue && saved.queue.length ? saved.queue : [];
  var newer = saved && saved.latest && saved.latest.version > initial.version;
  var latest = newer ? saved.latest : initial;  // the newest snapshot the server sent
  var model = (queue.length || newer) && saved.model ? saved.model : fromSnapshot(latest);
  var confirmed = latest.version;
  var link = {
    state: "connecting", lastContact: saved && saved.lastContact || null, accepted: 0, refused: [],
  };
  var device = { holds: saved ? saved.holds : null, kept: true, asked: false, code: null };

  function save() {
    try {
      localStorage.setItem(store, JSON.stringify({
        queue: queue, model: model, latest: latest, lastContact: link.lastContact,
        holds: device.holds, offset: C.bestOffset(),
      }));
    } catch (_err) { /* private mode: the queue lives as long as the tab */ }
  }

  /* The server's snapshot is taken as soon as no press of this device waits for its answer. */
  function adopt() {
    if (queue.length || latest.version < confirmed) return;
    confirmed = latest.version;
    model = fromSnapshot(latest);
    save();
  }
  function received(snapshot) {
    C.noteServerTime(snapshot.server_time_ms);
    if (snapshot.version >= latest.version) latest = snapshot;
    adopt();
    render();
  }

  /* The connection, as it says the truth: offline since the last contact with the server (the
   * server's time of its last message, as the hall shows the device's last message). */
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
    return interpolate(text, { t: C.localTime(link.lastContact), n: n }, true);
  }
  function contact(serverMs) {
    if (typeof serverMs === "number") link.lastContact = Math.max(link.lastContact || 0, serverMs);
  }

  function statusText() {
    if (model.finished) return strings.finished;
    if (model.status === "not_started" || model.status === "paused") return strings[model.status];
    if (model.status.indexOf("flagged") >= 0) return strings[model.status];
    return player && mayPress() ? strings.running : strings.running_spectator;
  }

  /* Who keeps this board's clock, as the server said last. */
  function deviceText() {
    if (!player) return "";
    var values = { n: boardNumber };
    if (device.holds) return interpolate(gettext("This device keeps the clock for board %(n)s."), values, true);
    if (device.holds === null) return "";
    if (device.asked) {
      return interpolate(gettext("The device keeping the clock was connected in the last minute: the arbiter has been asked to hand it to this device (code %(code)s)."),
        { code: device.code }, true);
    }
    if (!device.kept) return interpolate(gettext("No device keeps the clock for board %(n)s."), values, true);
    return interpolate(gettext("Another device keeps the clock for board %(n)s: this one shows it."), values, true);
  }
  function mayPress() { return canPress && (isArbiter || device.holds !== false); }
  var watching = gettext("This device only shows the clock: presses count on the device that keeps it.");

  function setData(el, key, value) {
    if (el.dataset[key] !== value) el.dataset[key] = value;
  }

  function render() {
    var now = devNow();
    advance(model, now);
    setData(root, "status", model.status);
    setData(root, "queued", String(queue.length));
    setData(root, "holds", device.holds === null ? "" : String(device.holds));
    ["A", "B"].forEach(function (side) {
      var ms = left(model, side, now), el = sides[side];
      C.setText(el.querySelector(".time"), C.format(ms));
      el.classList.toggle("running", model.running === side);
      el.classList.toggle("low", ms < 60000);
      el.classList.toggle("flagged", model.flags[side]);
      el.classList.toggle("watching", !mayPress());
      el.setAttribute("aria-pressed", model.running === side ? "true" : "false");
    });
    var text = statusText();
    if (statusEl.textContent !== text) statusEl.textContent = text;
    var state = link.state === "connected" || link.state === "refused" || link.lastContact === null
      ? link.state : "offline";
    if (connectionEl.dataset.state !== state) connectionEl.dataset.state = state;
    text = linkText();
    if (connectionEl.textContent !== text) connectionEl.textContent = text;
    if (deviceEl) {
      text = deviceText();
      var words = deviceEl.querySelector("[data-device-text]");
      if (words.textContent !== text) words.textContent = text;
      deviceEl.hidden = !text;
      setData(deviceEl, "holds", String(device.holds));
      deviceEl.querySelector("[data-take-over]").hidden = device.holds !== false;
    }
  }

  /* After the re-sync: what became of the presses, and which side runs now. */
  function resynced() {
    var running = C.runningSide(latest), after = running ? runs[running] : statusText();
    if (link.refused.length) {
      C.showMessage(interpolate(ngettext("%(n)s press refused: %(why)s", "%(n)s presses refused: %(why)s",
        link.refused.length), { n: link.refused.length, why: link.refused[0] }, true) + " " + after, true);
    } else if (link.accepted > 1) {
      C.showMessage(interpolate(ngettext("Back online: %(n)s press accepted.", "Back online: %(n)s presses accepted.",
        link.accepted), { n: link.accepted }, true) + " " + after);
    }
    link.accepted = 0;
    link.refused = [];
  }

  /* The server's answer to a queued press: it leaves the queue, counted or refused. */
  function answered(data) {
    var i = queue.findIndex(function (p) { return p.press === data.press && p.side === data.side; });
    if (i < 0) return;
    queue.splice(0, i + 1);
    if (data.status === "refused") link.refused.push(data.message);
    else link.accepted += 1;
    C.noteServerTime(data.clock.server_time_ms);
    contact(data.clock.server_time_ms);
    if (data.clock.version >= latest.version) latest = data.clock;
    save();
    if (queue.length) return;
    adopt();
    resynced();
  }

  function send(p) {
    conn.send({ type: "press", side: p.side, press: p.press, elapsed_ms: p.elapsed_ms, epoch: p.epoch });
  }
  function flush() { queue.forEach(send); }

  /* The device keeping the clock paces its heartbeat for the hall; a device that only
   * watches makes itself heard less often (C.socket's paces). */
  function paceOf() {
    if (!player) return "page";
    return isArbiter || device.holds !== false || !device.kept ? "keeper" : "watcher";
  }
  function learned(message) {
    device.holds = message.holds;
    device.kept = message.kept;
    device.asked = message.asked;
    device.code = message.code || null;
    document.querySelectorAll("[data-device-code]").forEach(function (el) { el.textContent = device.code || "–"; });
    conn.pace(paceOf());
    save();
  }

  var conn = C.socket(root.dataset.ws + (player ? "?device=" + deviceId() : ""), {
    state: function (state) {
      link.state = state;
      if (state === "connected") flush();
      render();
    },
    message: function (data) {
      if (data.type === "snapshot") {
        contact(data.clock.server_time_ms);
        if (data.device) learned(data.device);
        received(data.clock);
      } else if (data.type === "pong") {
        contact(data.server_time_ms);
        if (C.noteServerTime(data.server_time_ms)) { adopt(); render(); }
      } else if (data.type === "pressed") { answered(data); render(); }
      else if (data.type === "ignored") {
        contact(data.clock.server_time_ms);
        confirmed = Math.min(confirmed, data.clock.version);
        received(data.clock);
        C.showMessage(data.message);
      } else if (data.type === "device") { learned(data); render(); }
      else if (data.type === "error") C.showMessage(data.message, data.fatal);
    },
  }, paceOf());

  /* A press counts on this device at once and waits in the queue for the server's answer. */
  function press(side) {
    keepAwake();
    if (!canPress) return;
    if (!mayPress()) { C.showMessage(watching); return; }
    var now = devNow();
    advance(model, now);
    if (model.running !== side) { C.showMessage(strings.not_your_turn); return; }
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
    if (/INPUT|TEXTAREA|SELECT|DIALOG/.test(tag) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (document.querySelector("dialog[open]")) return;
    var side = null;
    if (e.key === " " || e.key === "Enter") { advance(model, devNow()); side = model.running; }
    else if (e.key === "ArrowLeft" || e.key === "a" || e.key === "A") side = "A";
    else if (e.key === "ArrowRight" || e.key === "l" || e.key === "L") side = "B";
    if (!side) return;
    e.preventDefault();  // also stops Space/Enter from "clicking" the focused half a second time
    press(side);
  });

  /* Taking the clock over on this device: both players agree on its screen. */
  var dialog = document.getElementById("take-over");
  if (dialog && deviceEl) {
    var boxes = dialog.querySelectorAll("input[type=checkbox]"), go = dialog.querySelector("[data-agreed]");
    var agreed = function () { return Array.prototype.every.call(boxes, function (b) { return b.checked; }); };
    boxes.forEach(function (box) { box.addEventListener("change", function () { go.disabled = !agreed(); }); });
    deviceEl.querySelector("[data-take-over]").addEventListener("click", function () {
      boxes.forEach(function (box) { box.checked = false; });
      go.disabled = true;
      dialog.showModal();
    });
    dialog.querySelector("[data-cancel]").addEventListener("click", function () { dialog.close(); });
    go.addEventListener("click", function () {
      if (!agreed()) return;
      conn.send({ type: "take_over", agreed: ["A", "B"] });
      dialog.close();
    });
  }

  document.querySelectorAll(".arbiter-clock [data-command]").forEach(function (button) {
    button.addEventListener("click", function () {
      var message = C.commandFor(button, latest);
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
      if (!keepAwake.warned) { keepAwake.warned = true; C.showMessage(strings.no_wake_lock); }
      return;
    }
    if (lock && !lock.released) return;
    navigator.wakeLock.request("screen").then(function (l) { lock = l; }).catch(function () {});
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { keepAwake(); conn.send({ type: "sync" }); }
  });
  if ("wakeLock" in navigator) keepAwake();

  /* A reload without the network: where the browser allows service workers (a secure origin)
   * one keeps this page and its files; elsewhere the page asks before it is left while a clock
   * runs or presses wait (docs/arbiter-guide.md, "When the venue's Wi-Fi fails"). */
  var worker = root.dataset.worker;
  if (player && worker && window.isSecureContext && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(worker).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      var files = [location.href];
      document.querySelectorAll("script[src], link[rel=stylesheet]").forEach(function (el) {
        files.push(el.src || el.href);
      });
      if (registration.active) registration.active.postMessage({ keep: files });
    }).catch(function () { /* no worker: the page asks before a reload instead */ });
  }
  window.addEventListener("beforeunload", function (e) {
    var kept = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!player || kept || !(queue.length || model.running)) return;
    e.preventDefault();
    e.returnValue = "";
  });

  render();
  setInterval(render, 100);
})();
