"""The one bridge between the database and the standings core.

Builds the core's plain input (:class:`tournament.standings.EventResults`) from rows with a
fixed number of queries, whatever the size of the event, and calls the core. Nothing else in
the shell builds standings input.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TypeVar

from django.db.models import Count, Q
from django.utils.translation import gettext as _

from games.engine.board import COLOURS
from tournament.bridges.reading import remembered
from tournament.models import Absence, Board, Event, Result, Round
from tournament.permissions import published_rounds
from tournament.standings import (
    COLOUR_BY_COLOUR,
    CUMULATIVE,
    NOTHING,
    TIEBREAKS,
    WIDEST,
    Bye,
    EventResults,
    Game,
    InvalidEventError,
    InvalidResultError,
    Player,
    ResultKind,
    Standings,
    Tiebreak,
    build_crosstable,
    compute_standings,
    decided_by,
    progressive_readings,
)
from tournament.texts import tiebreak_texts

T = TypeVar("T")



def tiebreak_registry() -> Mapping[str, Tiebreak]:
    """Every tiebreak an event may use, by name, in the order a form offers them."""
    return TIEBREAKS


def reading_notes(event: Event) -> list[str]:
    """How the event's colour tiebreaks read, said for the pages and the printed standings:
    which reading of "progressive" they use, and how an unplayed round counts in them."""
    phrases = {
        COLOUR_BY_COLOUR: _("Progressive, colour by colour: sums over the rounds, lowest "
                            "colour first; if equal, the second-lowest, and so on."),
        CUMULATIVE: _("Progressive, cumulative (the chess reading): the sum of the running "
                      "totals after each round, so early games weigh more; lowest colour "
                      "first; if equal, the second-lowest, and so on."),
    }
    unplayed = {
        WIDEST: _("Unplayed rounds (byes, forfeits, absences, decisions without scores) count "
                  "as a game by their VP: a full point as 18 in every colour against 0, no "
                  "point as 0 against 18, a half point as 0 against 0; so not playing never "
                  "ranks above a played loss, nor a forfeit win below a played win."),
        NOTHING: _("Unplayed rounds (byes, forfeits, absences, decisions without scores) add "
                   "nothing to the colour tiebreaks (the earlier rule, kept for this event): "
                   "not playing can rank above a played loss."),
    }
    try:
        readings = progressive_readings(event.tiebreaks)
    except ValueError:
        return []
    notes = [phrases[r] for r in readings]
    if readings:
        notes.append(unplayed[event.unplayed_colours])
    return notes


def _six(scores: dict | None) -> list[int] | None:
    return None if scores is None else [int(scores[c]) for c in COLOURS]


_RESULT_FIELDS = (
    "kind", "board__round__number", "board__first_id", "board__second_id", "first_vp",
    "second_vp", "first_scores", "second_scores", "loser_seat",
)


def _game(kind, rnd, first, second, first_vp, second_vp, first_scores, second_scores,
          loser_seat) -> Game | Bye:
    """One accepted result row (as values, not model instances: big events load fast)."""
    if kind == Result.Kind.BYE:
        return Bye(rnd, first, ResultKind.BYE, first_vp)
    a, b = _six(first_scores), _six(second_scores)
    if kind == Result.Kind.PLAYED:
        return Game.played(rnd, first, second, a, b)
    loser = first if loser_seat == "first" else second
    if kind == Result.Kind.RESIGNATION:
        return Game.resigned(rnd, first, second, a, b, loser)
    if kind == Result.Kind.FORFEIT:
        return Game.forfeit(rnd, first, second, loser)
    if kind == Result.Kind.DOUBLE_FORFEIT:
        return Game.double_forfeit(rnd, first, second)
    return Game.decision(rnd, first, second, first_vp, second_vp, a, b)


def last_round(event: Event) -> int:
    """The last round standings may count: the last published one (0 before any).

    A draft's bye and absences are not results yet, and nothing of a draft may reach anyone
    but its arbiters (``permissions.published_rounds``): every standings page, export, PDF and
    the projector ask for a round through ``event_results``, which stops here.
    """
    return published_rounds(event).count()


def event_results(event: Event, upto_round: int | None = None) -> EventResults:
    """The event's accepted results of rounds 1..``upto_round`` (all published rounds by
    default; never beyond ``last_round``)."""
    last = last_round(event)
    return _results(event, last if upto_round is None else min(upto_round, last))


def _results(event: Event, upto_round: int) -> EventResults:
    """``event_results`` for a round already bounded by ``last_round`` (``standings`` and
    ``crosstable`` bound it once, then may ask for several rounds): three queries, once
    inside ``reading.one_reading`` (the standings and the pairing's view of the event are
    built from the same rows)."""
    return remembered(("results", event.pk, upto_round), lambda: _read(event, upto_round))


def _read(event: Event, upto_round: int) -> EventResults:
    results = Result.objects.filter(board__round__event=event, status=Result.Status.ACCEPTED,
                                    board__round__number__lte=upto_round)
    absences = Absence.objects.filter(player__event=event, round_number__lte=upto_round)
    games, byes = [], []
    for row in results.values_list(*_RESULT_FIELDS):
        item = _game(*row)
        (byes if isinstance(item, Bye) else games).append(item)
    byes.extend(Bye(a.round_number, a.player_id, ResultKind.ABSENT, a.vp) for a in absences)
    rows = list(event.players.values_list("pk", "name", "club", "rating", "joined_round"))
    byes.extend(_missed_by_late_entries(event, [(row[0], row[4]) for row in rows], upto_round,
                                        {(b.round, b.player) for b in byes}))
    players = [Player(pk, name, club or None, rating) for pk, name, club, rating, _ in rows]
    return EventResults(players=players, games=games, byes=byes)


def _missed_by_late_entries(event: Event, joined: list[tuple[int, int]], upto_round: int,
                            taken: set[tuple[int, object]]) -> list[Bye]:
    """The rounds before a late entry joined, as absences at the event's VP for them (0 VP
    too: the crosstable then reads "abs 0" as its legend says, not an empty cell).
    ``joined``: each player's id and the round they joined."""
    return [Bye(rnd, pk, ResultKind.ABSENT, event.late_entry_vp)
            for pk, first in joined
            for rnd in range(1, min(first, upto_round + 1)) if (rnd, pk) not in taken]


