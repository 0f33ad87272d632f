"""What a self-running online event does next: the decision, without the database.

The runner (``autopilot.runner``) reads the event into a :class:`Snapshot` and performs the one
step this module names, then asks again, until the answer is to wait. Every step is a function
of what is stored (the rounds, their results, the clocks' start), so a server restarted at any
moment asks the same question and gets the step it had not finished yet, never one it did: a
round is paired only when the round before it is closed and the round itself does not exist, it
is dealt only while a board has no game, its clocks start only while they have not.

Times are the server's milliseconds (``clocks.services.now_ms``), passed in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

MINUTE_MS = 60_000


class Schedule(StrEnum):
    """How later rounds are timed: ``FIXED`` every ``minutes`` after round 1's start (round n
    at ``first + (n-1) * minutes``); ``AFTER`` ``minutes`` after the previous round ends."""

    FIXED = "fixed"
    AFTER = "after"


class Kind(StrEnum):
    WAIT = "wait"          # nothing is due before ``at_ms`` (None: until something changes)
    PAIR = "pair"          # pair round ``round``
    PUBLISH = "publish"    # publish its draft
    DEAL = "deal"          # deal its online games
    START = "start"        # start its clocks
    FORFEIT = "forfeit"    # record the no-shows whose waiting time is over
    CLOSE = "close"        # close it: every board has a result
    FINISH = "finish"      # the last round is closed: final standings
    BLOCKED = "blocked"    # only the arbiter can go on (``why``: "disputes", "draft")


@dataclass(frozen=True)
class Plan:
    """What the organiser set: round 1's start, the schedule, the rounds to play."""

    first_round_ms: int
    schedule: Schedule
    minutes: int
    rounds: int

    def __post_init__(self) -> None:
        if self.minutes < 0 or self.rounds < 1:
            raise ValueError("minutes must be 0 or more and rounds at least 1")


@dataclass(frozen=True)
class RoundState:
    """The event's latest round as stored.

    ``status``: "drafted", "published" or "closed"; ``dealt``: every game has its online game;
    ``started``: every game's clock has started; ``unfinished``: boards without a result;
    ``disputes``: results in conflict; ``no_show_at_ms``: the earliest moment at which a game
    with an absent player may be forfeited (None: no such game); ``ended_ms``: when the round
    ended (its last result, or its closing), for the ``AFTER`` schedule; ``by_hand``: a draft
    the arbiter paired, not the automation (theirs to check and publish)."""

    number: int
    status: str
    dealt: bool = False
    started: bool = False
    unfinished: int = 0
    disputes: int = 0
    no_show_at_ms: int | None = None
    ended_ms: int | None = None
    by_hand: bool = False


@dataclass(frozen=True)
class Step:
    kind: Kind
    round: int | None = None
    at_ms: int | None = None
    why: str = ""


def round_start_ms(plan: Plan, number: int, previous_ended_ms: int | None) -> int:
    """When round ``number`` is due (never before the previous round ended)."""
    if number == 1:
        return plan.first_round_ms
    if plan.schedule is Schedule.FIXED:
        fixed = plan.first_round_ms + (number - 1) * plan.minutes * MINUTE_MS
        return max(fixed, previous_ended_ms or fixed)
    if previous_ended_ms is None:
        raise ValueError("the previous round has not ended")
    return previous_ended_ms + plan.minutes * MINUTE_MS


def next_step(plan: Plan, latest: RoundState | None, now_ms: int, *,
              finished: bool = False) -> Step:
    """The one thing to do now for an event whose latest round is ``latest`` (None: no round
    yet), or until when there is nothing to do."""
    if finished:
        return Step(Kind.WAIT)
    if latest is None:
        if now_ms < plan.first_round_ms:
            return Step(Kind.WAIT, 1, at_ms=plan.first_round_ms)
        return Step(Kind.PAIR, 1)
    number = latest.number
    if latest.status == "drafted":
        if latest.by_hand:
            return Step(Kind.BLOCKED, number, why="draft")
        return Step(Kind.PUBLISH, number)
    if latest.status == "published":
        if not latest.dealt:
            return Step(Kind.DEAL, number)
        if not latest.started:
            return Step(Kind.START, number)
        if latest.unfinished:
            if latest.no_show_at_ms is not None:
                if latest.no_show_at_ms <= now_ms:
                    return Step(Kind.FORFEIT, number)
                return Step(Kind.WAIT, number, at_ms=latest.no_show_at_ms)
            return Step(Kind.WAIT, number)
        if latest.disputes:
            return Step(Kind.BLOCKED, number, why="disputes")
        return Step(Kind.CLOSE, number)
    if number >= plan.rounds:
        return Step(Kind.FINISH, number)
    due = round_start_ms(plan, number + 1, latest.ended_ms)
    if now_ms < due:
        return Step(Kind.WAIT, number + 1, at_ms=due)
    return Step(Kind.PAIR, number + 1)


def withdrawn_for_misses(missed: Mapping[int, int], limit: int,
                         already: frozenset[int] = frozenset()) -> list[int]:
    """The players (by id) whose missed games reach ``limit`` (0: never withdraw), in order,
    leaving out those ``already`` withdrawn."""
    if limit <= 0:
        return []
    return sorted(p for p, count in missed.items() if count >= limit and p not in already)
