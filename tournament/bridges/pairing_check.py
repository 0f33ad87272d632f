"""The round page's pairing check: is the stored draw the one an engine makes from the TRF?

Arbiters check a draw by exporting it to a second program by hand. Here the round page does
it: the TRF the arbiter can download for the round (the same writer, the same points) is
given to the engine its ``192`` line names, and its draw is compared with the stored one, board
by board, first move and board numbers included. A hand-edited draw shows each board that
differs (the pairing warnings beside it say which criteria it breaks), and a player it leaves
unpaired. The answer is cached by the TRF and the stored draw, so a page shown again costs no
engine run.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.core.cache import cache
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournament import pairing as core
from tournament.bridges import pairing_bridge
from tournament.models import Event, Round
from tournament.texts.core_messages import pairing_warning_text

CACHE_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Difference:
    """One board where the stored draw and the engine's differ (players by name, number and
    VP), and ``rules``: what is at stake on the stored board (the pairing warnings of its
    players, a wider score difference than the engine's board)."""

    board: int
    ours: str
    engines: str
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class PairingCheck:
    """The check's answer: ``engine`` (its name, version and edition in words), whether
    the draw is ``identical``, the ``differences``; ``unavailable`` says why no check ran."""

    engine: str = ""
    identical: bool = False
    differences: tuple[Difference, ...] = ()
    unavailable: str = ""


def compare(event: core.Event, ours: core.RoundPairing, engines: core.RoundPairing,
            numbers: Sequence[int] = ()) -> tuple[Difference, ...]:
    """Each stored board the engine's draw does not have (beside the engine's boards of its
    two players, with the rules at stake), each engine board with a player the stored draw
    leaves unpaired (and where it puts the other), the bye; board order and board numbers
    (``numbers``: the stored boards' numbers, in order) only when the boards are the same."""
    warnings = core.validate_pairing(event, ours)
    where = {p: (index, board) for index, board in enumerate(engines.boards, start=1)
             for p in (board.first, board.second)}
    seated = {p for board in ours.boards for p in (board.first, board.second)}
    numbered = dict(enumerate(numbers or range(1, len(ours.boards) + 1), start=1))

    def player(number: int) -> str:
        return f"{event.player(number)} {vp_text(event.tenths(number))}"

    def text(board: core.Board) -> str:
        return f"{player(board.first)} – {player(board.second)}"

    def bye(number: int | None) -> str:
        return "—" if number is None else _("bye: %(p)s") % {"p": player(number)}

    def off_the_boards(number: int) -> str:
        """Where the stored draw puts a player it seats at no board."""
        if number == ours.bye:
            return bye(number)
        return _("%(p)s not paired") % {"p": player(number)}

    def gap(board: core.Board) -> int:
        return abs(event.tenths(board.first) - event.tenths(board.second))

    def at_stake(numbers: set[int], board: core.Board | None,
                 theirs: list[core.Board]) -> tuple[str, ...]:
        found = [pairing_warning_text(w) for w in warnings if set(w.players) & numbers]
        if board is not None and theirs and gap(board) > max(map(gap, theirs)):
            found.append(_("a score difference of %(ours)s VP where the engine's board has "
                           "%(theirs)s") % {"ours": vp_number(gap(board)),
                                            "theirs": vp_number(max(map(gap, theirs)))})
        if board is not None and theirs == [core.Board(board.second, board.first)]:
            found.append(_("first move the other way round"))
        return tuple(found)

    found, engine_boards, our_boards = [], set(engines.boards), set(ours.boards)
    for index, board in enumerate(ours.boards, start=1):
        if board in engine_boards:
            continue
        theirs = list(dict.fromkeys(where[p][1] for p in (board.first, board.second)
                                    if p in where))
        said = [text(b) for b in theirs] + [bye(p) for p in (board.first, board.second)
                                             if p == engines.bye]
        found.append(Difference(numbered[index], text(board), "; ".join(said) or "—",
                                at_stake({board.first, board.second}, board, theirs)))
    for index, board in enumerate(engines.boards, start=1):
        away = [p for p in (board.first, board.second) if p not in seated]
        if board not in our_boards and set(away) - {ours.bye}:
            found.append(Difference(index, "; ".join(map(off_the_boards, away)), text(board),
                                    at_stake(set(away), None, [])))
    if ours.bye != engines.bye:
        said = [bye(ours.bye)] + ([off_the_boards(engines.bye)] if engines.bye is not None
                                  and engines.bye not in seated | {ours.bye} else [])
        found.append(Difference(0, "; ".join(said), bye(engines.bye), at_stake(
            {p for p in (ours.bye, engines.bye) if p is not None}, None, [])))
    if not found and ours.boards != engines.boards:
        found = [Difference(numbered[index], text(mine), text(theirs), (_("board order"),))
                 for index, (mine, theirs) in enumerate(zip(ours.boards, engines.boards,
                                                            strict=True), start=1)
                 if mine != theirs]
    if not found:
        found = [Difference(number, text(board), text(board), (
            _("numbered board %(ours)d where the engine's draw has board %(theirs)d")
            % {"ours": number, "theirs": index},))
            for index, (number, board) in enumerate(
                zip(numbered.values(), ours.boards, strict=True), start=1) if number != index]
    return tuple(found)


def vp_number(tenths: int) -> str:
    """VP in tenths as the pages write them: 1½, ½, 2."""
    whole, half = divmod(tenths, 10)
    if half == 5:
        return f"{whole}½" if whole else "½"
    return f"{whole}" if not half else f"{tenths / 10:g}"


def vp_text(tenths: int) -> str:
    return _("(%(vp)s VP)") % {"vp": vp_number(tenths)}


def check_round(round_: Round, *, downloaded: bool = True) -> PairingCheck | None:
    """The check of a Swiss round's draft, before it is published (None for a round robin,
    whose Berger table is exact, and for a published round: its draw was checked before it
    went out, and checking it again would cost a page of every round an engine run).

    The engine is given the round's TRF exactly as the arbiter downloads it (header lines
    and all): a run of its own, not the answer kept from the pairing, and of the engine its
    ``192`` line names (the edition the round is paired by: :func:`pairing_bridge.edition_for`).
    ``downloaded=False`` gives it the file the round was paired from instead, which the
    engine answers from memory: an event that runs itself checks its own draw so, between the
    last game of a round and the next round's clocks, where a second run would keep every
    player waiting (most of a minute at a thousand players); its round page, when opened,
    runs the full check.
    """
    event = round_.event
    if (event.pairing_system == Event.PairingSystem.ROUND_ROBIN
            or round_.status != Round.Status.DRAFTED):
        return None
    try:
        built = pairing_bridge.build_event(event, round_.number - 1, round_.number)
        if downloaded:
            trf = pairing_bridge.export_trf(event)
            edition = core.import_trf(trf).settings.edition
        else:
            edition = (round_.paired_by.split(":")[1] if round_.paired_by
                       else pairing_bridge.edition_for(built)[0])
    except (pairing_bridge.IncompleteRound, core.PairingError) as exc:
        return PairingCheck(unavailable=str(exc))
    built = replace(built, settings=replace(built.settings, edition=edition))
    if not downloaded:
        trf = core.export_trf(built)
    ours = pairing_bridge.round_pairing(round_)
    numbers = list(round_.boards.exclude(second=None).order_by("number")
                   .values_list("number", flat=True))
    key = "pairing-check:" + hashlib.sha256(
        f"{trf}\n{ours.to_text()}\n{numbers}\n{get_language()}".encode()).hexdigest()
    cached = cache.get(key)
    if cached is not None:
        return cached
    try:
        engine = core.engine_for(edition)
    except core.EngineMissing:
        return PairingCheck(unavailable=_(
            "bbpPairings, the engine of the 2025 rules, is not installed on this server."))
    name = core.ENGINE_LABELS.get(engine.name, engine.name)
    label = _("%(engine)s, FIDE (Dutch) System %(edition)s") % {
        "engine": f"{name} {pairing_bridge.engine_version(engine.name)}".strip(),
        "edition": edition}
    try:
        engines = core.pair_swiss(built, engine, trf=trf)
    except core.NoLegalPairing:
        checked = PairingCheck(label, unavailable=_(
            "The engine finds no legal pairing for this round: the draw was made by hand."))
    except core.PairingError as exc:
        return PairingCheck(label, unavailable=str(exc))
    else:
        differences = compare(built, ours, engines, numbers)
        checked = PairingCheck(label, not differences, differences)
    cache.set(key, checked, CACHE_SECONDS)
    return checked
