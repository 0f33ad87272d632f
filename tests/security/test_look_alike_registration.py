"""A name that looks like another player's is refused on the registration form: "Аda First"
(a Cyrillic А) beside "Ada First" would pass for her in the pairings and the standings."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from autopilot.models import Registration
from tests.autopilot.helpers import make_event
from tests.autopilot.test_runs_itself_pages import signup

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("approval", [False, True])
def test_a_look_alike_name_is_refused_on_the_registration_form(clock_time, approval):
    event = make_event(clock_time, players=2, rounds=3, slug="alike-open", approval=approval)
    url = reverse("autopilot_register", args=[event.slug])
    assert Client().post(url, signup(name="Ada First", username="ada")).status_code == 302
    for n, name in enumerate(["\u0410da First", "Ａda First", "ada  FIRST", "Ada Fírst"]):
        page = Client().post(url, signup(name=name, username=f"impostor{n}"))
        assert page.status_code == 409, name  # as for a name already taken
        text = page.content.decode()
        assert "looks like Ada First" in text or "already a player called" in text, name
    assert not get_user_model().objects.filter(username__startswith="impostor").exists()
    assert not event.players.filter(name__contains="irst").exclude(name="Ada First").exists()
    assert Registration.objects.filter(event=event).count() == 1
    # a different name in another alphabet is welcome
    assert Client().post(url, signup(name="Ада Первая", username="ada-ru")).status_code == 302