def complete_rounds(event: Event) -> int:
    """The last round whose every board has an accepted result (0 before any)."""
    rounds = published_rounds(event).annotate(
        n_boards=Count("boards", distinct=True),
        n_done=Count("boards__results", filter=Q(boards__results__status="accepted"),
                     distinct=True),
    ).order_by("number")
    done = 0
    for round_ in rounds:
        if round_.n_boards == 0 or round_.n_done < round_.n_boards:
            break
        done = round_.number
    return done


def _last_consistent(compute: Callable[[int], T], after_round: int) -> T:
    """``compute(after_round)``, or for the latest earlier round the core accepts.

    Stored results the core refuses (an old backup, data written before a rule was enforced)
    must not take the public pages down: they show the last consistent standings, whose
    ``rounds`` tells the page to say so, and the arbiter's dashboard lists the problem
    (``inconsistencies``).
    """
    for rounds in range(after_round, 0, -1):
        try:
            return compute(rounds)
        except (InvalidEventError, InvalidResultError):
            continue
    return compute(0)


def _after(event: Event, after_round: int | None) -> int:
    """The round asked for (default: the last with every result in), at most ``last_round``."""
    if after_round is None:
        return complete_rounds(event)
    return min(after_round, last_round(event))


def standings(event: Event, after_round: int | None = None) -> Standings:
    """Standings after ``after_round`` (default: the last round with every result in); asked
    twice for one round inside ``reading.one_reading``, computed once."""
    after_round = _after(event, after_round)
    return remembered(("standings", event.pk, after_round), lambda: _last_consistent(
        lambda r: compute_standings(_results(event, r), event.tiebreaks, after_round=r,
                                    unplayed=event.unplayed_colours),
        after_round,
    ))


