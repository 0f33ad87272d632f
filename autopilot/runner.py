"""The shell of a self-running event: reads the event into the core's snapshot, performs the
step ``autopilot.core.next_step`` names, writes it in the event's history, and asks again.

It runs where the flag timer runs (``clocks.flagtimer``: inside the one server process, or in
``manage.py run_flag_timer`` beside several workers), so exactly one process drives the events
and nothing waits for a browser. Each step is one transaction that holds the event's
``Autopilot`` row locked: a second process that ticks by mistake waits, then reads the step as
done. A restart loses nothing: the next tick reads the same stored state and goes on from it.

A step the services refuse (no legal pairing, a failed pairing check) pauses the automation
with the refusal as its reason, for the arbiter; an open dispute holds it until the arbiter
settles it. Neither is ever resolved here.
"""

from __future__ import annotations

import datetime
import logging
from collections import Counter

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from autopilot import core, pair_ahead
from autopilot.models import Autopilot
from clocks import services as clock_services
from clocks.models import Clock
from games import news
from games.models import OnlineGame
from games.online import no_show
from games.online import play as online
from tournament import services
from tournament.bridges import pairing_check
from tournament.models import Event, HistoryEntry, Player, Result, Round
from tournament.services import ServiceError
from tournament.services.history import log_change

log = logging.getLogger(__name__)

#: Who the clocks' log and the results name for what the automation did.
WHO = "automatic"
#: Steps in one tick at most: a round's end to the next round's running clocks is five.
MAX_STEPS = 12
#: The flag timer may tick every few milliseconds near a flag; the events are read at most
#: this often (ms).
EVERY_MS = 1000

_last_tick = {"ms": None}


def ms(moment: datetime.datetime) -> int:
    return int(moment.timestamp() * 1000)


def moment(value: int) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(value / 1000, tz=datetime.UTC)


def tick() -> None:
    """The flag timer's listener: advance every running event (at most once a second)."""
    now = clock_services.now_ms()
    last = _last_tick["ms"]
    if last is not None and 0 <= now - last < EVERY_MS:
        return
    _last_tick["ms"] = now
    for pilot_id in running_ids():
        try:
            advance(pilot_id)
        except Exception:  # one event's fault must not stop the others, nor the flag timer
            log.exception("autopilot: event %s failed", pilot_id)


def running_ids() -> list[int]:
    return list(Autopilot.objects.filter(running=True, finished_at__isnull=True)
                .values_list("pk", flat=True))


def advance(pilot_id: int) -> list[core.Step]:
    """Perform the event's due steps one transaction each, until one says to wait; then,
    while one game of the round is left, have the next round paired ahead of time
    (``autopilot.pair_ahead``)."""
    done = []
    for _i in range(MAX_STEPS):
        step, acted = step_once(pilot_id)
        if not acted:
            break
        done.append(step)
    if pair_ahead.enabled():
        _pair_ahead(pilot_id)
    return done


def _pair_ahead(pilot_id: int) -> None:
    """Ask the next round's pairing ahead: while the round's last game is played (for each
    of its outcomes), during the break after a closed round, or before round 1 once
    registration has closed."""
    pilot = Autopilot.objects.select_related("event").get(pk=pilot_id)
    event = pilot.event
    if not pilot.running or pilot.finished_at is not None \
            or event.pairing_system == Event.PairingSystem.ROUND_ROBIN:  # no engine
        return
    latest = event.rounds.order_by("-number").first()
    now = clock_services.now_ms()
    if latest is None:  # round 1, once nobody can register any more
        closes = pilot.registration_closes_at if pilot.registration else None
        if (closes is None or ms(closes) <= now) and now < ms(pilot.first_round_at):
            pair_ahead.ask(event, 1)
        return
    if latest.number >= plan_of(pilot).rounds:
        return
    if latest.status == Round.Status.CLOSED:
        pair_ahead.ask(event, latest.number + 1)
    elif (board := pair_ahead.last_game(latest)) is not None:
        pair_ahead.ask(event, latest.number + 1, board=board, withdrawn=lambda: frozenset(
            withdrawn_at_close(pilot, latest.number)))


def plan_of(pilot: Autopilot) -> core.Plan:
    return core.Plan(first_round_ms=ms(pilot.first_round_at),
                     schedule=core.Schedule(pilot.schedule), minutes=pilot.minutes,
                     rounds=services.format.planned_rounds(pilot.event))


def _absent_games(round_: Round) -> list[OnlineGame]:
    """The round's games still going in which a seat has not appeared (usually none)."""
    return list(OnlineGame.objects.filter(board__round=round_, record__isnull=True, no_show="")
                .filter(Q(seen_a__isnull=True) | Q(seen_b__isnull=True))
                .exclude(board__results__status=Result.Status.ACCEPTED)
                .select_related("board__round__event", "board__first", "board__second"))


