"""The one bridge between the database and the pairing core.

Turns an event's rows into the core's plain :class:`tournament.pairing.Event` (players with
their round-by-round history in FIDE TRF terms, and their status for the round to pair), and
the core's :class:`RoundPairing` back into boards. Nothing else builds pairing input.
"""

from __future__ import annotations

import random
from decimal import Decimal

from django.utils.translation import gettext as _

from tournament import pairing as core
from tournament.bridges.standings_bridge import complete_rounds
from tournament.models import Absence, Board, Event, Result, Round

_ABSENCE_CODE = {
    Decimal("0"): core.Result.ZERO_BYE,
    Decimal("0.5"): core.Result.HALF_BYE,
    Decimal("1"): core.Result.FULL_BYE,
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
        forfeit_is_meeting=event.forfeit_counts_as_meeting,
    )


def _game_codes(result: Result) -> tuple[core.Result, core.Result]:
    """TRF codes (first player's, second player's) for a board's accepted result."""
    if result.kind == Result.Kind.FORFEIT:
        won = core.Result.FORFEIT_WIN, core.Result.FORFEIT_LOSS
        return won if result.loser_seat == "second" else won[::-1]
    if result.kind == Result.Kind.DOUBLE_FORFEIT or (
        result.kind == Result.Kind.DECISION and not result.first_scores
        and result.first_vp == result.second_vp == 0
    ):
        return core.Result.FORFEIT_LOSS, core.Result.FORFEIT_LOSS
    if result.first_vp > result.second_vp:
        return core.Result.WIN, core.Result.LOSS
    if result.first_vp < result.second_vp:
        return core.Result.LOSS, core.Result.WIN
    return core.Result.DRAW, core.Result.DRAW


def build_event(event: Event, upto_round: int, next_round: int | None = None) -> core.Event:
    """The core's view of rounds 1..``upto_round``, with statuses for ``next_round``.

    Every board of those rounds must have an accepted result (the caller checks).
    """
    players = list(event.players.order_by("seed"))
    seed = {p.pk: p.seed for p in players}
    history: dict[int, dict[int, core.RoundRecord]] = {p.seed: {} for p in players}
    accepted = {
        r.board_id: r for r in Result.objects.filter(
            board__round__event=event, board__round__number__lte=upto_round,
            status=Result.Status.ACCEPTED,
        )
    }
    boards = Board.objects.filter(round__event=event, round__number__lte=upto_round)
    for board in boards.select_related("round"):
        rnd = board.round.number
        a = seed[board.first_id]
        if board.is_bye:
            history[a][rnd] = core.RoundRecord(core.Result.PAIRING_BYE)
            continue
        b = seed[board.second_id]
        result = accepted.get(board.pk)
        if result is None:
            raise IncompleteRound(_("round %(r)d, board %(b)d has no result")
                                  % {"r": rnd, "b": board.number})
        code_a, code_b = _game_codes(result)
        history[a][rnd] = core.RoundRecord(code_a, b, True)
        history[b][rnd] = core.RoundRecord(code_b, a, False)
    absences = {
        (a.player_id, a.round_number): a.vp
        for a in Absence.objects.filter(player__event=event)
    }
    core_players = []
    for p in players:
        records = tuple(
            history[p.seed].get(r)
            or core.RoundRecord(_ABSENCE_CODE[absences.get((p.pk, r), Decimal("0"))])
            for r in range(1, upto_round + 1)
        )
        status = core.Status.PLAYING
        if next_round is not None:
            if not p.is_active_in(next_round):
                status = (core.Status.WITHDRAWN if p.withdrawn_after_round is not None
                          else core.Status.ABSENT)
            elif (p.pk, next_round) in absences:
                status = _ABSENCE_STATUS[absences[(p.pk, next_round)]]
        core_players.append(core.Player(
            number=p.seed, name=p.name[:60], rating=p.rating, history=records, status=status,
            joined_round=min(p.joined_round, upto_round + 1),
        ))
    return core.Event(settings_for(event), tuple(core_players), name=event.name)


def pair_round(event: Event, number: int) -> core.RoundPairing:
    """The core's pairing of round ``number`` (Swiss or the Berger table)."""
    if event.pairing_system == Event.PairingSystem.ROUND_ROBIN:
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
    return core.pair_swiss(build_event(event, number - 1, number))


def round_pairing(round_: Round) -> core.RoundPairing:
    """A stored round as the core's pairing (for the validator)."""
    boards, bye = [], None
    for board in round_.boards.select_related("first", "second").order_by("number"):
        if board.is_bye:
            bye = board.first.seed
        else:
            boards.append(core.Board(board.first.seed, board.second.seed))
    return core.RoundPairing(round_.number, tuple(boards), bye)


def warnings_for(round_: Round) -> list[core.PairingWarning]:
    event = round_.event
    return core.validate_pairing(build_event(event, round_.number - 1, round_.number),
                                 round_pairing(round_))


def export_trf(event: Event) -> str:
    """The event as TRF-16: every round whose results are all in."""
    done = complete_rounds(event)
    nxt = done + 1 if done < event.rounds_planned else None
    return core.export_trf(build_event(event, done, nxt))
