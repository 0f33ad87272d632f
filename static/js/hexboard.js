// The Ingenious board as SVG, shared by the game viewer and the live scoresheet.
// Geometry as in docs/notation.md: axial (q, r), pointy-top cells, q east, r towards the
// bottom; row letter = 'a' + (N - r) (row a at the bottom), number = q + N + 1.
(function (global) {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var COLOURS = { R: "#d62828", G: "#2a9d3f", B: "#1d5fd1", O: "#f08a00", Y: "#f5d000", P: "#7b2cbf" };
  var NAMES = {
    R: gettext("red"), G: gettext("green"), B: gettext("blue"),
    O: gettext("orange"), Y: gettext("yellow"), P: gettext("purple"),
  };
  var STARTS = { R: [5, 0], G: [0, 5], B: [-5, 5], O: [-5, 0], Y: [0, -5], P: [5, -5] };
  var SIZE = 20;
  // The colour symbols' sprite, named by the page (base.html's <body data-symbols>).
  var SYMBOLS = document.body.dataset.symbols;

  function cellName(q, r, n) { return String.fromCharCode(97 + n - r) + (q + n + 1); }
  function centre(q, r) { return [SIZE * Math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r]; }
  function hexPoints(x, y, s) {
    var pts = [];
    for (var i = 0; i < 6; i++) {
      var a = Math.PI / 180 * (60 * i - 30);
      pts.push((x + s * Math.cos(a)).toFixed(2) + "," + (y + s * Math.sin(a)).toFixed(2));
    }
    return pts.join(" ");
  }
  function el(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }
  function symbol(letter, x, y, parent) {
    var use = el("use", { href: SYMBOLS + "#sym-" + letter, x: x - 8, y: y - 8, width: 16, height: 16 }, parent);
    use.setAttribute("pointer-events", "none");
    return use;
  }

  // Draw an empty board of radius n into `svg`; returns {cells: name -> polygon, setColour}.
  // onClick(cell) for a tap on a free-to-play cell; onStart(cell), if given, for a tap on a
  // start symbol (a page that says why nothing happens there). With `keys` the board is played
  // from the keyboard too (a seat's page): every cell is a button in the page's tab order (one
  // at a time, the arrow keys move between neighbours, Enter or Space taps it) whose name the
  // page sets (label(cell, text)), so that a screen reader reads the board cell by cell.
  function draw(svg, n, onClick, onStart, keys) {
    n = n || 5;
    var w = SIZE * Math.sqrt(3) * (2 * n + 1) + 8, h = SIZE * (3 * n + 2) + 8;
    svg.setAttribute("viewBox", (-w / 2) + " " + (-h / 2) + " " + w + " " + h);
    svg.setAttribute("role", keys ? "group" : "img");
    var cells = {}, marks = {};
    var starts = {};
    Object.keys(STARTS).forEach(function (c) { starts[cellName(STARTS[c][0], STARTS[c][1], n)] = c; });
    for (var q = -n; q <= n; q++) {
      for (var r = -n; r <= n; r++) {
        if (Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r)) > n) continue;
        var xy = centre(q, r), name = cellName(q, r, n);
        var g = el("g", { "class": "cell", "data-cell": name }, svg);
        var poly = el("polygon", { points: hexPoints(xy[0], xy[1], SIZE - 1), fill: "#f4f1ea", stroke: "#8a8172", "stroke-width": 1 }, g);
        var label = el("text", { x: xy[0], y: xy[1] + 3, "text-anchor": "middle", "font-size": 7, fill: "#8a8172", "pointer-events": "none" }, g);
        label.textContent = name;
        cells[name] = poly;
        if (starts[name]) {
          poly.setAttribute("fill", "#e3ddd0");
          symbol(starts[name], xy[0], xy[1], g);
          label.remove();
          if (onStart) g.addEventListener("click", (function (cell) { return function () { onStart(cell); }; })(name));
        } else if (onClick) {
          g.style.cursor = "pointer";
          g.addEventListener("click", (function (cell) { return function () { onClick(cell); }; })(name));
        }
        marks[name] = { g: g, x: xy[0], y: xy[1], label: label, q: q, r: r };
        if (keys) {
          g.setAttribute("role", "button");
          g.setAttribute("tabindex", "-1");
          g.setAttribute("aria-label", name);
          g.addEventListener("keydown", (function (cell) { return function (e) { onKey(e, cell); }; })(name));
        }
      }
    }
    /* The keyboard: one cell in the tab order (the last one focused); arrows to a neighbour
     * (left and right along the row, up and down to the row above or below); Enter or Space
     * is a tap. */
    var current = null;
    function focusCell(name) {
      name = name || current;  // none named: the cell the keyboard was on
      if (!marks[name]) return;
      if (current && marks[current]) marks[current].g.setAttribute("tabindex", "-1");
      current = name;
      marks[name].g.setAttribute("tabindex", "0");
      marks[name].g.focus();
    }
    if (keys) {
      var middle = cellName(0, 0, n);
      marks[middle].g.setAttribute("tabindex", "0");
      current = middle;
    }
    // left and right along the row; up to the row above (up and to the right, else up and to
    // the left at the board's edge), down likewise (down and to the left, else to the right),
    // so that up then down comes back to the same cell
    var STEPS = { ArrowLeft: [[-1, 0]], ArrowRight: [[1, 0]], ArrowUp: [[1, -1], [0, -1]],
                  ArrowDown: [[-1, 1], [0, 1]] };
    function onKey(e, cell) {
      var m = marks[cell];
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        if (starts[cell]) { if (onStart) onStart(cell); } else if (onClick) onClick(cell);
        return;
      }
      var steps = STEPS[e.key];
      if (!steps) return;
      e.preventDefault();
      for (var i = 0; i < steps.length; i++) {
        var next = cellName(m.q + steps[i][0], m.r + steps[i][1], n);
        if (marks[next] && Math.max(Math.abs(m.q + steps[i][0]), Math.abs(m.r + steps[i][1]),
                                    Math.abs(m.q + steps[i][0] + m.r + steps[i][1])) <= n) {
          focusCell(next);
          return;
        }
      }
    }
    function setLabel(name, text) {
      if (marks[name]) marks[name].g.setAttribute("aria-label", text);
    }
    function toggle(name, cls, on) {
      if (marks[name]) marks[name].g.classList.toggle(cls, !!on);
    }
    function setColour(name, letter) {
      var m = marks[name];
      if (!m || starts[name]) return;
      var old = m.g.querySelector("use.piece");
      if (old) old.remove();
      if (letter) {
        cells[name].setAttribute("fill", "#fff");
        var u = symbol(letter, m.x, m.y, m.g);
        u.setAttribute("class", "piece");
        m.label.style.display = "none";
        // A named piece is an image of its own: a plain <g> may not carry a label (ARIA).
        if (!keys) {
          m.g.setAttribute("role", "img");
          m.g.setAttribute("aria-label", name + " " + NAMES[letter]);
        }
      } else {
        cells[name].setAttribute("fill", "#f4f1ea");
        m.label.style.display = "";
        if (!keys) {
          m.g.removeAttribute("role");
          m.g.removeAttribute("aria-label");
        }
      }
    }
    function highlight(name, on) {
      if (cells[name]) cells[name].setAttribute("stroke", on ? "#000" : "#8a8172");
      if (cells[name]) cells[name].setAttribute("stroke-width", on ? 3 : 1);
    }
    // A tile shown on the board before the server has it: "preview" (not sent, awaiting
    // Confirm) or "pending" (sent, awaiting the server's answer); null: as the position has it.
    function mark(name, kind) {
      var m = marks[name];
      if (!m) return;
      m.g.classList.remove("preview", "pending");
      if (kind) m.g.classList.add(kind);
    }
    return { cells: cells, setColour: setColour, highlight: highlight, starts: starts, mark: mark,
             label: setLabel, toggle: toggle, focus: focusCell };
  }

  // Six horizontal bars for a seat's tracks (0-18) into `container`.
  function tracks(container, scores) {
    container.innerHTML = "";
    "RGBOYP".split("").forEach(function (c) {
      var row = document.createElement("div");
      row.className = "track";
      var v = scores ? scores[c] || 0 : 0;
      var sym = el("svg", { class: "sym", width: 16, height: 16, "aria-label": NAMES[c] }, row);
      el("use", { href: SYMBOLS + "#sym-" + c }, sym);
      var bar = document.createElement("span");
      bar.className = "track-bar";
      var fill = document.createElement("span");
      // set through the CSSOM: the Content-Security-Policy refuses style attributes in markup
      fill.style.width = (100 * v / 18) + "%";
      fill.style.background = COLOURS[c];
      bar.appendChild(fill);
      row.appendChild(bar);
      var num = document.createElement("span");
      num.className = "track-num";
      num.textContent = v;
      row.appendChild(num);
      container.appendChild(row);
    });
  }

  global.HexBoard = { draw: draw, tracks: tracks, cellName: cellName, COLOURS: COLOURS, NAMES: NAMES,
                      SYMBOLS: SYMBOLS };
})(window);
