"""The one bridge between the database and the pairing core.

Turns an event's rows into the core's plain :class:`tournament.pairing.Event` (players with
their round-by-round history in FIDE TRF terms, and their status for the round to pair), and
the core's :class:`RoundPairing` back into boards. Nothing else builds pairing input.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from importlib import metadata

from django.conf import settings
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

from tournament import pairing as core
from tournament.bridges import standings_bridge
from tournament.bridges.reading import one_reading, remembered
from tournament.bridges.standings_bridge import complete_rounds, event_results
from tournament.models import Absence, Board, Event, Result, Round
from tournament.pairing.engines import bbpairings_reads
from tournament.standings import Game, InvalidEventError, InvalidResultError, ResultKind

_ABSENCE_CODE = {
    Fraction(0): core.Result.ZERO_BYE,
    Fraction(1, 2): core.Result.HALF_BYE,
    Fraction(1): core.Result.FULL_BYE,
}
_ABSENCE_STATUS = {
    Decimal("0"): core.Status.ABSENT,
    Decimal("0.5"): core.Status.HALF_BYE,
    Decimal("1"): core.Status.FULL_BYE,
}


class IncompleteRound(ValueError):
    """A round before the one asked about still lacks results: nothing sound to build on."""


def settings_for(event: Event) -> core.Settings:
    """The event's scoring and first-move rule (a lot uses the seed drawn at round 1)."""
    first_move = event.first_mover
    if first_move == Event.FirstMover.LOT:
        first_move = core.Settings.first_move_by_lot(random.Random(event.lot_seed or 0))
    return core.Settings(
        rounds=event.rounds_planned, first_move=first_move, bye=float(event.bye_vp),
        forfeit_is_meeting=event.forfeit_counts_as_meeting, edition=event.pairing_edition,
    )


#: A played game's code for the VP the player scored: an arbiter's ½–0 is a draw and a loss,
#: so the codes score the true points and no engine needs a (negative) ``XXA`` correction,
#: which bbpPairings cannot read.
_PLAYED_CODE = {Fraction(1): core.Result.WIN, Fraction(1, 2): core.Result.DRAW,
                Fraction(0): core.Result.LOSS}


def _game_codes(game: Game) -> tuple[core.Result, core.Result]:
    """TRF codes (first player's, second player's) for a game the standings count."""
    if game.kind == ResultKind.FORFEIT:
        won = core.Result.FORFEIT_WIN, core.Result.FORFEIT_LOSS
        return won if game.first_vp > game.second_vp else won[::-1]
    if game.kind == ResultKind.DOUBLE_FORFEIT or (
        game.kind == ResultKind.DECISION and game.first_scores is None
        and game.first_vp == game.second_vp == 0
    ):
        return core.Result.FORFEIT_LOSS, core.Result.FORFEIT_LOSS
    return _PLAYED_CODE[game.first_vp], _PLAYED_CODE[game.second_vp]


def _record(code: core.Result, vp: Fraction, opponent: int = 0,
            first: bool | None = None) -> core.RoundRecord:
    """A round as the pairing sees it, worth exactly the VP the standings count for it."""
    return core.RoundRecord(code, opponent, first, tenths=int(vp * 10))


def _check_complete(event: Event, upto_round: int, assumed: Collection[int] = ()) -> None:
    """Refuse a round with a board that has no accepted result: nothing sound to pair on
    (but the boards whose result is ``assumed``)."""
    missing = (
        Board.objects.filter(round__event=event, round__number__lte=upto_round)
        .exclude(results__status=Result.Status.ACCEPTED).exclude(pk__in=list(assumed))
        .select_related("round").order_by("round__number", "number").first()
    )
    if missing is not None:
        raise IncompleteRound(_("round %(r)d, board %(b)d has no result")
                              % {"r": missing.round.number, "b": missing.number})


