"""What the event app's pages show of a self-running event (``tournament.boards.links``): each
player's next round and its start, and the way in for a new player."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from autopilot import core, runner
from autopilot import services as autopilot
from autopilot.models import Autopilot
from clocks import services as clock_services
from tournament import services
from tournament.boards.links import Link, PlayerSchedule
from tournament.models import Absence, Player, Round


def next_start(pilot: Autopilot, latest: Round | None, number: int) -> tuple[int | None, str]:
    """When round ``number`` (the next one to pair) starts, in server ms (None: not known
    yet), and in words when it is not known."""
    plan = runner.plan_of(pilot)
    if number == 1:
        return plan.first_round_ms, ""
    if latest is not None and latest.status == Round.Status.CLOSED:
        ended = runner.ended_ms(pilot, latest)
        if ended is not None:
            return core.round_start_ms(plan, number, ended), ""
    if plan.schedule is core.Schedule.FIXED:
        return core.round_start_ms(plan, number, None), _(
            "or as soon as round %(n)d has ended, if later") % {"n": number - 1}
    return None, after_the_last_game(pilot.minutes, number - 1)


def after_the_last_game(minutes: int, number: int) -> str:
    """When a round starts that follows round ``number`` by ``minutes``, in words."""
    if minutes == 0:
        return _("as soon as the last game of round %(n)d ends") % {"n": number}
    return ngettext("%(minutes)d minute after the last game of round %(n)d ends",
                    "%(minutes)d minutes after the last game of round %(n)d ends",
                    minutes) % {"minutes": minutes, "n": number}


def player_schedules(player_ids: list[int]) -> dict[int, PlayerSchedule]:
    """Each asked player's next round in an event that runs itself: worked out once per event
    (the round, its start, the absences asked for it), whatever the number of players."""
    players = Player.objects.filter(pk__in=player_ids, event__autopilot__isnull=False,
                                    event__autopilot__finished_at__isnull=True
                                    ).select_related("event__autopilot")
    by_event: dict[int, list[Player]] = {}
    for player in players:
        by_event.setdefault(player.event_id, []).append(player)
    found = {}
    for group in by_event.values():
        event, pilot = group[0].event, group[0].event.autopilot
        number = services.next_round_number(event)
        if number > services.format.planned_rounds(event):
            continue
        latest = event.rounds.order_by("-number").first()
        starts, words = next_start(pilot, latest, number)
        absent = set(Absence.objects.filter(player__in=group, round_number=number)
                     .values_list("player_id", flat=True))
        url = reverse("autopilot_absence", args=[event.slug, number])
        for player in group:
            if player.is_active_in(number):
                found[player.pk] = PlayerSchedule(
                    number, runner.moment(starts) if starts is not None else None, words,
                    absence_url=url, absent=player.pk in absent, paused=not pilot.running,
                    paused_reason=pilot.paused_reason if not pilot.running else "")
    return found


def event_entries(event_ids: list[int]) -> dict[int, Link]:
    found = {}
    now = runner.moment(clock_services.now_ms())
    for pilot in Autopilot.objects.filter(event_id__in=event_ids).select_related("event"):
        if autopilot.door(pilot.event, pilot, now).open:
            found[pilot.event_id] = Link(_("Register for this event"),
                                         reverse("autopilot_register", args=[pilot.event.slug]))
    return found


def automations(event_ids: list[int]) -> dict[int, Link]:
    """The arbiter's dashboard says that the event runs itself, and how it stands."""
    found = {}
    for pilot in Autopilot.objects.filter(event_id__in=event_ids).select_related("event"):
        if pilot.finished_at is not None:
            text = _("This event ran itself to its final standings.")
        elif not pilot.running:
            text = _("This event runs itself; the automation is paused: %(why)s") % {
                "why": pilot.paused_reason or "—"}
        elif pilot.waiting_for:
            text = _("This event runs itself and waits for you: %(why)s") % {
                "why": pilot.waiting_for}
        else:
            text = _("This event runs itself: the server pairs, starts and closes each round. "
                     "Pause it before doing any of that by hand.")
        found[pilot.event_id] = Link(text, reverse("autopilot_settings", args=[pilot.event.slug]))
    return found
