/* The seat page's options, kept on this device (issue #38): confirm each move (on by default),
 * sounds and vibration on the opponent's move and on low time (off by default: a hall full of
 * beeping phones helps nobody). `changed(key, on)` hears the page's own reaction to a change.
 */
(function (global) {
  "use strict";
  var DEFAULTS = { confirm: true, sound: false, vibrate: false };
  var audio = null;

  function option(key) {
    try {
      var kept = window.localStorage.getItem("online." + key);
      return kept === null ? DEFAULTS[key] : kept === "1";
    } catch (e) { return DEFAULTS[key]; }
  }

  /* A move by the other side ("move"), or low time ("low"): a short tone and a buzz, each only
   * if chosen. */
  function notify(kind) {
    if (option("vibrate") && navigator.vibrate) navigator.vibrate(kind === "low" ? [80, 60, 80] : 60);
    if (!option("sound")) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var tones = kind === "low" ? [880, 880] : [660];
      tones.forEach(function (hz, i) {
        var osc = audio.createOscillator(), gain = audio.createGain(), at = audio.currentTime + i * 0.18;
        osc.frequency.value = hz;
        gain.gain.setValueAtTime(0.15, at);
        gain.gain.exponentialRampToValueAtTime(0.001, at + 0.14);
        osc.connect(gain).connect(audio.destination);
        osc.start(at);
        osc.stop(at + 0.15);
      });
    } catch (e) { /* no audio on this device */ }
  }

  /* The Options button opens the panel; each box (#opt-<key>) shows and keeps its option. */
  function wire(changed) {
    Object.keys(DEFAULTS).forEach(function (key) {
      var box = document.getElementById("opt-" + key);
      if (!box) return;
      box.checked = option(key);
      box.addEventListener("change", function () {
        try { window.localStorage.setItem("online." + key, box.checked ? "1" : "0"); } catch (e) { /* private mode */ }
        if (key === "sound" && box.checked) notify("move");  // a sample, and the browser's leave to play
        changed(key, box.checked);
      });
    });
    var button = document.getElementById("options-btn"), panel = document.getElementById("options");
    button.addEventListener("click", function () {
      panel.hidden = !panel.hidden;
      button.setAttribute("aria-expanded", panel.hidden ? "false" : "true");
    });
  }

  global.IngeniousOptions = { option: option, notify: notify, wire: wire };
})(window);