def _no_show_due(round_: Round, now: int) -> tuple[int | None, list[OnlineGame]]:
    """The earliest moment a no-show of the round may be recorded, and the games due now
    (``games.online.no_show``'s rule; its claim checks each again). The clocks are read in one
    query: at the start of a round every game has an absent seat."""
    minutes = round_.event.no_show_minutes
    games = [g for g in _absent_games(round_) if no_show.absent(g, g.moves)]
    states = dict(Clock.objects.filter(board_id__in=[g.board_id for g in games])
                  .values_list("board_id", "state"))
    earliest, due = None, []
    for game in games:
        state = states.get(game.board_id) or {}
        if state.get("started_at_ms") is None or state.get("paused") or state.get("finished"):
            continue
        at = no_show.claim_from_ms({"started_at_ms": state["started_at_ms"]}, minutes)
        earliest = at if earliest is None else min(earliest, at)
        if at <= now:
            due.append(game)
    return earliest, due


def ended_ms(pilot: Autopilot, round_: Round) -> int | None:
    """When a closed round ended: as the automation found it, or the arbiter's closing."""
    if pilot.ended_round == round_.number:
        return pilot.ended_ms
    return ms(round_.closed_at) if round_.closed_at else None


def paired_automatically(event: Event, number: int) -> bool:
    """Whether the automation paired round ``number`` (its "paired" step in the history): a
    draft the arbiter paired by hand is theirs to check and publish, never published here."""
    return HistoryEntry.objects.filter(
        event=event, action=HistoryEntry.Action.AUTOMATIC, details__step="paired",
        details__round=number).exists()


def state_of(pilot: Autopilot, now: int) -> core.RoundState | None:
    latest = pilot.event.rounds.order_by("-number").first()
    if latest is None:
        return None
    ended = None
    if latest.status == Round.Status.CLOSED:
        ended = ended_ms(pilot, latest)
        ended = now if ended is None else ended
    if latest.status == Round.Status.DRAFTED:
        return core.RoundState(latest.number, latest.status,
                               by_hand=not paired_automatically(pilot.event, latest.number))
    if latest.status != Round.Status.PUBLISHED:
        return core.RoundState(latest.number, latest.status, ended_ms=ended)
    games = online.boards_to_play(latest)
    dealt = online.is_online(latest) and not games.filter(online_game__isnull=True).exists()
    started = dealt and not games.filter(
        Q(clock__isnull=True) | Q(clock__state__started_at_ms=None)).exists()
    # one count, not the boards: the tick runs every second beside the round's moves
    unfinished = latest.boards.exclude(results__status=Result.Status.ACCEPTED).count()
    at = _no_show_due(latest, now)[0] if started and unfinished else None
    return core.RoundState(
        latest.number, latest.status, dealt=dealt, started=started, unfinished=unfinished,
        disputes=Result.objects.filter(board__round=latest, status=Result.Status.CONFLICT)
        .count(), no_show_at_ms=at)


def step_once(pilot_id: int) -> tuple[core.Step, bool]:
    """Decide and perform one step; whether it changed anything."""
    with transaction.atomic():
        pilot = Autopilot.objects.select_for_update().select_related("event").get(pk=pilot_id)
        if not pilot.running or pilot.finished_at is not None:
            return core.Step(core.Kind.WAIT), False
        now = clock_services.now_ms()
        step = core.next_step(plan_of(pilot), state_of(pilot, now), now)
        if step.kind in (core.Kind.WAIT, core.Kind.BLOCKED):
            _hold(pilot, step)
            return step, False
        try:
            with transaction.atomic():
                acted = PERFORM[step.kind](pilot, step, now)
        except (ServiceError, online.OnlineRefused, clock_services.ClockRefused) as refusal:
            pause(pilot, reason=_("Round %(n)d: %(why)s") % {"n": step.round, "why": refusal},
                  by=WHO)
            return step, False
        if acted:  # the players' open pages follow the event (games.news)
            news.changed(pilot.event_id)
        if pilot.waiting_for:
            pilot.waiting_for = ""
            pilot.save(update_fields=["waiting_for"])
        return step, acted


def _hold(pilot: Autopilot, step: core.Step) -> None:
    """Show why the automation waits for the arbiter (once, in the history too)."""
    why = ""
    if step.kind is core.Kind.BLOCKED and step.why == "draft":
        why = _("Round %(n)d was paired by hand: publish it on the round's page and the event "
                "goes on by itself.") % {"n": step.round}
    elif step.kind is core.Kind.BLOCKED:
        why = _("Round %(n)d has an open dispute: the next round waits until you settle it.") \
            % {"n": step.round}
    if why != pilot.waiting_for:
        pilot.waiting_for = why
        pilot.save(update_fields=["waiting_for"])
        if why:
            _log(pilot, "waiting", round=step.round, why=step.why)


def _log(pilot: Autopilot, step: str, **details) -> None:
    log_change(pilot.event, HistoryEntry.Action.AUTOMATIC, {"step": step, **details})


def _round(pilot: Autopilot, number: int) -> Round:
    return Round.objects.select_related("event").get(event=pilot.event, number=number)