def build_event(event: Event, upto_round: int, next_round: int | None = None, *,
                assumed: Mapping[int, Game] | None = None,
                withdrawn: Collection[int] = (),
                numbers: Mapping[int, int] | None = None) -> core.Event:
    """The core's view of rounds 1..``upto_round``, with statuses for ``next_round``.

    The rounds come from the very input the standings are computed from
    (``standings_bridge.event_results``), so every player's score for pairing, the TRF's
    points column and the standings' VP are one number per round: a late entry's missed
    rounds, an arbiter's ½–0 and a bye worth what it was worth when given included.

    ``assumed`` (board id: its game), ``withdrawn`` (player ids) and ``numbers`` (player id:
    pairing number, as round 1 will settle them) describe the event as it will be once those
    boards have their results, those players are withdrawn and the numbers settled: the
    input a pairing asked ahead of time is built from (``autopilot.pair_ahead``).

    Inside ``reading.one_reading`` the event as it stands is built once for each pair of
    rounds (a draft's page asks three times: warnings, check, TRF).
    """
    if assumed is None and not withdrawn and numbers is None:
        return remembered(("pairing", event.pk, upto_round, next_round),
                          lambda: _build(event, upto_round, next_round, {}, (), None))
    return _build(event, upto_round, next_round, assumed or {}, withdrawn, numbers)


def _build(event: Event, upto_round: int, next_round: int | None,
           assumed: Mapping[int, Game], withdrawn: Collection[int],
           numbers: Mapping[int, int] | None) -> core.Event:
    _check_complete(event, upto_round, assumed)
    players = list(event.players.order_by("seed"))
    seed = dict(numbers) if numbers is not None else {p.pk: p.seed for p in players}
    players.sort(key=lambda p: seed[p.pk])
    try:
        results = event_results(event, upto_round)
    except (InvalidEventError, InvalidResultError) as exc:
        raise core.InvalidEvent(str(exc)) from None
    results = replace(results, games=[*results.games, *assumed.values()])
    history: dict[int, dict[int, core.RoundRecord]] = {seed[p.pk]: {} for p in players}
    for game in results.games:
        a, b = seed[game.first], seed[game.second]
        code_a, code_b = _game_codes(game)
        history[a][game.round] = _record(code_a, game.first_vp, b, True)
        history[b][game.round] = _record(code_b, game.second_vp, a, False)
    for bye in results.byes:
        code = (core.Result.PAIRING_BYE if bye.kind == ResultKind.BYE
                else _ABSENCE_CODE.get(bye.vp, core.Result.ZERO_BYE))
        history[seed[bye.player]][bye.round] = _record(code, bye.vp)
    next_absences = dict(
        Absence.objects.filter(player__event=event, round_number=next_round)
        .values_list("player_id", "vp")
    ) if next_round is not None else {}
    core_players = []
    for p in players:
        records = tuple(
            history[seed[p.pk]].get(r) or core.RoundRecord(core.Result.ZERO_BYE)
            for r in range(1, upto_round + 1)
        )
        status = core.Status.PLAYING
        if next_round is not None:
            if p.pk in withdrawn:
                status = core.Status.WITHDRAWN
            elif not p.is_active_in(next_round):
                status = (core.Status.WITHDRAWN if p.withdrawn_after_round is not None
                          else core.Status.ABSENT)
            elif p.pk in next_absences:
                status = _ABSENCE_STATUS[next_absences[p.pk]]
        core_players.append(core.Player(
            number=seed[p.pk], name=p.name[:60], rating=p.rating, history=records,
            status=status,
            joined_round=min(p.joined_round, upto_round + 1),
        ))
    return core.Event(settings_for(event), tuple(core_players), name=event.name)


@dataclass(frozen=True)
class Paired:
    """A round's pairing and what made it (``Round.paired_by``: :func:`paired_by_text`)."""

    pairing: core.RoundPairing
    by: str = ""


