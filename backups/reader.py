"""Reading a backup file into unsaved rows, every one checked, before anything is written.

A backup may come from another server, an older version, or someone's editor. ``read`` walks
the whole document, builds the model instances without saving them, runs each through the
model's own validation (the limits of ``tournament.inputs.validation``, the same as for the forms),
checks what ties them together (pairing numbers, boards, result versions, VP that follow from
the scores, one result per player and round) and collects every problem with its path in the
file, e.g. ``players[3].name``. Only a document without problems becomes a :class:`Plan`,
which ``backups.document.import_event`` then writes in one transaction.

Before any of that, :func:`unstorable` walks the whole document once for values no database
stores (NUL, lone surrogates, numbers that are not finite) and nests deeper than
``MAX_DEPTH``. Game records are replayed by the rules engine as a submitted record is: the
pages that show them replay the stored text, so a file must not store one that fails.

An online game is judged by the dealt-game core, as the server would have played it: the seed
must give the committed deal and the moves must replay from it move by move (the engine's
reason names the first that does not). Its two personal links are secrets printed on slips:
each must be a link the seat pages can open, and no link may appear twice in the file, board
QR codes included (a board's link would open a seat, and a rack is private to one seat).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from backups import automation
from backups.automation import PlannedAutomation, PlannedLogin
from clocks import archive
from clocks.archive import ArchivedClock
from clocks.core.state_reader import StateError
from games.dealt import MoveRefused, Table, parse_seed
from games.engine import EngineError, format_record
from games.engine_messages import move_refusal_text
from games.models import SEAT_TOKEN, GameRecord, OnlineEvent, OnlineGame, OnlineRound
from games.services import RecordRejected, record_digest, verified_record
from tournament.boards.player_codes import ALPHABET as CARD_ALPHABET
from tournament.boards.player_codes import KEY_LENGTH as CARD_KEY_LENGTH
from tournament.models import (
    Absence,
    Board,
    CheckIn,
    Confirmation,
    Event,
    HistoryEntry,
    Player,
    PlayerCard,
    Result,
    Round,
)
from tournament.outcome import ResultError, derive_outcome

#: How many problems a refusal lists; the rest are counted.
SHOWN = 12

#: How deep objects and lists may nest. An export nests at most 9 levels (a result's scores
#: inside its board inside its round); the rest is room for history details.
MAX_DEPTH = 32

_UNSTORABLE = re.compile(r"[\x00\ud800-\udfff]")
"""NUL (PostgreSQL refuses it in text and JSON) and lone surrogates (not text: no database
encodes them): characters that reach no column, so nothing in a backup may hold them."""


class Problems(Exception):
    """Everything wrong with a backup, each with its path."""

    def __init__(self, found: list[str]) -> None:
        self.found = found
        more = len(found) - SHOWN
        text = "; ".join(found[:SHOWN])
        if more > 0:
            text += "; " + ngettext("and %(n)d more", "and %(n)d more", more) % {"n": more}
        super().__init__(text)


OnlineMark = tuple[OnlineRound | OnlineEvent, str | None, datetime | None]
"""A round (or the whole event) played online: (unsaved row, marked_by username, marked_at)."""


@dataclass
class PlannedGame:
    """A board's online game: the unsaved row, its replay (the position and whose turn, for
    its clock), the index of its record on the board, and its times."""

    game: OnlineGame
    table: Table
    record: int | None
    created_at: datetime | None
    updated_at: datetime | None


@dataclass
class PlannedBoard:
    board: Board
    first: int
    second: int | None
    records: list[tuple[GameRecord, datetime | None]] = field(default_factory=list)
    results: list[tuple[Result, int | None, str, datetime | None]] = field(default_factory=list)
    """(unsaved result, index of its record, entered_by name, entered_at)."""
    online: PlannedGame | None = None
    clock: ArchivedClock | None = None
    confirmations: list[Confirmation] = field(default_factory=list)


@dataclass
class PlannedRound:
    round: Round
    boards: list[PlannedBoard] = field(default_factory=list)
    online: OnlineMark | None = None


@dataclass
class Plan:
    """A checked backup: unsaved rows in the order they are written."""

    event: Event
    arbiters: list[str]
    players: list[tuple[Player, list[Absence]]]
    rounds: list[PlannedRound]
    history: list[tuple[HistoryEntry, datetime | None]]
    online: OnlineMark | None = None  # every round of the event played online
    cards: dict[int, list[tuple[PlayerCard, datetime | None]]] = field(default_factory=dict)
    """Each pairing number's cards (version 4): (unsaved card, issued_at)."""
    checkins: dict[int, list[tuple[CheckIn, str | None, datetime | None]]] = field(
        default_factory=dict)
    """Each pairing number's check-ins (version 4): (unsaved row, user name, at)."""
    logins: dict[int, PlannedLogin] = field(default_factory=dict)
    """Each pairing number's login (version 8)."""
    automation: PlannedAutomation | None = None
    """A self-running event's automation and registrations (version 8)."""


