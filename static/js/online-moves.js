/* The moves of an online game in words (issue #38): the view's public actions grouped by turn
 * and written as "Ada: f10 red, f9 green, +3 red; bonus: e5 blue, e6 red, +2 blue", and the
 * cells of a turn (the seat page outlines the whole last turn). No state: the page passes the
 * actions (docs/online-protocol.md, `actions`) and the players' names.
 */
(function (global) {
  "use strict";
  var S = {
    place: gettext("%(first)s %(first_colour)s, %(second)s %(second_colour)s"),
    points: gettext("+%(points)s %(colour)s"),
    bonus: gettext("bonus: %(move)s"),
    swap: gettext("swapped the rack"),
    flag: gettext("time is up"),
    resign: gettext("resigned"),
  };
  var PLACEMENT = /^([a-k]\d{1,2})([RGBOYP])-([a-k]\d{1,2})([RGBOYP])$/;
  function fmt(text, values) { return interpolate(text, values, true); }

  /* "f10R-f9G" as [["f10", "R"], ["f9", "G"]]; [] for anything else. */
  function cellsOf(placement) {
    var m = PLACEMENT.exec(placement);
    return m ? [[m[1], m[2]], [m[3], m[4]]] : [];
  }

  /* The actions grouped by turn: a turn is a seat's actions up to the one carrying its clock
   * (the turn's last placement or its swap); a flag or a resignation stands alone. */
  function turns(actions) {
    var all = [], current = null;
    actions.forEach(function (a) {
      if (!current || current.seat !== a.seat || current.closed) {
        current = { seat: a.seat, actions: [], cells: [], closed: false };
        all.push(current);
      }
      current.actions.push(a);
      if (a.action === "place") cellsOf(a.placement).forEach(function (p) { current.cells.push(p[0]); });
      if (a.clock !== undefined || a.action === "flag" || a.action === "resign") current.closed = true;
    });
    return all;
  }

  function actionText(a, bonus) {
    if (a.action === "swap") return S.swap;
    if (a.action === "flag") return S.flag;
    if (a.action === "resign") return S.resign;
    var cells = cellsOf(a.placement);
    if (!cells.length) return a.placement;
    var text = fmt(S.place, {
      first: cells[0][0], first_colour: HexBoard.NAMES[cells[0][1]],
      second: cells[1][0], second_colour: HexBoard.NAMES[cells[1][1]],
    });
    Object.keys(a.claim || {}).forEach(function (c) {
      text += ", " + fmt(S.points, { points: a.claim[c], colour: HexBoard.NAMES[c] });
    });
    return bonus ? fmt(S.bonus, { move: text }) : text;
  }

  /* What a turn did, in words, without the player's name: "f10 red, f9 green, +3 red; bonus:
   * e5 blue, e6 red, +2 blue" (the list's item; a screen reader hears the opponent's turn). */
  function turnText(turn) {
    var placed = 0;
    return turn.actions.map(function (a) {
      var text = actionText(a, a.action === "place" && placed > 0);
      if (a.action === "place") placed++;
      return text;
    }).join("; ");
  }

  /* The list `list` (an <ol>) rebuilt, one item per turn, the last marked and scrolled to. */
  function render(list, actions, names) {
    list.innerHTML = "";
    var all = turns(actions);
    all.forEach(function (turn, n) {
      var item = document.createElement("li"), who = document.createElement("b");
      who.textContent = names[turn.seat];
      item.appendChild(who);
      item.dataset.seat = turn.seat;
      item.appendChild(document.createTextNode(": " + turnText(turn)));
      if (n === all.length - 1) item.className = "last";
      list.appendChild(item);
    });
    list.scrollTop = list.scrollHeight;
  }

  global.IngeniousMoves = { cellsOf: cellsOf, turns: turns, turnText: turnText, render: render };
})(window);