def pair_round(event: Event, number: int, *, assumed: Mapping[int, Game] | None = None,
               withdrawn: Collection[int] = (), numbers: Mapping[int, int] | None = None
               ) -> Paired:
    """The core's pairing of round ``number`` (Swiss or the Berger table).

    A Swiss round is paired by the event's edition of the FIDE (Dutch) System. When its
    engine is not installed (bbpPairings not built: no compiler where ``make setup`` ran) the
    round is paired by the 2017 edition, and ``by`` says so: the round page, the history and
    the dashboard show it, never a quiet change of rules. So is a round bbpPairings would read
    on other points than the standings' (``bbpairings_reads``: a bye worth more now than when
    it was given needs a negative correction, which it cannot read). ``assumed``,
    ``withdrawn`` and ``numbers``: as for :func:`build_event`.
    """
    if event.pairing_system != Event.PairingSystem.ROUND_ROBIN:
        built = build_event(event, number - 1, number, assumed=assumed, withdrawn=withdrawn,
                            numbers=numbers)
        edition, why = edition_for(built)
        built = replace(built, settings=replace(built.settings, edition=edition))
        engine = core.engine_for(edition)
        by = f"{engine.name}:{edition}" + (f":{why}" if why else "")
        return Paired(core.pair_swiss(built, engine), by)
    return Paired(_berger_round(event, number))


def edition_for(built: core.Event) -> tuple[str, str]:
    """The edition the next round of ``built`` is paired by, and why it is not the event's
    own ('' when it is): ``missing`` (bbpPairings is not installed here) or ``unreadable``
    (bbpPairings would read other points than the standings'). The pairing and the TRF
    download both ask here, so the file's ``192`` line names the rules that paired it."""
    edition = built.settings.edition
    try:
        engine = core.engine_for(edition)
    except core.EngineMissing:
        return "2017", "missing"
    if engine.name == "bbpairings" and bbpairings_reads(built):
        return "2017", "unreadable"
    return edition, ""


def engine_missing(event: Event) -> str:
    """Why the event's Swiss rounds cannot be paired by its edition here ('' when they can):
    the dashboard says it before a round is paired by the 2017 edition instead."""
    if event.pairing_system == Event.PairingSystem.ROUND_ROBIN:
        return ""
    try:
        core.engine_for(event.pairing_edition)
    except core.EngineMissing as exc:
        return str(exc)
    return ""


def engine_version(name: str) -> str:
    """The version of a pairing engine as the round page names it: the vendored
    bbpPairings' commit, py4swiss' release."""
    if name == "bbpairings":
        commit = settings.BASE_DIR / "vendor" / "bbpPairings" / "COMMIT"
        return commit.read_text(encoding="utf-8").strip()[:12] if commit.exists() else ""
    if name == "dutch":
        return metadata.version("py4swiss")
    return ""


def paired_by_text(by: str) -> str:
    """``Round.paired_by`` in words: the engine, its version and the edition."""
    if not by:
        return ""
    name, _sep, rest = by.partition(":")
    edition, _sep, missing = rest.partition(":")
    engine = f"{core.ENGINE_LABELS.get(name, name)} {engine_version(name)}".strip()
    text = _("Paired by %(engine)s, FIDE (Dutch) System %(edition)s.") % {
        "engine": engine, "edition": edition}
    if missing == "missing":
        text += " " + _("The event is set to the 2025 edition, but its engine (bbpPairings) is "
                        "not installed on this server: run make setup with make and g++ (see "
                        "the README).")
    elif missing == "unreadable":
        text += " " + _("The event is set to the 2025 edition, but bbpPairings cannot read it "
                        "as the standings count it (a pairing bye given at less than a bye is "
                        "worth now): the 2017 edition paired it on the true points.")
    return text


def other_rules_text(by: str) -> str:
    """``Round.paired_by`` in words when the round was paired by other rules than the event
    is set to ('' when by its own): the dashboard keeps it in view while it is the latest."""
    return paired_by_text(by) if by.count(":") == 2 else ""