class _Reader:
    def __init__(self) -> None:
        self.found: list[str] = []
        self.board_links: dict[str, str] = {}  # a board's token -> its path
        self.seat_links: dict[str, str] = {}  # a personal link -> its path
        self.card_keys: dict[str, str] = {}  # a player card's key -> its path
        self.cards: dict[int, list] = {}
        self.checkins: dict[int, list] = {}
        self.logins: dict[int, PlannedLogin] = {}
        self.login_users: dict[str, str] = {}  # an account with a live login -> its path

    # -- plumbing -------------------------------------------------------------------------
    def problem(self, path: str, message: str) -> None:
        self.found.append(f"{path}: {message}")

    def obj(self, value, path: str) -> dict:
        if not isinstance(value, dict):
            self.problem(path, _("expected an object"))
            return {}
        return value

    def items(self, value, path: str) -> list:
        if not isinstance(value, list):
            self.problem(path, _("expected a list"))
            return []
        return value

    def get(self, data: dict, key: str, path: str, kinds, default=...):
        """``data[key]`` if it has one of the JSON ``kinds``; a problem otherwise."""
        if key not in data:
            if default is not ...:
                return default
            self.problem(f"{path}.{key}", _("missing"))
            return None
        value = data[key]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in _tuple(kinds)):
            self.problem(f"{path}.{key}", _("expected %(kinds)s") % {"kinds": _kind_names(kinds)})
            return None
        return value

    def decimal(self, text, path: str) -> Decimal | None:
        if text is None:
            return None
        try:
            value = Decimal(str(text))
        except InvalidOperation:
            self.problem(path, _("%(text)r is not a number") % {"text": text})
            return None
        if not value.is_finite():
            self.problem(path, _("%(text)r is not a number") % {"text": text})
            return None
        return value

    def moment(self, text, path: str) -> datetime | None:
        """Every date and time of a file passes here: one with its offset (the exports write
        ``+00:00``); a naive one is a problem at its path, never compared with an aware one
        later (a 500 that imported nothing)."""
        value = self._parsed(text, path, parse_datetime, _("a date and time"))
        if value is None:
            return None
        if timezone.is_naive(value):
            self.problem(path, _("%(text)r has no time zone: write it with its offset, like "
                                 "2030-01-01T09:00:00+00:00") % {"text": text})
            return None
        try:
            value.astimezone(UTC)  # refused now, not by the database's overflow later
        except OverflowError:
            self.problem(path, _("%(text)r is not a date and time") % {"text": text})
            return None
        return value

    def day(self, text, path: str) -> date | None:
        return self._parsed(text, path, parse_date, _("a date"))

    def _parsed(self, text, path: str, parse, what: str):
        """``parse(text)`` for an ISO text; ``None`` stays ``None``; anything else a problem."""
        if text is None:
            return None
        try:
            value = parse(text) if isinstance(text, str) else None
        except ValueError:  # well-formed but impossible, like 2026-13-45
            value = None
        if value is None:
            self.problem(path, _("%(text)r is not %(what)s") % {"text": text, "what": what})
        return value

    def check(self, instance, path: str, exclude=()) -> None:
        """The model's own validation (the forms' limits), problems under ``path``."""
        try:
            instance.full_clean(exclude=list(exclude), validate_unique=False,
                                validate_constraints=False)
        except ValidationError as exc:
            for name, messages in exc.message_dict.items():
                where = path if name == "__all__" else f"{path}.{name}"
                for message in messages:
                    self.problem(where, message)

    # -- the document ---------------------------------------------------------------------
    def event(self, spec: dict, slug: str | None, fields: list[str], optional: dict) -> Event:
        values = {}
        for name in fields:
            if name in spec:
                values[name] = spec[name]
            elif name in optional:
                values[name] = optional[name]
            else:
                self.problem(f"event.{name}", _("missing"))
        if slug:
            values["slug"] = slug
        event = Event(**{k: v for k, v in values.items() if k != "tiebreaks"})
        event.tiebreaks = values.get("tiebreaks", [])
        event.start_date = self.day(spec.get("start_date"), "event.start_date")
        event.end_date = self.day(spec.get("end_date"), "event.end_date")
        # late_entry_vp: backups written before it existed have none (the default, 0, is what
        # those events scored)
        for name, kinds in (("checkin_open", bool), ("kiosk_generation", int)):
            if name in spec and (not isinstance(spec[name], kinds)
                                 or (kinds is int and isinstance(spec[name], bool))):
                self.problem(f"event.{name}", _("expected %(kinds)s")
                             % {"kinds": _kind_names(kinds)})
        event.checkin_closes_at = self.moment(spec.get("checkin_closes_at"),
                                              "event.checkin_closes_at")
        for name in ("bye_vp", "absence_vp", *(("late_entry_vp",) if "late_entry_vp" in spec
                                               else ())):
            value = self.decimal(self.get(spec, name, "event", str), f"event.{name}")
            if value is not None:
                setattr(event, name, value)
        try:
            self.check(event, "event")
        except (TypeError, ValueError) as exc:  # a value of the wrong type for its field
            self.problem("event", str(exc))
        slug_ok = not any(p.startswith("event.slug") for p in self.found)
        if slug_ok and Event.objects.filter(slug=event.slug).exists():
            self.problem("event.slug", slug_taken(event.slug))
        return event

    def players(self, items: list) -> tuple[list, dict[int, int]]:
        planned, seeds, names = [], {}, set()
        for index, raw in enumerate(items):
            path = f"players[{index}]"
            data = self.obj(raw, path)
            values = {}
            for key, kinds in (("seed", int), ("name", str), ("club", str), ("country", str),
                               ("rating", (int, type(None))), ("joined_round", int),
                               ("withdrawn_after_round", (int, type(None))),
                               ("withdrawal_reason", str)):
                values[key] = self.get(data, key, path, kinds)
            player = Player(**{k: v for k, v in values.items() if v is not None})
            self.check(player, path, exclude=["event"])
            seed = values["seed"]
            if seed is not None:
                if seed in seeds:
                    self.problem(f"{path}.seed", _("pairing number %(n)s is used twice")
                        % {"n": seed})
                seeds[seed] = index
            name = (values["name"] or "").casefold()
            if name and name in names:
                self.problem(f"{path}.name", _("%(name)r is entered twice")
                    % {"name": values["name"]})
            names.add(name)
            absences = []
            for a_index, raw_absence in enumerate(self.items(data.get("absences", []),
                                                             f"{path}.absences")):
                a_path = f"{path}.absences[{a_index}]"
                a_data = self.obj(raw_absence, a_path)
                absence = Absence(
                    round_number=self.get(a_data, "round", a_path, int),
                    vp=self.decimal(self.get(a_data, "vp", a_path, str), f"{a_path}.vp"),
                    reason=self.get(a_data, "reason", a_path, str) or "",
                )
                self.check(absence, a_path, exclude=["player"])
                absences.append(absence)
            login = automation.read_login(self, data.get("login"), f"{path}.login",
                                          self.login_users)
            if seed is not None and login is not None:  # from version 8
                self.logins[seed] = login
            if seed is not None and "cards" in data:  # from version 4
                self.cards[seed] = self.player_cards(data, path)
                self.checkins[seed] = self.player_checkins(data, path)
            planned.append((player, absences))
        return planned, seeds

    def player_cards(self, data: dict, path: str) -> list:
        """``players[i].cards`` (version 4): each key of the form ``player_codes`` makes, used
        once in the file, at most one card not revoked."""
        planned, live = [], 0
        for index, raw in enumerate(self.items(data.get("cards", []), f"{path}.cards")):
            c_path = f"{path}.cards[{index}]"
            c_data = self.obj(raw, c_path)
            key = self.get(c_data, "key", c_path, str)
            if key is not None:
                if len(key) != CARD_KEY_LENGTH or any(ch not in CARD_ALPHABET for ch in key):
                    self.problem(f"{c_path}.key", _("a card's key is %(n)d of the letters and "
                                                    "digits of a player code")
                                 % {"n": CARD_KEY_LENGTH})
                elif key in self.card_keys:
                    self.problem(f"{c_path}.key", _("the same key as %(path)s")
                                 % {"path": self.card_keys[key]})
                else:
                    self.card_keys[key] = f"{c_path}.key"
            issued_at = self.moment(self.get(c_data, "issued_at", c_path, str),
                                    f"{c_path}.issued_at")
            revoked_at = self.moment(self.get(c_data, "revoked_at", c_path, (str, type(None))),
                                     f"{c_path}.revoked_at")
            if issued_at and revoked_at and revoked_at < issued_at:
                self.problem(f"{c_path}.revoked_at", _("before the card was issued"))
            live += revoked_at is None
            card = PlayerCard(key=key or "", revoked_at=revoked_at)
            self.check(card, c_path, exclude=["player"])
            planned.append((card, issued_at))
        if live > 1:
            self.problem(f"{path}.cards", _("more than one card in use"))
        return planned

    def player_checkins(self, data: dict, path: str) -> list:
        """``players[i].checkins`` (version 4): one per round, each with its time and way."""
        planned, rounds = [], set()
        for index, raw in enumerate(self.items(data.get("checkins", []), f"{path}.checkins")):
            c_path = f"{path}.checkins[{index}]"
            c_data = self.obj(raw, c_path)
            row = CheckIn(round_number=self.get(c_data, "round", c_path, int),
                          via=self.get(c_data, "via", c_path, str) or "")
            self.check(row, c_path, exclude=["player", "user"])
            if row.round_number in rounds:
                self.problem(f"{c_path}.round", _("round %(n)s is listed twice")
                             % {"n": row.round_number})
            rounds.add(row.round_number)
            user = self.get(c_data, "user", c_path, (str, type(None)), default=None)
            at = self.moment(self.get(c_data, "at", c_path, str), f"{c_path}.at")
            planned.append((row, user, at))
        return planned

    def confirmations(self, data: dict, path: str, bye: bool) -> list[Confirmation]:
        """``boards[j].confirmations`` (version 4): one per seat, twelve scores from 0 to 18
        each, the time and the way; a bye has none."""
        planned, seats = [], set()
        items = self.items(data.get("confirmations", []), f"{path}.confirmations")
        if items and bye:
            self.problem(f"{path}.confirmations", _("a bye has no scores to confirm"))
            return []
        for index, raw in enumerate(items):
            c_path = f"{path}.confirmations[{index}]"
            c_data = self.obj(raw, c_path)
            row = Confirmation(
                seat=self.get(c_data, "seat", c_path, str) or "",
                first_scores=self.scores(c_data, "first_scores", c_path),
                second_scores=self.scores(c_data, "second_scores", c_path),
                at=self.moment(self.get(c_data, "at", c_path, str), f"{c_path}.at"),
                via=self.get(c_data, "via", c_path, str) or "",
            )
            self.check(row, c_path, exclude=["board"])
            if row.seat in seats:
                self.problem(f"{c_path}.seat", _("the %(seat)s seat confirmed twice")
                             % {"seat": row.seat})
            seats.add(row.seat)
            planned.append(row)
        return planned

    def scores(self, data: dict, key: str, path: str) -> dict | None:
        """Six colour scores ``{"R": 0, …}``, each a whole number from 0 to 18."""
        value = self.get(data, key, path, dict)
        if value is None:
            return None
        colours = "RGBOYP"
        if sorted(value) != sorted(colours) or any(
                isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 18
                for v in value.values()):
            self.problem(f"{path}.{key}", _("six colour scores R, G, B, O, Y, P, each a whole "
                                            "number from 0 to 18"))
            return None
        return {c: value[c] for c in colours}

    def results(self, items: list, path: str, records: list[GameRecord], bye: bool,
                bye_vp: Decimal | None) -> list:
        planned, versions, accepted = [], set(), 0
        for index, raw in enumerate(items):
            r_path = f"{path}.results[{index}]"
            data = self.obj(raw, r_path)
            scores = (dict, list, type(None))
            result = Result(
                version=self.get(data, "version", r_path, int),
                kind=self.get(data, "kind", r_path, str),
                status=self.get(data, "status", r_path, str),
                source=self.get(data, "source", r_path, str),
                first_scores=self.get(data, "first_scores", r_path, scores),
                second_scores=self.get(data, "second_scores", r_path, scores),
                first_vp=self.decimal(self.get(data, "first_vp", r_path, str),
                                      f"{r_path}.first_vp"),
                second_vp=self.decimal(self.get(data, "second_vp", r_path, (str, type(None))),
                                       f"{r_path}.second_vp"),
                loser_seat=self.get(data, "loser_seat", r_path, str) or "",
                reason=self.get(data, "reason", r_path, str) or "",
                entered_by_label=self.get(data, "entered_by", r_path, str) or "",
                # the arbiter's decision on the version (files before it: none)
                decided_by_label=self.get(data, "decided_by", r_path, str, default="") or "",
                decided_at=self.moment(self.get(data, "decided_at", r_path, (str, type(None)),
                                                default=None), f"{r_path}.decided_at"),
                decision_reason=self.get(data, "decision_reason", r_path, str, default="")
                or "",
            )
            self.check(result, r_path, exclude=["board", "entered_by"])
            self.outcome(result, r_path, bye, bye_vp)
            if result.version in versions:
                self.problem(f"{r_path}.version", _("version %(v)s is used twice")
                             % {"v": result.version})
            versions.add(result.version)
            accepted += result.status == Result.Status.ACCEPTED
            record = self.record_index(data, r_path, len(records))
            if record is not None and result.source == Result.Source.RECORD:
                self.from_record(result, records[record], record, r_path)
            planned.append((result, record, result.entered_by_label,
                            self.moment(data.get("entered_at"), f"{r_path}.entered_at")))
        if accepted > 1:
            self.problem(path, _("more than one accepted result"))
        return planned

    def from_record(self, result: Result, record: GameRecord, index: int, path: str) -> None:
        """A result taken from a record has the record's scores (``games.services``: first
        seat A, second B); the record itself was replayed by the engine (``replayed``)."""
        scores = record.summary.get("scores")
        if not isinstance(scores, dict):  # a summary already refused
            return
        if (result.first_scores, result.second_scores) != (scores.get("A"), scores.get("B")):
            self.problem(f"{path}.record", _("the scores are not those of record %(n)s")
                         % {"n": index})

    def record_index(self, data: dict, path: str, records: int) -> int | None:
        """``data["record"]``: the index of a record on the board (the file's link to it)."""
        record = self.get(data, "record", path, (int, type(None)))
        if record is not None and not 0 <= record < records:
            self.problem(f"{path}.record", _("no record %(n)s on this board") % {"n": record})
            return None
        return record

    def outcome(self, result: Result, path: str, bye: bool, bye_vp) -> None:
        """The stored VP and scores must be what the outcome rule derives from them."""
        if result.kind is None or result.first_vp is None:
            return
        if bye != (result.kind == Result.Kind.BYE):
            self.problem(f"{path}.kind", _("a bye board takes bye results only, and only a "
                                           "bye board takes them"))
            return
        try:
            outcome = derive_outcome(
                result.kind, first_scores=result.first_scores,
                second_scores=result.second_scores, loser_seat=result.loser_seat,
                first_vp=result.first_vp, second_vp=result.second_vp,
                bye_vp=result.first_vp if bye else bye_vp,
            )
        except ResultError as exc:
            self.problem(f"{path}.{exc.field}", exc.message)
            return
        derived = (outcome.first_vp, outcome.second_vp, outcome.first_scores,
                   outcome.second_scores)
        stored = (result.first_vp, result.second_vp, result.first_scores, result.second_scores)
        if derived != stored:
            self.problem(path, _("the VP do not follow from the kind and the scores"))

    def rounds(self, items: list, seeds: dict[int, int], bye_vp,
               profile: str) -> list[PlannedRound]:
        planned, numbers = [], set()
        for index, raw in enumerate(items):
            path = f"rounds[{index}]"
            data = self.obj(raw, path)
            round_ = Round(
                number=self.get(data, "number", path, int),
                status=self.get(data, "status", path, str),
                pairing_note=self.get(data, "pairing_note", path, str) or "",
                paired_by=self.get(data, "paired_by", path, str, "") or "",
            )
            for name in ("starts_at", "published_at", "closed_at"):
                setattr(round_, name, self.moment(data.get(name), f"{path}.{name}"))
            round_.paired_on = self.paired_on(data.get("paired_on", {}), f"{path}.paired_on",
                                              seeds)
            self.check(round_, path, exclude=["event"])
            if round_.number in numbers:
                self.problem(f"{path}.number", _("round %(n)s is listed twice")
                    % {"n": round_.number})
            numbers.add(round_.number)
            planned_round = PlannedRound(round_,
                                         online=self.online_mark(data.get("online"), path,
                                                                OnlineRound()))
            seated: set[int] = set()
            for b_index, raw_board in enumerate(self.items(data.get("boards"), f"{path}.boards")):
                b_path = f"{path}.boards[{b_index}]"
                board = self.board(raw_board, b_path, seeds, seated, bye_vp)
                if isinstance(raw_board, dict) and raw_board.get("online") is not None:
                    board.online = self.online_game(raw_board["online"], f"{b_path}.online",
                                                    board, planned_round, profile)
                if isinstance(raw_board, dict) and raw_board.get("clock") is not None:
                    board.clock = self.clock(raw_board["clock"], f"{b_path}.clock", board)
                planned_round.boards.append(board)
            planned.append(planned_round)
        if numbers and numbers != set(range(1, len(numbers) + 1)):
            self.problem("rounds", _("the rounds are not numbered 1, 2, 3, …"))
        return planned

    def paired_on(self, raw, path: str, seeds: dict[int, int]) -> dict[str, str]:
        """A round's VP as paired on (``Round.paired_on``): pairing numbers of the backup's
        players to VP in half points, 0 to 99."""
        data = self.obj(raw, path)
        kept = {}
        for key, value in data.items():
            if not (key.isascii() and key.isdigit() and len(key) <= 6 and int(key) in seeds):
                self.problem(f"{path}.{key}", _("no player has pairing number %(n)s")
                             % {"n": key})
                continue
            if not isinstance(value, str):
                self.problem(f"{path}.{key}", _('expected VP as text, such as "1.5"'))
                continue
            vp = self.decimal(value, f"{path}.{key}")
            if vp is None:
                continue
            if not 0 <= vp <= 99 or vp * 2 % 1:
                self.problem(f"{path}.{key}", _("VP must be 0 to 99 in halves"))
                continue
            kept[key] = value
        return kept

    def board(self, raw, path: str, seeds: dict[int, int], seated: set[int],
              bye_vp) -> PlannedBoard:
        data = self.obj(raw, path)
        first = self.get(data, "first", path, int)
        second = self.get(data, "second", path, (int, type(None)))
        for seat, seed in (("first", first), ("second", second)):
            if seed is None:
                continue
            if seed not in seeds:
                self.problem(f"{path}.{seat}", _("no player has pairing number %(n)s")
                    % {"n": seed})
            elif seed in seated:
                self.problem(f"{path}.{seat}", _("player %(n)s sits at two boards of the round")
                             % {"n": seed})
            seated.add(seed)
        if first is not None and first == second:
            self.problem(path, _("a player cannot play themself"))
        board = Board(
            number=self.get(data, "number", path, int),
            token=self.get(data, "token", path, str) or "",
            token_revoked_at=self.moment(data.get("token_revoked_at"),
                                         f"{path}.token_revoked_at"),
            manual_reason=self.get(data, "manual_reason", path, str) or "",
        )
        self.check(board, path, exclude=["round", "first", "second"])
        self.board_links.setdefault(board.token, f"{path}.token")
        planned = PlannedBoard(board, first, second)
        for r_index, raw_record in enumerate(self.items(data.get("records", []),
                                                        f"{path}.records")):
            planned.records.append(self.record(raw_record, f"{path}.records[{r_index}]"))
        planned.results = self.results(self.items(data.get("results", []), f"{path}.results"),
                                       path, [record for record, _at in planned.records],
                                       second is None, bye_vp)
        planned.confirmations = self.confirmations(data, path, second is None)
        return planned

    def clock(self, raw, path: str, board: PlannedBoard) -> ArchivedClock | None:
        """``boards[j].clock`` (version 3): an over-the-board clock that had started, its state
        and log (``clocks.archive``); an online game's clock comes back from its moves."""
        if board.online is not None:
            self.problem(path, _("an online game's clock is rebuilt from its moves, not kept"))
            return None
        try:
            return archive.read_record(raw, path)
        except StateError as exc:
            self.problem(exc.path, exc.message)
            return None

    def online_mark(self, raw, path: str, row: OnlineRound | OnlineEvent) -> OnlineMark | None:
        """``rounds[i].online`` (``row`` an OnlineRound) or ``event.online`` (an OnlineEvent):
        null (or missing, in older files) when played over the board; who marked it online and
        when otherwise."""
        if raw is None:
            return None
        path = f"{path}.online"
        data = self.obj(raw, path)
        return (row, self.get(data, "marked_by", path, (str, type(None)), default=None),
                self.moment(data.get("marked_at"), f"{path}.marked_at"))

    def online_game(self, raw, path: str, board: PlannedBoard, round_: PlannedRound,
                    profile: str) -> PlannedGame | None:
        """A board's dealt game, checked as the server would have played it (module docstring).

        Not through ``full_clean``: the model would check only lengths and blanks, and the
        checks here are stricter (the core judges the seed, the commitment and the moves,
        ``SEAT_TOKEN`` the links)."""
        data = self.obj(raw, path)
        if round_.online is None:
            self.problem(path, _("only the boards of a round played online have online games"))
            return None
        if board.second is None:
            self.problem(path, _("a bye has no online game"))
            return None
        token_a = self.seat_link(data, "token_a", path)
        token_b = self.seat_link(data, "token_b", path)
        record = self.record_index(data, path, len(board.records))
        seed = self.get(data, "seed", path, str)
        committed = self.get(data, "commitment", path, str)
        moves = self.get(data, "moves", path, list)
        if seed is None:
            return None
        try:
            seed_bytes = parse_seed(seed)
        except ValueError:
            self.problem(f"{path}.seed", _("a seed is 64 hex digits"))
            return None
        try:
            dealt = Table(seed_bytes, profile=profile)  # the deal as the server dealt it
        except EngineError:  # an unknown rules profile: event.rules_profile says so
            return None
        if committed is not None and committed != dealt.commitment:
            self.problem(f"{path}.commitment", _("does not match the deal of this seed"))
        if moves and round_.round.status == Round.Status.DRAFTED:
            self.problem(f"{path}.moves", _("the round is not published yet, so its games "
                                            "have no moves"))
        if moves is None:
            return None
        try:
            table = Table.restore(seed_bytes, moves, profile=profile)
        except MoveRefused as refused:
            self.problem(f"{path}.moves[{refused.index}]", move_refusal_text(refused))
            return None
        seen = self.obj(data.get("seen") or {}, f"{path}.seen")
        no_show = data.get("no_show") or ""
        if no_show not in ("", "A", "B", "AB"):
            self.problem(f"{path}.no_show", _("the seats that did not appear: \"\", \"A\", "
                                              "\"B\" or \"AB\""))
            no_show = ""
        elif no_show and (record is not None or table.over):
            self.problem(f"{path}.no_show", _("a game that was played has no absent player"))
            no_show = ""
        game = OnlineGame(seed=seed_bytes.hex(), commitment=table.commitment,
                          moves=table.moves, token_a=token_a, token_b=token_b,
                          seen_a=self.moment(seen.get("A"), f"{path}.seen.A"),
                          seen_b=self.moment(seen.get("B"), f"{path}.seen.B"), no_show=no_show)
        return PlannedGame(game, table, record,
                           self.moment(data.get("created_at"), f"{path}.created_at"),
                           self.moment(data.get("updated_at"), f"{path}.updated_at"))

    def seat_link(self, data: dict, key: str, path: str) -> str:
        """One seat's personal link, of the form the seat pages open and not seen before."""
        token = self.get(data, key, path, str)
        where = f"{path}.{key}"
        if token is None:
            return ""
        if not SEAT_TOKEN.fullmatch(token):
            self.problem(where, _("a personal link is 10 to 32 of the characters A–Z, a–z, "
                                  "0–9, '-' and '_'"))
        elif token in self.seat_links:
            self.problem(where, _("the same link as %(path)s") % {"path": self.seat_links[token]})
        else:
            self.seat_links[token] = where
        return token

    def links_apart(self) -> None:
        """No personal link may be a board's link too (any board of the file, also of a later
        round: this runs once the whole file is read)."""
        for token, where in self.seat_links.items():
            if token in self.board_links:
                self.problem(where, _("the same link as %(path)s")
                             % {"path": self.board_links[token]})

    def record(self, raw, path: str):
        data = self.obj(raw, path)
        record = GameRecord(
            text=self.get(data, "text", path, str) or "",
            digest=self.get(data, "digest", path, str) or "",
            summary=self.get(data, "summary", path, dict) or {},
            submitted_via=self.get(data, "submitted_via", path, str) or "",
        )
        self.check(record, path, exclude=["board", "submitted_by"])
        self.replayed(record, path)
        return record, self.moment(data.get("submitted_at"), f"{path}.submitted_at")

    def replayed(self, record: GameRecord, path: str) -> None:
        """A record is stored only as the engine verified it (``games.services``), and the
        pages replay it: the file's text must verify, be the canonical text the server
        stores, and carry the digest and summary that follow from it."""
        try:
            parsed, game = verified_record(record.text)
        except RecordRejected as refused:
            self.problem(f"{path}.text", str(refused))
            return
        canonical = format_record(parsed)
        if record.text != canonical:
            self.problem(f"{path}.text", _("not written as the server stores a record "
                                           "(its canonical form)"))
        elif record.digest != record_digest(canonical):
            self.problem(f"{path}.digest", _("does not match the record's text"))
        if record.summary != game.to_json():
            self.problem(f"{path}.summary", _("does not match the record's text"))

    def history(self, items: list) -> list:
        planned = []
        for index, raw in enumerate(items):
            path = f"history[{index}]"
            data = self.obj(raw, path)
            entry = HistoryEntry(
                action=self.get(data, "action", path, str),
                summary=self.get(data, "summary", path, str) or "",
                reason=self.get(data, "reason", path, str) or "",
                user_label=self.get(data, "user", path, str) or "",
                details=self.get(data, "details", path, dict) or {},
            )
            self.check(entry, path, exclude=["event", "user"])
            planned.append((entry, self.moment(data.get("at"), f"{path}.at")))
        return planned