def decisions(table: Standings) -> dict[object, tuple[str, str]]:
    """For each row below another with equal VP: the deciding criterion's label and the whole
    sentence (``tiebreak_texts.decision_text``), in the reader's language."""
    names = {row.player_id: row.name for row in table}
    criteria = {tb.key: tb for tb in table.tiebreaks}
    out = {}
    for pid, decision in decided_by(table).items():
        tiebreak = criteria[decision.key]
        out[pid] = (str(tiebreak_texts.text_for(tiebreak).label),
                    tiebreak_texts.decision_text(decision, tiebreak, names[decision.above]))
    return out


def withdrawn(event: Event, after_round: int) -> dict[object, int]:
    """The players withdrawn by the end of ``after_round``, with the round after which they
    left (standings and crosstable mark them: their later rounds are empty, not lost games)."""
    return dict(event.players.filter(withdrawn_after_round__lte=after_round)
                .values_list("pk", "withdrawn_after_round"))


def vp_before(event: Event, round_number: int) -> dict[int, object]:
    """Each player's victory points before round ``round_number``, by player id (pairing
    pages, and the arbiter's round page to check the draw before publishing it)."""
    if round_number == 1:
        return {}
    return {row.player_id: row.vp for row in standings(event, round_number - 1)}


def vp_as_paired(round_: Round) -> dict[int, tuple[Fraction, Fraction]]:
    """Each player's VP before the round as it was paired and as the standings count them
    now, by player id: the two differ when a result of an earlier round was corrected after
    the pairing. The pairing pages and prints show the first (the pairing was made from it,
    ``vp_when_paired``); the arbiter's round page marks where the second differs."""
    now = vp_before(round_.event, round_.number)
    return {pk: (paired, Fraction(now.get(pk, 0)))
            for pk, paired in _when_paired(round_, lambda: now).items()}


def vp_when_paired(round_: Round) -> dict[int, Fraction]:
    """Each player's VP before the round as it was paired, for the pairing pages and prints:
    read from the round's snapshot, so the standings are computed only for a player it lacks
    (an entry after the pairing; a round paired before the snapshot was kept shows the
    standings' value)."""
    return _when_paired(round_, lambda: vp_before(round_.event, round_.number))


def _when_paired(round_: Round, now: Callable[[], dict[int, object]]) -> dict[int, Fraction]:
    """The snapshot's VP by player id, ``now()`` (the standings' VP) for a player it lacks."""
    seeds = dict(round_.event.players.values_list("pk", "seed"))
    kept = round_.paired_on or {}
    current = now() if any(str(seed) not in kept for seed in seeds.values()) else {}
    return {pk: Fraction(kept[str(seed)]) if str(seed) in kept else Fraction(current.get(pk, 0))
            for pk, seed in seeds.items()}


def crosstable(event: Event, after_round: int | None = None):
    """Standings and crosstable rows after ``after_round``."""
    after_round = _after(event, after_round)

    def both(rounds: int):
        results = _results(event, rounds)
        table = compute_standings(results, event.tiebreaks, after_round=rounds,
                                  unplayed=event.unplayed_colours)
        return table, build_crosstable(results, table)

    return _last_consistent(both, after_round)


def inconsistencies(event: Event) -> list[str]:
    """What the standings core cannot accept in the stored results, said with names and rounds.

    The services refuse to create such data; this finds it when it arrived some other way.
    """
    names = dict(event.players.values_list("pk", "name"))
    seen: Counter[tuple[int, int]] = Counter()
    boards = Board.objects.filter(round__event=event).values_list(
        "round__number", "first_id", "second_id")
    for number, first, second in boards:
        seen[(number, first)] += 1
        if second is not None:
            seen[(number, second)] += 1
    for number, player in Absence.objects.filter(player__event=event).values_list(
            "round_number", "player_id"):
        seen[(number, player)] += 1
    problems = [
        _("Round %(n)d: %(name)s has %(count)d results (boards and absences).")
        % {"n": number, "name": names.get(player, player), "count": count}
        for (number, player), count in sorted(seen.items()) if count > 1
    ]
    if not problems:
        try:
            compute_standings(event_results(event), event.tiebreaks,
                              unplayed=event.unplayed_colours)
        except (InvalidEventError, InvalidResultError) as exc:
            problems.append(str(exc))
    return problems
