"""The one bridge between the database and the PDF builders.

Builders never see a model: this module reads rows (and the standings core's output) into
plain frozen dataclasses, so a builder can be tested, benchmarked and reused without a
database, and the queries of a document are all in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.urls import reverse
from django.utils import dateformat, formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from clocks.core.timecontrol import TimeControl, TimeControlError
from tournament import services
from tournament.boards import links
from tournament.bridges import pairing_bridge, standings_bridge
from tournament.models import Board, Event, Result, Round
from tournament.standings import CrosstableCell, CrosstableRow, Standings, format_points
from tournament.texts import tiebreak_texts
from tournament.texts.formatting import lowest_text, name_key, source_text, vp


class PrintError(Exception):
    """A document that cannot be printed as asked (unknown document, round or paper).

    The message is translated and meant for the person who asked: the view turns it into a
    404 page, the management command into a ``CommandError``.
    """


# --- plain data ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventInfo:
    """What every page header and scoresheet says about the event."""

    name: str
    dates: str = ""
    venue: str = ""
    time_control: str = ""
    rules: str = ""
    stamp: str = ""
    """When the document was printed, so an outdated sheet on the wall can be recognised."""


@dataclass(frozen=True, slots=True)
class Seat:
    """A player as a pairing shows them: name, club, VP before the round (as the round was
    paired), pairing number and rating (arbiters check a draw by them)."""

    name: str
    club: str = ""
    vp: str = "0"
    number: int | None = None
    rating: int | None = None


@dataclass(frozen=True, slots=True)
class PairingLine:
    """One board of a round; ``board`` and ``second`` are None for a bye."""

    board: int | None
    first: Seat
    second: Seat | None = None


@dataclass(frozen=True, slots=True)
class NameLine:
    """A line of the alphabetical list: where a player sits and whom they meet."""

    name: str
    club: str
    board: int | None
    opponent: str | None
    first: bool
    #: Why a player is on no board ("absent (½ VP)", "withdrawn after round 2"), else "".
    not_paired: str = ""


@dataclass(frozen=True, slots=True)
class PairingsDoc:
    event: EventInfo
    round: int
    boards: tuple[PairingLine, ...]
    #: Players on no board (name, why: "absent (½ VP)", "withdrawn after round 2", …).
    not_paired: tuple[tuple[str, str], ...] = ()

    def by_name(self) -> tuple[NameLine, ...]:
        """Every player of the round alphabetically (accents ignored), with board and
        opponent, or why they are on no board: a player looking for their name finds it."""
        lines = [NameLine(name, "", None, None, False, why) for name, why in self.not_paired]
        for line in self.boards:
            second = line.second
            lines.append(NameLine(line.first.name, line.first.club, line.board,
                                  second.name if second else None, True))
            if second is not None:
                lines.append(NameLine(second.name, second.club, line.board,
                                      line.first.name, False))
        return tuple(sorted(lines, key=lambda n: name_key(n.name)))


@dataclass(frozen=True, slots=True)
class VersionLine:
    """One version of a board's result as the record prints it: status, VP, lowest colours,
    where it came from, who entered it and when, and every reason (its own, the decision's)."""

    version: int
    status: str
    vp: str
    lowest: str
    source: str
    who: str
    when: str
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BoardRecord:
    """A board of the round with its result versions and its clock's log (when, who, what,
    why); ``board`` is None for the pairing bye."""

    board: int | None
    players: str
    versions: tuple[VersionLine, ...]
    clock: tuple[tuple[str, str, str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class RecordDoc:
    """The record of a round: what paired it, every board's results and clock, and who was
    on no board and why."""

    event: EventInfo
    round: int
    paired_by: str
    boards: tuple[BoardRecord, ...]
    not_paired: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class TiebreakColumn:
    key: str
    label: str
    definition: str


@dataclass(frozen=True, slots=True)
class StandingLine:
    place: str
    name: str
    club: str
    vp: str
    tiebreaks: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StandingsDoc:
    event: EventInfo
    after_round: int
    columns: tuple[TiebreakColumn, ...]
    rows: tuple[StandingLine, ...]
    #: (place, name, why) for each row below another with equal VP: what separated them.
    decisions: tuple[tuple[str, str, str], ...] = ()
    #: The legend's line for the players marked † (withdrawn), or "".
    withdrawn: str = ""
    #: How the colour tiebreaks read (``standings_bridge.reading_notes``).
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CrossLine:
    """A crosstable row; ``cells`` hold one short text per round ("12f 1", "bye 1", "")."""

    place: str
    name: str
    vp: str
    cells: tuple[str, ...]
    firsts: int
    seconds: int


@dataclass(frozen=True, slots=True)
class CrosstableDoc:
    event: EventInfo
    after_round: int
    rows: tuple[CrossLine, ...]
    #: The legend's line for the players marked † (withdrawn), or "".
    withdrawn: str = ""


@dataclass(frozen=True, slots=True)
class SheetPlayer:
    name: str
    club: str = ""
    seed: int | None = None


@dataclass(frozen=True, slots=True)
class BoardSheet:
    """One board of a round as its scoresheet and slip show it; ``url`` opens the board page."""

    event: EventInfo
    round: int
    board: int
    first: SheetPlayer
    second: SheetPlayer
    url: str
    starts_at: str = ""


# --- pure conversions (no database) --------------------------------------------------------


#: After a withdrawn player's name in the printed tables; the legend says when each left.
WITHDRAWN_MARK = "†"


def _marked(name: str, left: int | None) -> str:
    return name if left is None else f"{name} {WITHDRAWN_MARK}"


def withdrawn_legend(names: dict, left: dict) -> str:
    """The printed tables' line for the † mark: who withdrew after which round."""
    items = sorted((names[pid], round_) for pid, round_ in left.items() if pid in names)
    return _("%(mark)s withdrawn: %(list)s") % {
        "mark": WITHDRAWN_MARK,
        "list": "; ".join(_("%(name)s after round %(r)d") % {"name": n, "r": r}
                          for n, r in items)}


def standings_doc_from(info: EventInfo, table: Standings,
                       left: dict | None = None, notes: tuple[str, ...] = ()) -> StandingsDoc:
    left = left or {}
    columns = tuple(
        TiebreakColumn(t.key, str(t.label), str(t.definition))
        for t in tiebreak_texts.texts(table.tiebreaks)
    )
    rows = tuple(
        StandingLine(row.place, _marked(row.name, left.get(row.player_id)), row.club or "",
                     row.vp_display,
                     tuple(value.display for value in row.tiebreaks))
        for row in table.rows
    )
    decided = standings_bridge.decisions(table)
    decisions = tuple((row.place, row.name, decided[row.player_id][1])
                      for row in table.rows if row.player_id in decided)
    names = {row.player_id: row.name for row in table.rows}
    return StandingsDoc(info, table.rounds, columns, rows, decisions,
                        withdrawn_legend(names, left) if left else "", notes)


def cell_text(cell: CrosstableCell | None) -> str:
    """``12f 1``: opponent's rank, played first (f) or second (s), the result."""
    if cell is None:
        return ""
    if cell.opponent_rank is None:
        label = pgettext("crosstable", "bye") if cell.kind == "bye" else pgettext(
            "crosstable", "abs")
        return f"{label} {cell.symbol}"
    side = pgettext("crosstable: played first", "f") if cell.first else pgettext(
        "crosstable: played second", "s")
    return f"{cell.opponent_rank}{side} {cell.symbol}"


def crosstable_doc_from(info: EventInfo, table: Standings,
                        rows: tuple[CrosstableRow, ...],
                        left: dict | None = None) -> CrosstableDoc:
    left = left or {}
    lines = tuple(
        CrossLine(row.place, _marked(row.name, left.get(row.player_id)), row.vp_display,
                  tuple(cell_text(c) for c in row.cells), row.firsts, row.seconds)
        for row in rows
    )
    names = {row.player_id: row.name for row in rows}
    return CrosstableDoc(info, table.rounds, lines,
                         withdrawn_legend(names, left) if left else "")


def time_control_text(spec: str) -> str:
    """``600`` -> "10 min per player"; ``600+5`` adds the increment, ``600d10`` the delay.

    The clock core reads the spec (one grammar); a spec it refuses (an event from an old
    backup, say) is printed as written."""
    try:
        control = TimeControl.parse(spec)
    except TimeControlError:
        return spec
    seconds = control.base_s
    text = (_("%(m)d min per player") % {"m": seconds // 60} if seconds % 60 == 0
            else _("%(s)d s per player") % {"s": seconds})
    if control.increment_s:
        text += " " + _("+ %(s)s s per move") % {"s": control.increment_s}
    elif control.delay_s:
        text += " " + _("(%(s)s s delay)") % {"s": control.delay_s}
    return text


# --- reading the database ------------------------------------------------------------------


def _date_range(event: Event) -> str:
    start, end = event.start_date, event.end_date
    if start is None:
        return ""
    if end is None or end == start:
        return formats.date_format(start, "DATE_FORMAT")
    first, last = formats.date_format(start, "DATE_FORMAT"), formats.date_format(end, "DATE_FORMAT")
    return f"{first} – {last}"


def event_info(event: Event) -> EventInfo:
    stamp = _("printed %(when)s") % {
        "when": formats.date_format(timezone.localtime(), "DATETIME_FORMAT")
    }
    return EventInfo(
        name=event.name, dates=_date_range(event), venue=event.venue,
        time_control=time_control_text(event.time_control),
        rules=str(event.get_rules_profile_display()), stamp=stamp,
    )


def board_path(board: Board) -> str:
    """The board page (clock, log entry: ``clocks.urls``) that a scoresheet's QR code opens."""
    return reverse("board_page", args=[board.token])


def find_round(event: Event, number: int | str | None) -> Round:
    """The round ``number`` of the event, or a PrintError naming what is wrong."""
    if number in (None, ""):
        raise PrintError(_("Say which round to print (?round=N)."))
    try:
        value = int(number)
    except (TypeError, ValueError):
        raise PrintError(_("%(value)r is not a round number.") % {"value": number}) from None
    round_ = event.rounds.filter(number=value).first()
    if round_ is None:
        raise PrintError(_("Round %(n)d has not been paired.") % {"n": value})
    return round_


def after_round(event: Event, number: int | str | None) -> int:
    """The round standings are printed after: the one asked for (a draft counts nothing:
    its previous round), else the last complete one."""
    if number in (None, ""):
        return standings_bridge.complete_rounds(event)
    return min(find_round(event, number).number, standings_bridge.last_round(event))


def pairings_doc(event: Event, round_: Round, info: EventInfo | None = None) -> PairingsDoc:
    before = standings_bridge.vp_when_paired(round_)

    def seat(player) -> Seat:
        paired = before.get(player.pk, Fraction(0))
        return Seat(player.name, player.club, format_points(paired), player.seed, player.rating)

    boards = round_.boards.select_related("first", "second").order_by("number", "pk")
    lines = [
        PairingLine(None if b.is_bye else b.number, seat(b.first),
                    None if b.is_bye else seat(b.second))
        for b in boards
    ]
    lines.sort(key=lambda line: (line.board is None, line.board or 0))
    out = tuple((item.player.name, item.text()) for item in services.not_paired(round_))
    return PairingsDoc(info or event_info(event), round_.number, tuple(lines), out)


def standings_doc(event: Event, after: int, info: EventInfo | None = None) -> StandingsDoc:
    table = standings_bridge.standings(event, after)
    return standings_doc_from(info or event_info(event), table,
                              standings_bridge.withdrawn(event, table.rounds),
                              tuple(standings_bridge.reading_notes(event)))


def crosstable_doc(event: Event, after: int, info: EventInfo | None = None) -> CrosstableDoc:
    table, rows = standings_bridge.crosstable(event, after)
    return crosstable_doc_from(info or event_info(event), table, rows,
                               standings_bridge.withdrawn(event, table.rounds))


def board_sheets(event: Event, round_: Round, base_url: str,
                 info: EventInfo | None = None) -> tuple[BoardSheet, ...]:
    """Every board of the round with two players (a bye needs no scoresheet), by number."""
    info = info or event_info(event)
    starts = (formats.date_format(timezone.localtime(round_.starts_at), "SHORT_DATETIME_FORMAT")
              if round_.starts_at else "")
    boards = (round_.boards.filter(second__isnull=False).select_related("first", "second")
              .order_by("number"))
    return tuple(
        BoardSheet(
            event=info, round=round_.number, board=b.number,
            first=SheetPlayer(b.first.name, b.first.club, b.first.seed),
            second=SheetPlayer(b.second.name, b.second.club, b.second.seed),
            url=base_url.rstrip("/") + board_path(b), starts_at=starts,
        )
        for b in boards
    )


def _when(moment) -> str:
    return dateformat.format(timezone.localtime(moment), "j M H:i:s") if moment else ""


def _version(result: Result) -> VersionLine:
    """A result version in the words of the board's page (its **History** table)."""
    reasons = [result.reason] if result.reason else []
    if result.decided_at:
        words = {"who": result.decided_by_label, "when": _when(result.decided_at),
                 "why": result.decision_reason}
        reasons.append((_("Dismissed by %(who)s at %(when)s: %(why)s") if
                        result.status == Result.Status.DISMISSED else
                        _("Accepted by %(who)s at %(when)s: %(why)s")) % words)
    second = "" if result.second_vp is None else vp(result.second_vp)
    return VersionLine(
        result.version, str(result.get_status_display()),
        f"{vp(result.first_vp)}–{second}" if second else vp(result.first_vp),
        lowest_text(result.first_scores, result.second_scores), source_text(result),
        result.entered_by_label, _when(result.entered_at), tuple(reasons))


def record_doc(event: Event, round_: Round, info: EventInfo | None = None) -> RecordDoc:
    """Everything the round's boards keep: each result version with its reasons and the
    decisions taken on it, and each board clock's log (``links.clock_logs``)."""
    boards = list(round_.boards.select_related("first", "second").order_by("number", "pk")
                  .prefetch_related("results"))
    logs = links.clock_logs.links(b.pk for b in boards)
    records = []
    for b in sorted(boards, key=lambda b: (b.is_bye, b.number)):
        players = (_("%(name)s: bye") % {"name": b.first.name} if b.is_bye
                   else f"{b.first.name} – {b.second.name}")
        versions = tuple(_version(r) for r in sorted(b.results.all(), key=lambda r: r.version))
        clock = tuple((_when(line.at), line.who, line.what, line.why)
                      for line in logs.get(b.pk, ()))
        records.append(BoardRecord(None if b.is_bye else b.number, players, versions, clock))
    out = tuple((item.player.name, item.explained()) for item in services.not_paired(round_))
    return RecordDoc(info or event_info(event), round_.number,
                     pairing_bridge.paired_by_text(round_.paired_by), tuple(records), out)