def unstorable(data) -> list[str]:
    """Every value of the document that no database stores, with its path: a string (or key)
    holding NUL or a lone surrogate, a number that is not finite, nesting past ``MAX_DEPTH``.

    Checked once over the whole document before anything reads it, so that no field (free
    JSON like history details included) can carry such a value to the database, and a deep
    nest is refused here instead of overflowing a recursive reader or encoder later. Walked
    with a stack, not recursion, for the same reason."""
    found: list[str] = []
    stack = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        where = path or "file"
        if isinstance(value, str):
            if bad := _UNSTORABLE.search(value):
                found.append(f"{where}: {_unstorable_text(bad.group())}")
        elif isinstance(value, float) and not math.isfinite(value):
            found.append(f"{where}: " + _("%(text)r is not a number") % {"text": value})
        elif isinstance(value, dict | list):
            if depth == MAX_DEPTH:
                found.append(f"{where}: " + _("nested more than %(n)d levels deep")
                             % {"n": MAX_DEPTH})
                continue
            if isinstance(value, list):
                children = [(item, f"{path}[{index}]") for index, item in enumerate(value)]
            else:
                children = []
                for key, item in value.items():
                    name = _printable(str(key))
                    inner = f"{path}.{name}" if path else name
                    if bad := _UNSTORABLE.search(str(key)):
                        found.append(f"{inner}: {_unstorable_text(bad.group())}")
                    children.append((item, inner))
            stack.extend((item, where_, depth + 1) for item, where_ in reversed(children))
    return found


