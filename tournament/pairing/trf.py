"""FIDE TRF-16 export and import of a whole event, with the javafo ``XX`` extension lines.

The TRF is both our interchange format and the engines' input, so one writer serves both:
what the arbiter downloads is exactly what the engine paired from.

Mapping (docs/pairing.md has the full table):

* every completed round is one cell per player (``RoundRecord``), late entries have ``Z``
  (or ``H``/``F``) cells for the rounds before they joined;
* a requested absence in the round to be paired is a *pre-filled* cell ``0000 - Z`` / ``H`` /
  ``F`` (javafo's convention; the engine leaves such players out); a withdrawn player is listed
  on the ``XXZ`` line and has a pre-filled ``Z`` too, since bbpPairings ignores ``XXZ``;
* ``XXR`` rounds, ``XXC white1``/``black1`` first move of pairing number 1 in round 1, ``XXS``
  points per result code (bye value etc.), ``XXP`` pairs that must not meet (forbidden pairs,
  plus forfeits when the event counts them as meetings);
* the points column is the player's true score; when a round scored what no code scores (an
  arbiter's ½–0), the player's ``XXA`` line says by how much the true score before each round
  differs from the codes' (an acceleration, in javafo's terms), so an engine pairs on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from tournament.pairing.errors import InvalidEvent, TrfError
from tournament.pairing.model import (
    EDITIONS,
    Event,
    Player,
    Result,
    RoundRecord,
    Settings,
    Status,
)

_NAME, _RATING, _POINTS, _RANK, _CELLS = (14, 47), (48, 52), (80, 84), (85, 89), 89
_SINGLE = {"PAB": "bye", "HPB": "half_bye", "FPB": "full_bye", "FW": "forfeit_win"}
#: XXS codes (javafo) and the settings they set; win/draw are split by who moved first.
_XXS = {
    "WW": ("win_first",),
    "BW": ("win_second",),
    "WD": ("draw_first",),
    "BD": ("draw_second",),
    "W": ("win_first", "win_second", "forfeit_win", "full_bye"),
    "D": ("draw_first", "draw_second", "half_bye"),
    **{code: (setting,) for code, setting in _SINGLE.items()},
}
_ZERO = ("WL", "BL", "ZPB", "FL", "L")
_EXTENSIONS = ("XXR", "XXC", "XXS", "XXZ", "XXP", "XXA", "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU")
#: bbpPairings' points lines (it ignores XXS): the settings each sets; BBL, BBZ, BBF (losses,
#: zero-point byes, forfeit losses) must be 0. bbpPairings also scores ``+`` and ``F`` as BBW
#: and ``H`` as BBD; where the event scores them otherwise it refuses the file.
_BB = {"BBW": ("win_first", "win_second"), "BBD": ("draw_first", "draw_second"),
       "BBU": ("bye",), "BBL": (), "BBZ": (), "BBF": ()}
_IGNORED_PREFIXES = ("0", "1", "2", "3")  # other FIDE header and team lines: not ours to keep


#: Line ``192`` (type of tournament) for each edition: bbpPairings' name of the 2025 rules, and
#: one for the 2017 edition that it refuses ("unsupported tournament type") rather than pair a
#: 2017 event by the 2025 rules. A file without the line is paired by the edition in force.
TOURNAMENT_TYPES = {"2025": "FIDE_DUTCH_2025", "2017": "FIDE_DUTCH_2017"}
_EDITION_OF = {"FIDE_DUTCH": "2025"} | {name: edition for edition, name in TOURNAMENT_TYPES.items()}
#: FIDE header lines the export writes when the shell knows them: place, federation, first and
#: last day, players, rated players, type, chief arbiter, deputy arbiters, rate of play, round
#: dates (``132``: one ``YY/MM/DD`` above each round's column).
HEADER_CODES = ("022", "032", "042", "052", "062", "072", "092", "102", "112", "122", "132")


def _edition(text: str, row: int) -> str:
    try:
        return _EDITION_OF[text]
    except KeyError:
        known = ", ".join(sorted(_EDITION_OF))
        raise TrfError(f"tournament type {text!r} is not one we pair (known: {known})",
                       row, 5) from None


def _header_lines(header: Mapping[str, str | Sequence[str]] | None,
                  rounds: int) -> list[tuple[str, str]]:
    """The header lines of ``header`` in FIDE order, each on one line; ``132``'s dates placed
    above the round columns of the player lines."""
    lines = []
    for code in HEADER_CODES:
        value = (header or {}).get(code)
        if not value:
            continue
        if code == "132":
            dates = list(value)[:rounds]
            if not any(dates):
                continue
            # "132" + 4 columns, then each round's date in its 10-column cell (col 92 on)
            text = " " * (_CELLS - 4) + "".join(f"  {date:<8}" for date in dates)
        else:
            text = " ".join(str(value).split())
        lines.append((code, text.rstrip()))
    return lines


def _decimal(tenths: int) -> str:
    sign = "-" if tenths < 0 else ""
    return f"{sign}{abs(tenths) // 10}.{abs(tenths) % 10}"


def _prefill(player: Player, rounds: int) -> RoundRecord | None:
    """The cell a player not to be paired has for the round to be paired (if one is left of
    the event's ``rounds``): the absence, or ``Z`` for a withdrawn player."""
    if player.status is Status.WITHDRAWN:
        return RoundRecord(Result.ZERO_BYE) if len(player.history) < rounds else None
    absence = player.status.absence
    return RoundRecord(absence) if absence is not None else None


def points_columns(event: Event, *, true_points: bool = True) -> dict[int, int]:
    """Each player's points column in tenths: the score so far plus a pre-entered absence.

    ``true_points=False`` gives what the codes alone score (what py4swiss checks the column
    against before it adds the ``XXA`` corrections).
    """
    settings, columns = event.settings, {}
    for player in event.players:
        prefill = _prefill(player, settings.rounds)
        extra = settings.tenths(prefill.result) if prefill else 0
        score = event.tenths(player.number)
        if not true_points:
            score -= event.corrections(player.number)[-1]
        columns[player.number] = score + extra
    return columns


def export_trf(event: Event, *, true_points: bool = True,
               ranks: Mapping[int, int] | None = None,
               header: Mapping[str, str | Sequence[str]] | None = None) -> str:
    """Write ``event`` as TRF-16 text (ready for an engine to pair the next round).

    Names longer than the 33-character column are cut. The rank column is ``ranks`` (pairing
    number to place: the standings' order, which the shell knows) where given, else the order
    by points, then pairing number; engines do not read it. ``true_points=False`` writes the
    codes' points and no ``XXA`` line, for a reader that cannot take a correction (the Dutch
    engine adds them back itself). ``header`` gives the FIDE header lines the shell knows
    (:data:`HEADER_CODES`: place, dates, arbiters, ...; ``132`` the round dates, one per
    round); engines do not read them and :func:`import_trf` skips them. Line ``192`` names the
    edition the event is paired by (:data:`TOURNAMENT_TYPES`).
    """
    settings = event.settings
    columns = points_columns(event, true_points=true_points)
    for player in event.players:
        if columns[player.number] > 999:
            points = _decimal(columns[player.number])
            raise InvalidEvent(f"player {player} has {points} points; TRF columns hold 99.9")
    if ranks is None:
        order = sorted(event.players, key=lambda p: (-columns[p.number], p.number))
        ranks = {player.number: rank for rank, player in enumerate(order, start=1)}
    lines = [f"012 {event.name}"] if event.name else []
    lines += [f"{code} {text}" for code, text in _header_lines(header, settings.rounds)]
    lines.append(f"192 {TOURNAMENT_TYPES[settings.edition]}")
    for player in event.players:
        lines.append(_player_line(player, columns[player.number], ranks[player.number],
                                  settings.rounds))
    lines.append(f"XXR {settings.rounds}")
    lines.append("XXC white1" if settings.first_move == "first" else "XXC black1")
    codes = {"WW": "win", "BW": "win", "WD": "draw", "BD": "draw", **_SINGLE}
    scores = " ".join(
        f"{code}={_decimal(settings.tenths(_result(name)))}" for code, name in codes.items()
    )
    lines.append(f"XXS {scores}")
    for code, points in (("BBW", settings.win), ("BBD", settings.draw), ("BBL", 0),
                         ("BBZ", 0), ("BBF", 0), ("BBU", settings.bye)):
        lines.append(f"{code} {_decimal(round(points * 10)).rjust(4)}")
    for player in event.players if true_points else ():
        corrections = event.corrections(player.number)
        if any(corrections):
            values = " ".join(_decimal(c).rjust(4) for c in corrections)
            lines.append(f"XXA {player.number:4d} {values}")
    withdrawn = [p.number for p in event.players if p.status is Status.WITHDRAWN]
    if withdrawn:
        lines.append("XXZ " + " ".join(str(n) for n in withdrawn))
    for a, b in sorted(_engine_forbidden(event)):
        lines.append(f"XXP {a} {b}")
    return "\n".join(lines) + "\n"


def _result(setting: str) -> Result:
    return {
        "win": Result.WIN,
        "draw": Result.DRAW,
        "bye": Result.PAIRING_BYE,
        "half_bye": Result.HALF_BYE,
        "full_bye": Result.FULL_BYE,
        "forfeit_win": Result.FORFEIT_WIN,
    }[setting]


def _engine_forbidden(event: Event) -> set[tuple[int, int]]:
    """Forbidden pairs as the engine must see them: FIDE engines never count forfeits."""
    pairs = set(event.forbidden)
    if event.settings.forfeit_is_meeting:
        for player in event.players:
            for record in player.history:
                if record.result.forfeit:
                    pairs.add(
                        (min(player.number, record.opponent), max(player.number, record.opponent))
                    )
    return pairs


def _player_line(player: Player, tenths: int, rank: int, rounds: int) -> str:
    line = [" "] * _CELLS
    line[0:3] = "001"
    line[4:8] = f"{player.number:4d}"
    line[_NAME[0] : _NAME[1]] = player.name[:33].ljust(33)
    if player.rating is not None:
        line[_RATING[0] : _RATING[1]] = f"{player.rating:4d}"
    line[_POINTS[0] : _POINTS[1]] = _decimal(tenths).rjust(4)
    line[_RANK[0] : _RANK[1]] = f"{rank:4d}"
    prefill = _prefill(player, rounds)
    cells = [*player.history, prefill] if prefill else list(player.history)
    return ("".join(line) + "".join(f"  {cell}" for cell in cells)).rstrip()


@dataclass(frozen=True, slots=True)
class _Row:
    """A parsed ``001`` line before the event is assembled."""

    row: int
    number: int
    name: str
    rating: int | None
    tenths: int
    cells: tuple[RoundRecord, ...]


def import_trf(text: str) -> Event:
    """Read a TRF-16 file (as written by :func:`export_trf`, JaVaFo or Swiss-Manager).

    Raises :class:`TrfError` naming line and column for syntax errors and
    :class:`InvalidEvent` when the games do not agree between the two players' lines.
    Round trip: ``export_trf(import_trf(export_trf(event))) == export_trf(event)``.
    """
    name, rows, extensions, edition = "", [], {}, EDITIONS[0]
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if not line.strip() or line.startswith("#"):
            continue
        code = line[:3]
        if code == "001":
            rows.append(_parse_player_line(line, number))
        elif code == "012":
            name = line[4:].strip()
        elif code == "192":
            edition = _edition(line[4:].strip(), number)
        elif code in _EXTENSIONS:
            if code in extensions and code in ("XXR", "XXC"):
                raise TrfError(f"{code} appears twice", number, 1)
            extensions.setdefault(code, []).append((number, line[4:].strip()))
        elif code.startswith("XX"):
            raise TrfError(f"extension {code!r} is not supported", number, 1)
        elif not (code.isdigit() and code.startswith(_IGNORED_PREFIXES)):
            raise TrfError(f"unknown line code {code!r}", number, 1)
    if not rows:
        raise TrfError("the file has no player lines ('001')")
    settings = replace(_parse_settings(extensions), edition=edition)
    withdrawn = {n for row, content in extensions.get("XXZ", []) for n in _numbers(content, row)}
    forbidden = set()
    for row, content in extensions.get("XXP", []):
        pair = _numbers(content, row)
        if len(pair) != 2:
            raise TrfError(f"XXP {content!r} does not name two players", row, 5)
        forbidden.add((min(pair), max(pair)))
    shortest = min(rows, key=lambda row: len(row.cells))
    played = len(shortest.cells)
    for row in rows:
        if len(row.cells) > played + 1:
            raise TrfError(
                f"player {row.number} has {len(row.cells)} round entries but player "
                f"{shortest.number} only {played}: write '0000 - Z' for rounds not played",
                row.row,
            )
    corrections = _corrections(extensions)
    players = []
    for row in rows:
        player = _build_player(row, played, row.number in withdrawn)
        if row.number in corrections:
            player = _corrected(player, settings, *corrections.pop(row.number))
        players.append(player)
    if corrections:
        number, (line, _values) = next(iter(corrections.items()))
        raise TrfError(f"XXA names player {number}, who has no '001' line", line, 5)
    event = Event(settings, tuple(players), name, frozenset(forbidden))
    for row, player in zip(rows, players, strict=True):
        prefill = _prefill(player, settings.rounds)
        expected = event.tenths(player.number)
        expected += settings.tenths(prefill.result) if prefill else 0
        if row.tenths != expected:
            raise TrfError(
                f"player {player.number} has {_decimal(row.tenths)} points but the results "
                f"{'and its XXA line ' if any(event.corrections(player.number)) else ''}"
                f"give {_decimal(expected)}",
                row.row,
                _POINTS[0] + 1,
            )
    return event


def _parse_player_line(line: str, row: int) -> _Row:
    padded = line.ljust(_CELLS)
    number_text = padded[4:8].strip()
    if not number_text.isdigit():
        raise TrfError(f"pairing number {padded[4:8]!r} is not a number", row, 5)
    rating_text = padded[_RATING[0] : _RATING[1]].strip()
    if rating_text and not rating_text.isdigit():
        raise TrfError(f"rating {rating_text!r} is not a number", row, _RATING[0] + 1)
    points_text = padded[_POINTS[0] : _POINTS[1]].strip()
    whole, dot, tenth = points_text.partition(".")
    if not (whole.isdigit() and dot and len(tenth) == 1 and tenth.isdigit()):
        raise TrfError(f"points {points_text!r} are not like '6.5'", row, _POINTS[0] + 1)
    rest = line.rstrip()[_CELLS:]
    cells = []
    for start in range(0, len(rest), 10):
        chunk = rest[start : start + 10]
        column = _CELLS + start + 3
        if chunk[:2].strip():
            raise TrfError(f"round entry {chunk!r} must start in column {column}", row, column - 2)
        try:
            cells.append(RoundRecord.parse(chunk[2:]))
        except TrfError as exc:
            raise TrfError(exc.message, row, column) from None
    return _Row(
        row=row,
        number=int(number_text),
        name=padded[_NAME[0] : _NAME[1]].strip(),
        rating=int(rating_text) if rating_text else None,
        tenths=int(whole) * 10 + int(tenth),
        cells=tuple(cells),
    )


def _build_player(row: _Row, played: int, withdrawn: bool) -> Player:
    """One player; an extra last cell is a pre-entered absence for the round to be paired
    (``Z`` for a withdrawn player, who is also on ``XXZ``)."""
    status, cells = (Status.WITHDRAWN if withdrawn else Status.PLAYING), row.cells
    if len(cells) == played + 1:
        if withdrawn:
            absent = Status.WITHDRAWN if cells[-1].result is Result.ZERO_BYE else None
        else:
            absent = {
                Result.ZERO_BYE: Status.ABSENT,
                Result.HALF_BYE: Status.HALF_BYE,
                Result.FULL_BYE: Status.FULL_BYE,
            }.get(cells[-1].result)
        if absent is None:
            raise TrfError(
                f"round {played + 1} entry {str(cells[-1])!r} of player {row.number}: only an "
                "absence (Z, H, F; Z for a player on XXZ) can be entered before pairing",
                row.row,
                _CELLS + 10 * played + 3,
            )
        status, cells = absent, cells[:-1]
    joined = 1  # a late entry is recognised by its leading zero-point byes
    while joined <= len(cells) and cells[joined - 1].result is Result.ZERO_BYE:
        joined += 1
    return Player(row.number, row.name, row.rating, cells, status, joined)


def _corrections(extensions: dict[str, list[tuple[int, str]]]) -> dict[int, tuple[int, list[int]]]:
    """``XXA`` lines: a player's true score minus the codes' before each round, in tenths."""
    found: dict[int, tuple[int, list[int]]] = {}
    for row, content in extensions.get("XXA", []):
        number, *values = content.split()
        if not number.isdigit():
            raise TrfError(f"XXA {content!r} does not start with a pairing number", row, 5)
        if int(number) in found:
            raise TrfError(f"XXA names player {number} twice", row, 5)
        tenths = []
        for value in values:
            whole, dot, tenth = value.lstrip("-").partition(".")
            if not (whole.isdigit() and dot and len(tenth) == 1 and tenth.isdigit()):
                raise TrfError(f"XXA value {value!r} is not like '0.5' or '-0.5'", row, 5)
            sign = -1 if value.startswith("-") else 1
            tenths.append(sign * (int(whole) * 10 + int(tenth)))
        found[int(number)] = (row, tenths)
    return found


def _corrected(player: Player, settings: Settings, row: int, running: list[int]) -> Player:
    """``player`` with the true points of the rounds that ``running`` (``XXA``) corrects.

    Accelerated pairings (virtual points from round 1) are not ours: the first value must be
    0 and there is one value per round played plus the round to be paired.
    """
    rounds = len(player.history)
    if len(running) != rounds + 1 or running[0] != 0:
        raise TrfError(
            f"XXA for player {player.number} must give {rounds + 1} values starting with 0.0 "
            "(true points before each round); accelerated pairings are not supported", row, 5
        )
    history = []
    for index, record in enumerate(player.history):
        change = running[index + 1] - running[index]
        if not change:
            history.append(record)
            continue
        points = settings.tenths(record.result) + change
        if not 0 <= points <= 999:
            raise TrfError(
                f"XXA for player {player.number} gives round {index + 1} {_decimal(points)} points",
                row, 5,
            )
        history.append(replace(record, tenths=points))
    return replace(player, history=tuple(history))


def _numbers(content: str, row: int) -> list[int]:
    parts = content.split()
    for part in parts:
        if not part.isdigit():
            raise TrfError(f"{part!r} is not a pairing number", row)
    return [int(part) for part in parts]


def _bb_points(extensions: dict[str, list[tuple[int, str]]]) -> dict[str, tuple[float, int]]:
    """bbpPairings' BBx lines: each setting they give, with its points and line."""
    found: dict[str, tuple[float, int]] = {}
    for code, names in _BB.items():
        for row, content in extensions.get(code, []):
            if not content.replace(".", "", 1).isdigit():
                raise TrfError(f"{code} {content!r} is not a number of points", row, 5)
            points = float(content)
            if not names and points != 0:
                raise TrfError(f"{code} {content}: losses and absences must score 0", row, 5)
            found.update(dict.fromkeys(names, (points, row)))
    return found


def _parse_settings(extensions: dict[str, list[tuple[int, str]]]) -> Settings:
    if "XXR" not in extensions:
        raise TrfError("the number of rounds (XXR) is missing")
    row, rounds = extensions["XXR"][0]
    if not rounds.isdigit():
        raise TrfError(f"XXR {rounds!r} is not a number of rounds", row, 5)
    first_move = "first"
    for row, content in extensions.get("XXC", []):
        for option in content.split():
            if option not in ("white1", "black1"):
                raise TrfError(f"XXC option {option!r} is not white1 or black1", row, 5)
            first_move = "first" if option == "white1" else "second"
    scores = {"win_first": 1.0, "win_second": 1.0, "draw_first": 0.5, "draw_second": 0.5}
    bb = _bb_points(extensions)
    scores.update({name: points for name, (points, _row) in bb.items()})
    for row, content in extensions.get("XXS", []):
        for item in content.split():
            code, _, number = item.partition("=")
            if not number.replace(".", "", 1).isdigit():
                raise TrfError(f"XXS item {item!r} is not CODE=points", row)
            if code in _ZERO:
                if float(number) != 0:
                    raise TrfError(f"XXS {item!r}: losses and absences must score 0", row)
            elif code in _XXS:
                scores.update(dict.fromkeys(_XXS[code], float(number)))
            else:
                raise TrfError(f"XXS code {code!r} is unknown", row)
    for kind in ("win", "draw"):
        if scores.pop(f"{kind}_first") != scores[f"{kind}_second"]:
            raise TrfError(f"XXS scores a {kind} differently for moving first and second")
        scores[kind] = scores.pop(f"{kind}_second")
    for name, (points, row) in bb.items():
        setting = name.partition("_")[0]  # win_first -> win
        if scores[setting] != points:
            raise TrfError(f"the BB line gives {points} for a {setting}, XXS {scores[setting]}",
                           row)
    return Settings(int(rounds), first_move, **scores)
