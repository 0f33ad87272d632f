/* The clock pages' shared helpers (window.IngeniousClock): the server's time as this device
 * sees it, remaining times, their format, the translated strings, a websocket that reconnects
 * by itself with a heartbeat, the arbiter's command buttons and the note under the clock.
 * board.js (the board page), hall.js (the arbiters' hall) and online.js (an online seat) use
 * them; docs/clock.md describes the protocol.
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
  /* A time of the server's clock as this device shows the time of day. */
  function localTime(serverMs) { return new Date(serverMs - bestOffset()).toLocaleTimeString(); }

  function runningSide(snap) {
    return snap && !snap.finished && !snap.paused ? snap.running : null;
  }
  function remaining(snap, side, now) {
    var base = snap.remaining_ms[side];
    if (runningSide(snap) !== side) return base;
    var elapsed = Math.max(0, (now === undefined ? serverNow() : now) - snap.server_time_ms);
    return Math.max(0, base - Math.max(0, elapsed - (snap.delay_left_ms || 0)));
  }
  /* A text changed only when it differs: a clock page redraws ten times a second, and the
   * time it shows changes once a second (a phone's battery pays for every needless layout). */
  function setText(el, text) {
    if (el.textContent !== text) el.textContent = text;
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
    reason_missing: gettext("No reason given: nothing changed. A correction needs a reason for the clock's log."),
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

  /* How often a socket makes itself heard when it hears nothing, and how long a silence means
   * a lost link. The board page of the device keeping the clock: the hall shows its link, so a
   * dead Wi-Fi is seen within 3 s (a ping after 1.25 s without a message, looked for every
   * 0.1 s, one per silence: a slow moment of the Wi-Fi is not answered with more traffic;
   * 2.75 s without one drops the socket, so a pong has 1.25 s to come back). The server counts
   * on that pace: it credits a press the silence beyond it (docs/clock.md, "The silence the
   * server observed"). A board page that only watches: nobody watches its link, and a ping
   * after 5 s (lost after 8 s) keeps its label true at a quarter of the traffic. The other
   * pages: a sync after 20 s, lost after 30 s. */
  var PACES = {
    keeper: { ping: 1250, silence: 2750, message: "ping", check: 100, backoff: 4000 },
    watcher: { ping: 5000, silence: 8000, message: "ping", check: 250, backoff: 4000 },
    page: { ping: 19750, silence: 30000, message: "sync", check: 5000, backoff: 10000 },
  };

  /* A websocket that reconnects by itself with backoff and gives up only when the server
   * refuses (close code 4403), kept alive at a pace (PACES; set again with .pace(name)). A lost
   * socket is dropped at once, without waiting for a closing handshake that cannot arrive. */
  function socket(path, handlers, paceName) {
    var ws = null, attempt = 0, lastMessage = 0, lastPing = 0, refused = false, timer = null;
    var opened = 0, url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
    var pace = PACES[paceName || "page"], checker = null;
    function retry() {
      handlers.state("reconnecting");
      var delay = Math.min(pace.backoff, 500 * Math.pow(2, attempt++));
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
    function check() {
      if (!ws) return;
      if (ws.readyState === WebSocket.CONNECTING && Date.now() - opened > 5000) { drop(); return; }
      if (ws.readyState !== WebSocket.OPEN) return;
      var now = Date.now();
      if (now - lastMessage > pace.silence) { drop(); return; }  // silent network: redo
      if (now - lastMessage >= pace.ping && lastPing <= lastMessage) {
        lastPing = now;
        send({ type: pace.message });
      }
    }
    function setPace(name) {
      pace = PACES[name];
      clearInterval(checker);
      checker = setInterval(check, pace.check);
    }
    function send(message) {
      if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify(message)); return true; }
      return false;
    }
    window.addEventListener("online", function () {
      if (!refused && (!ws || ws.readyState === WebSocket.CLOSED)) { clearTimeout(timer); open(); }
    });
    setPace(paceName || "page");
    open();
    return { send: send, pace: setPace };
  }

  function askReason() {
    var reason = window.prompt(strings.reason_prompt, strings.reason_default);
    if (reason !== null && !reason.trim()) showMessage(strings.reason_missing);  // not cancelled: say why
    return reason && reason.trim() ? reason.trim() : null;
  }

  /* The message for an arbiter command button (data-command, data-side, ...), or null. A
   * fallen flag stands until the arbiter gives time back: time added to a flagged side (of the
   * board's latest snapshot, ``snap``) takes the flag back, and the side that plays on alone
   * keeps the turn (the one whose press came too late had ended its turn; both flagged: the
   * revived side moves). */
  function commandFor(button, snap) {
    var d = button.dataset, message = { type: d.command };
    if (d.side) message.side = d.side;
    if (d.kind) message.kind = d.kind;
    if (d.seconds) message.seconds = parseInt(d.seconds, 10);
    if (d.turn) message.turn = d.turn;
    if (d.command === "adjust" && d.kind === "add" && snap && snap.flags && snap.flags[d.side] !== null) {
      message.turn = snap.turn || d.side;
    }
    if (d.command === "adjust" || d.command === "correct" || d.command === "finish") {
      if (d.command === "finish" && !window.confirm(strings.confirm_finish)) return null;
      var reason = askReason();
      if (!reason) return null;
      message.reason = reason;
    }
    return message;
  }

  /* A note in the clock's bar (never over a half a player taps), hidden after 6 s unless it
   * must stay (a refused press). */
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

  /* A browser notification, if the player allowed them (a page in a background tab says
   * that the player's game has started). */
  function notifyBrowser(text) {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    try { new Notification(text); } catch (e) { /* some phones allow it from a worker only */ }
  }

  window.IngeniousClock = {
    noteServerTime: noteServerTime, serverNow: serverNow, bestOffset: bestOffset,
    localTime: localTime, remaining: remaining, runningSide: runningSide, format: format,
    setText: setText,
    strings: strings, socket: socket, commandFor: commandFor, showMessage: showMessage,
    connectionLabel: connectionLabel, notifyBrowser: notifyBrowser,
  };
})();