def _printable(key: str) -> str:
    """A key as a path shows it: unstorable characters escaped (the refusal itself must be
    storable and printable), cut at 40 characters."""
    key = _UNSTORABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", key)
    return key if len(key) <= 40 else key[:40] + "…"


def _unstorable_text(char: str) -> str:
    if char == "\x00":
        return _("holds a NUL character, which no database stores")
    return _("holds a lone surrogate (\\u%(code)04x), which is not text") % {"code": ord(char)}


def read(data, *, slug: str | None, fields: list[str], optional: dict) -> Plan:
    """The checked plan of a backup document, or :class:`Problems` listing every fault."""
    found = unstorable(data)
    if found:  # the readers below must not meet these values
        raise Problems(found)
    reader = _Reader()
    data = reader.obj(data, "file")
    event = reader.event(reader.obj(data.get("event"), "event"), slug, fields, optional)
    online = reader.online_mark(reader.obj(data.get("event"), "event").get("online"), "event",
                                OnlineEvent())
    arbiters = [a for a in reader.items(reader.obj(data.get("event"), "event").get(
        "arbiters", []), "event.arbiters") if isinstance(a, str)]
    players, seeds = reader.players(reader.items(data.get("players"), "players"))
    rounds = reader.rounds(reader.items(data.get("rounds"), "rounds"), seeds,
                           getattr(event, "bye_vp", None), event.rules_profile)
    reader.links_apart()
    for player_index, (player, absences) in enumerate(players):
        for absence in absences:
            if any(absence.round_number == r.round.number and any(
                    player.seed in (b.first, b.second) for b in r.boards) for r in rounds):
                reader.problem(f"players[{player_index}].absences",
                               _("absent in round %(n)s but also paired in it")
                               % {"n": absence.round_number})
    history = reader.history(reader.items(data.get("history", []), "history"))
    pilot = automation.read(reader, data.get("automation"), seeds)
    if reader.found:
        raise Problems(reader.found)
    return Plan(event, arbiters, players, rounds, history, online, cards=reader.cards,
                checkins=reader.checkins, logins=reader.logins, automation=pilot)


def slug_taken(slug: str) -> str:
    return _("an event with the short name %(slug)r already exists; choose another") % {
        "slug": slug}


def _tuple(kinds) -> tuple:
    return kinds if isinstance(kinds, tuple) else (kinds,)


def _kind_names(kinds) -> str:
    names = {int: _("a whole number"), str: _("text"), dict: _("an object"), list: _("a list"),
             bool: _("true or false"), type(None): "null"}
    # Translators: joins the kinds of JSON value a field may hold: "text or null".
    return _(" or ").join(names.get(k, k.__name__) for k in _tuple(kinds))