def _berger_round(event: Event, number: int) -> core.RoundPairing:
    """Round ``number`` of the Berger table for the event's players."""
    n = event.players.count()
    if number > n - 1 + n % 2:
        raise core.InvalidEvent(f"a round robin of {n} players has {n - 1 + n % 2} rounds")
    pairing = core.berger_schedule(n)[number - 1]
    if settings_for(event).first_move == "second":
        pairing = core.RoundPairing(
            pairing.round, tuple(core.Board(b.second, b.first) for b in pairing.boards),
            pairing.bye,
        )
    return pairing


def round_pairing(round_: Round) -> core.RoundPairing:
    """A stored round as the core's pairing (for the validator)."""
    boards, bye = [], None
    for board in round_.boards.select_related("first", "second").order_by("number"):
        if board.is_bye:
            bye = board.first.seed
        else:
            boards.append(core.Board(board.first.seed, board.second.seed))
    return core.RoundPairing(round_.number, tuple(boards), bye)


def review(round_: Round) -> tuple[list[core.PairingWarning], list[tuple[int, int, int, int]]]:
    """What the round page says about a stored draw, from one reading of the event: the rules
    it breaks (:func:`core.validate_pairing`) and its boards whose players met before only in
    a forfeit (:func:`core.forfeit_rematches`, asked only when the event has a forfeit)."""
    built = build_event(round_.event, round_.number - 1, round_.number)
    pairing = round_pairing(round_)
    forfeits = (core.forfeit_rematches(built, pairing) if Result.objects.filter(
        board__round__event=round_.event_id, board__round__number__lt=round_.number,
        kind=Result.Kind.FORFEIT).exists() else [])
    return core.validate_pairing(built, pairing), forfeits


def export_trf(event: Event) -> str:
    """The event as TRF-16: every round whose results are all in, ranked as the standings
    after them rank the players (a shared place gives each its first rank). The ranks and the
    rounds come from one reading of the results (``reading.one_reading``)."""
    with one_reading():
        return _trf(event)


def _trf(event: Event) -> str:
    done = complete_rounds(event)
    nxt = done + 1 if done < event.rounds_planned else None
    seeds = dict(event.players.values_list("pk", "seed"))
    ranks = {seeds[row.player_id]: row.rank
             for row in standings_bridge.standings(event, done)}
    built = build_event(event, done, nxt)
    if event.pairing_system != Event.PairingSystem.ROUND_ROBIN:
        edition, _why = edition_for(built)
        built = replace(built, settings=replace(built.settings, edition=edition))
    return core.export_trf(built, ranks=ranks, header=trf_header(event, built.settings.edition))


def trf_header(event: Event, edition: str) -> dict[str, str | list[str]]:
    """The FIDE header lines the event knows: venue, dates, players, type (a Swiss event's
    ``edition``), arbiters (the first named chief), rate of play,
    and the date of every scheduled round."""
    arbiters = [user.get_full_name() or user.get_username()
                for user in event.arbiters.order_by("pk")]
    players = list(event.players.values_list("rating", flat=True))
    swiss = event.pairing_system != Event.PairingSystem.ROUND_ROBIN
    starts = dict(event.rounds.exclude(starts_at=None).values_list("number", "starts_at"))
    return {
        "022": event.venue,
        "042": event.start_date.strftime("%Y/%m/%d") if event.start_date else "",
        "052": event.end_date.strftime("%Y/%m/%d") if event.end_date else "",
        "062": str(len(players)),
        "072": str(sum(1 for rating in players if rating)),
        "092": (f"Swiss, {core.TOURNAMENT_TYPES[edition]}" if swiss
                else "Round robin (Berger tables)"),
        "102": arbiters[0] if arbiters else "",
        "112": ", ".join(arbiters[1:]),
        "122": f"{event.time_control} (seconds per player)",
        "132": [localtime(starts[n]).strftime("%y/%m/%d") if n in starts else ""
                for n in range(1, event.rounds_planned + 1)],
    }
