"""The pages of a self-running event: the organiser's settings, pause and resume, a player's
own registration (and its refusals, which change nothing), My games' countdown, absence and
the state it polls to become the seat of the new game."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from autopilot.models import Autopilot, Registration
from tests.autopilot.helpers import MINUTE, at, make_event, resign_all, tick
from tournament import services
from tournament.models import Absence, HistoryEntry, Player, PlayerLogin

pytestmark = pytest.mark.django_db


def arbiter_client(event) -> Client:
    client = Client()
    client.force_login(event.arbiters.get())
    return client


def signup(name="Zoe Late", username="zoe", **extra) -> dict:
    return {"new-username": username, "new-password1": "a-long-pass-39",
            "new-password2": "a-long-pass-39", "name": name, "club": "", "country": "",
            "rating": "", **extra}


def test_runs_itself_set_up_by_the_organiser_refuses_bad_settings(clock_time):
    arbiter = get_user_model().objects.create_user("organiser", password="pw-auto-2")
    event = services.create_event(name="Self Open", slug="self-open", arbiter=arbiter)
    client = Client()
    client.force_login(arbiter)
    url = reverse("autopilot_settings", args=[event.slug])
    page = client.get(url)
    assert page.status_code == 200 and "Make this event run itself" in page.content.decode()
    now = clock_time.now
    values = {"first_round_at": at(now + 60 * MINUTE).strftime("%Y-%m-%dT%H:%M"),
              "registration_closes_at": at(now + 61 * MINUTE).strftime("%Y-%m-%dT%H:%M"),
              "schedule": "after", "minutes": "5", "registration": "on",
              "late_until_round": "3", "missed_games_limit": "2"}
    refused = client.post(url, values)
    assert refused.status_code == 400
    assert "Registration must close at round 1&#x27;s start at the latest." in \
        refused.content.decode()
    assert not Autopilot.objects.exists()
    refused = client.post(url, {**values, "minutes": "-3"})
    assert refused.status_code == 400 and not Autopilot.objects.exists()
    values["registration_closes_at"] = values["first_round_at"]
    assert client.post(url, values).status_code == 302
    page = client.get(url).content.decode()
    assert "running" in page and "Round 1 is paired, published and started at" in page
    assert "The event runs itself: round 1 at" in page
    other = get_user_model().objects.create_user("stranger", password="pw-auto-3")
    client.force_login(other)
    assert client.get(url).status_code == 403
    assert client.post(reverse("autopilot_action", args=[event.slug, "pause"])).status_code \
        == 403


def test_runs_itself_registration_on_the_event_page(clock_time):
    event = make_event(clock_time, players=3, rounds=3, late_until_round=2, slug="reg-open")
    home = Client().get(reverse("event_home", args=[event.slug])).content.decode()
    register = reverse("autopilot_register", args=[event.slug])
    assert register in home and "Register for this event" in home
    client = Client()
    answer = client.post(register, signup())
    assert answer.status_code == 302 and answer.url == reverse("my_games")
    player = Player.objects.get(event=event, name="Zoe Late")
    assert PlayerLogin.objects.get(player=player).user.username == "zoe"
    assert player.joined_round == 1
    # the same account again, then another account with a taken name: refused, nothing changes
    again = client.post(register, {"name": "Zoe Again"})
    assert again.status_code == 409
    assert "You are registered already, as Zoe Late" in again.content.decode()
    taken = Client().post(register, signup(name="player 01", username="copycat"))
    assert taken.status_code == 409 and "There is already a player called player 01" in \
        taken.content.decode()
    assert not get_user_model().objects.filter(username="copycat").exists()
    huge = Client().post(register, signup(name="x" * 100_000, username="huge"))
    assert huge.status_code == 400 and not get_user_model().objects.filter(
        username="huge").exists()
    assert event.players.count() == 4
    # after the deadline
    tick(clock_time, 9 * MINUTE)
    late = Client().post(register, signup(name="Too Late", username="toolate"))
    assert late.status_code == 409 and "Registration closed at" in late.content.decode()
    assert not Player.objects.filter(name="Too Late").exists()
    assert register not in Client().get(reverse("event_home", args=[event.slug])).content.decode()
    # late registration while round 2 is not paired yet: joins round 2
    tick(clock_time, MINUTE)
    assert event.rounds.count() == 1
    assert Client().post(register, signup(name="Late Comer", username="late")).status_code == 302
    assert Player.objects.get(name="Late Comer").joined_round == 2
    sentence = event.history.filter(action=HistoryEntry.Action.PLAYER_REGISTERED) \
        .order_by("-pk").first().summary
    assert sentence == "Late Comer registered (account late) and joins in round 2."


def test_runs_itself_registrations_wait_for_approval(clock_time):
    event = make_event(clock_time, players=3, rounds=3, approval=True, slug="approve-open")
    client = Client()
    assert client.post(reverse("autopilot_register", args=[event.slug]),
                       signup()).status_code == 302
    registration = Registration.objects.get()
    assert registration.status == Registration.Status.WAITING
    assert not Player.objects.filter(name="Zoe Late").exists()
    waiting = client.post(reverse("autopilot_register", args=[event.slug]), {"name": "Zoe"})
    assert "waiting for the organiser" in waiting.content.decode()
    arbiter = arbiter_client(event)
    page = arbiter.get(reverse("autopilot_settings", args=[event.slug])).content.decode()
    assert "Zoe Late" in page and "Registrations waiting for approval" in page
    arbiter.post(reverse("autopilot_action", args=[event.slug, "accept"]),
                 {"registration": registration.pk})
    assert PlayerLogin.objects.get(player__name="Zoe Late").user.username == "zoe"
    again = arbiter.post(reverse("autopilot_action", args=[event.slug, "refuse"]),
                         {"registration": registration.pk}, follow=True)
    assert "was decided already" in again.content.decode()
    forged = arbiter.post(reverse("autopilot_action", args=[event.slug, "accept"]),
                          {"registration": "9" * 40})
    assert forged.status_code in (400, 404)


def test_runs_itself_pause_and_resume_from_the_page(clock_time):
    event = make_event(clock_time, players=4, rounds=2, slug="pause-open")
    arbiter = arbiter_client(event)
    pause = reverse("autopilot_action", args=[event.slug, "pause"])
    page = arbiter.post(pause, {"reason": "a server problem"}, follow=True).content.decode()
    assert "paused" in page and "a server problem" in page
    dashboard = arbiter.get(reverse("arbiter_dashboard", args=[event.slug])).content.decode()
    assert "This event runs itself; the automation is paused: a server problem" in dashboard
    tick(clock_time, 11 * MINUTE)
    assert not event.rounds.exists()
    page = arbiter.post(reverse("autopilot_action", args=[event.slug, "resume"]),
                        follow=True).content.decode()
    assert "The automation is running again." in page
    tick(clock_time, 1000)
    assert event.rounds.count() == 1
    dashboard = arbiter.get(reverse("arbiter_dashboard", args=[event.slug])).content.decode()
    assert "This event runs itself: the server pairs, starts and closes each round." in dashboard
    page = arbiter.get(reverse("autopilot_settings", args=[event.slug])).content.decode()
    for text in ("Automation paused by pause-open-arbiter: a server problem",
                 "Automation resumed by pause-open-arbiter.",
                 "Round 1 paired automatically: 2 games.", "Round 1: clocks started "
                 "automatically."):
        assert text in page


def test_runs_itself_my_games_counts_down_then_becomes_the_seat(clock_time):
    event = make_event(clock_time, players=3, rounds=2, slug="mine-open")
    client = Client()
    client.post(reverse("autopilot_register", args=[event.slug]), signup())
    page = client.get(reverse("my_games")).content.decode()
    first = Autopilot.objects.get(event=event).first_round_at
    assert f'data-starts-ms="{int(first.timestamp())}000"' in page
    assert "I will miss round 1" in page
    state = client.get(reverse("my_games_state")).json()["events"][event.slug]
    assert state == {"event": event.slug, "round": None, "round_starts_ms": None,
                     "board": None, "bye": False,
                     "opponent": None, "first": None, "seat": None, "next_round": 1,
                     "starts_ms": int(first.timestamp()) * 1000, "starts_words": "",
                     "absent": False, "paused": False, "paused_reason": "",
                     "withdrawn": False, "final": None}
    # ask to miss round 1, take it back, ask again: not paired
    absence = reverse("autopilot_absence", args=[event.slug, 1])
    client.post(absence)
    assert Absence.objects.filter(player__name="Zoe Late", round_number=1).exists()
    assert "I will play round 1 after all" in client.get(reverse("my_games")).content.decode()
    client.post(absence, {"cancel": "1"})
    assert not Absence.objects.exists()
    tick(clock_time, 10 * MINUTE)
    state = client.get(reverse("my_games_state")).json()["events"][event.slug]
    assert state["round"] == 1 and state["seat"].startswith("/p/")
    assert state["next_round"] == 2 and state["starts_ms"] is None
    page = client.get(reverse("my_games")).content.decode()
    assert "Round 2 starts 5 minutes after the last game of round 1 ends." in page
    late = client.post(absence, follow=True).content.decode()
    assert "Round 1 is already paired: it is too late to ask for an absence." in late
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("nobody", password="pw-x-39"))
    refused = stranger.post(reverse("autopilot_absence", args=[event.slug, 2]), follow=True)
    assert "You do not play in" in refused.content.decode()
    assert not Absence.objects.exists()
    resign_all(event, 1)
    tick(clock_time, 1000)
    state = client.get(reverse("my_games_state")).json()["events"][event.slug]
    assert state["starts_ms"] == clock_time.now + 5 * MINUTE - 0


def test_runs_itself_registration_limits_new_logins_per_address(clock_time):
    """A script making accounts on the registration form is stopped at the hour's limit of
    new logins from its address (429, nothing entered); a login one has still registers, and
    another address is not held back."""
    from tournament.site import throttle

    event = make_event(clock_time, players=4, rounds=3)
    url = reverse("autopilot_register", args=[event.slug])
    for n in range(throttle.SIGNUPS):
        bot = Client(REMOTE_ADDR="203.0.113.9")
        assert bot.post(url, signup(name=f"Bot {n}", username=f"bot{n}")).status_code == 302
    bot = Client(REMOTE_ADDR="203.0.113.9")
    refused = bot.post(url, signup(name="Bot Many", username="botmany"))
    assert refused.status_code == 429
    assert "Too many new logins from this address" in refused.content.decode()
    assert not get_user_model().objects.filter(username="botmany").exists()
    assert not event.players.filter(name="Bot Many").exists()
    other = Client(REMOTE_ADDR="198.51.100.7")
    assert other.post(url, signup(name="Ann Home", username="annhome")).status_code == 302
    known = get_user_model().objects.create_user("kim", password="pw-kim-39")
    bot.force_login(known)
    assert bot.post(url, {"name": "Kim Known", "club": "", "country": "",
                          "rating": ""}).status_code == 302