def _pair(pilot: Autopilot, step: core.Step, now: int) -> bool:
    event = pilot.event
    if event.rounds.filter(number=step.round).exists():
        return False
    round_ = services.pair_next_round(event)
    pair_ahead.stop(event)
    round_.starts_at = moment(now)
    round_.save(update_fields=["starts_at"])
    check = pairing_check.check_round(round_, downloaded=False)
    details = {"round": round_.number, "boards": round_.boards.filter(
        second__isnull=False).count()}
    if check is not None and check.unavailable:
        details["check"] = check.unavailable
    _log(pilot, "paired", **details)
    if check is not None and not check.unavailable and not check.identical:
        pause(pilot, by=WHO, reason=_(
            "The pairing check of round %(n)d found %(count)d differing boards: the draft "
            "waits on the round's page.") % {"n": round_.number,
                                            "count": len(check.differences)})
    return True


def _publish(pilot: Autopilot, step: core.Step, now: int) -> bool:
    round_ = _round(pilot, step.round)
    services.publish_round(round_)  # an online event's round is dealt as it is published
    _log(pilot, "published", round=step.round)
    return True


def _deal(pilot: Autopilot, step: core.Step, now: int) -> bool:
    games = online.mark_online(_round(pilot, step.round))
    _log(pilot, "dealt", round=step.round, games=len(games))
    return True


def _start(pilot: Autopilot, step: core.Step, now: int) -> bool:
    count = online.start_round(_round(pilot, step.round), who=WHO)
    _log(pilot, "started", round=step.round, clocks=count)
    return True


def _forfeit(pilot: Autopilot, step: core.Step, now: int) -> bool:
    round_ = _round(pilot, step.round)
    recorded = []
    for game in _no_show_due(round_, now)[1]:
        try:
            online.claim_no_show(game, seat=None, by=WHO)
        except online.OnlineRefused as refusal:
            log.info("autopilot: board %s: %s", game.board.number, refusal)
            continue
        game.refresh_from_db(fields=["no_show"])
        board = game.board
        recorded.append({"board": board.number, "names": [
            (board.first if seat == "A" else board.second).name for seat in game.no_show]})
    if recorded:
        _log(pilot, "forfeited", round=step.round, games=recorded)
    return bool(recorded)


def missed_games(event: Event, number: int) -> Counter:
    """Per player id who missed a game of round ``number``, the games they lost for not
    appearing so far. Only they can reach the limit now: a player the arbiter reinstated is
    withdrawn again only after another missed game, not for the old ones."""
    missed: Counter = Counter()
    now: set[int] = set()
    for first, second, seats, played_in in OnlineGame.objects.filter(
            board__round__event=event, board__round__number__lte=number).exclude(no_show="") \
            .values_list("board__first", "board__second", "no_show", "board__round__number"):
        for seat in seats:
            player = first if seat == "A" else second
            missed[player] += 1
            if played_in == number:
                now.add(player)
    return Counter({player: count for player, count in missed.items() if player in now})


def withdrawn_at_close(pilot: Autopilot, number: int) -> list[int]:
    """The players (ids) the closing of round ``number`` withdraws for missed games."""
    event = pilot.event
    return core.withdrawn_for_misses(
        missed_games(event, number), pilot.missed_games_limit,
        frozenset(event.players.filter(withdrawn_after_round__isnull=False)
                  .values_list("pk", flat=True)))


def _close(pilot: Autopilot, step: core.Step, now: int) -> bool:
    services.close_round(_round(pilot, step.round))
    pilot.ended_round, pilot.ended_ms = step.round, now
    pilot.save(update_fields=["ended_round", "ended_ms"])
    gone = withdrawn_at_close(pilot, step.round)
    names = []
    for player in Player.objects.filter(pk__in=gone).order_by("seed"):
        services.withdraw_player(player, reason=_("%(count)d missed games") % {
            "count": pilot.missed_games_limit})
        names.append(player.name)
    _log(pilot, "closed", round=step.round, withdrawn=names,
         limit=pilot.missed_games_limit)
    return True


def _finish(pilot: Autopilot, step: core.Step, now: int) -> bool:
    event = pilot.event
    pilot.finished_at = timezone.now()
    pilot.save(update_fields=["finished_at"])
    if not event.publish_standings:
        Event.objects.filter(pk=event.pk).update(publish_standings=True)
    _log(pilot, "finished", round=step.round)
    return True


PERFORM = {
    core.Kind.PAIR: _pair, core.Kind.PUBLISH: _publish, core.Kind.DEAL: _deal,
    core.Kind.START: _start, core.Kind.FORFEIT: _forfeit, core.Kind.CLOSE: _close,
    core.Kind.FINISH: _finish,
}


def pause(pilot: Autopilot, *, reason: str, by: str) -> None:
    """Stop the automation until the arbiter resumes it; the reason goes in the history."""
    Autopilot.objects.filter(pk=pilot.pk).update(
        running=False, paused_at=timezone.now(), paused_by=by[:150], paused_reason=reason[:300])
    pilot.running = False
    _log(pilot, "paused", by=by, reason=reason[:200])
    news.changed(pilot.event_id)
