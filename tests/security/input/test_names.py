"""Issue #21: invisible characters never enter a one-line field, look-alike names are flagged
for the arbiter, sign-up user names stay in one alphabet, and pages isolate names."""

import doctest
import re
import string

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import Q
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from backups.document import BackupError, export_event, import_event
from tournament import services
from tournament.inputs import names
from tournament.inputs.names import mixed_scripts, skeleton
from tournament.models import Event, Player
from tournament.services import logins
from tournament.services.names import look_alike_warnings
from tournament.services.validation import InvalidInput

pytestmark = pytest.mark.django_db

INVISIBLE = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
             "\u2069", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]


@pytest.mark.parametrize("char", INVISIBLE)
def test_the_service_refuses_each_invisible_character_naming_it(event, char):
    with pytest.raises(InvalidInput) as refused:
        services.add_player(event, name=f"Mallory{char}3 draob")
    message = str(refused.value)
    assert f"U+{ord(char):04X}" in message and "position 8" in message and "name:" in message
    assert not Player.objects.filter(name__startswith="Mallory").exists()


@pytest.mark.parametrize("field", ["club", "country"])
def test_every_one_line_field_refuses_them(event, field):
    with pytest.raises(InvalidInput, match=r"U\+202E"):
        services.add_player(event, name="Mallory", **{field: "X\u202e"})
    with pytest.raises(InvalidInput, match=r"U\+2066"):
        services.create_event(name="Open \u2066x\u2069")


def test_the_player_form_shows_the_reason_on_the_field(client, arbiter, event):
    client.force_login(arbiter)
    response = client.post(reverse("arbiter_players", args=[event.slug]),
                           {"name": "Mal\u200blory"})
    assert response.status_code == 200
    assert "U+200B (zero width space) at position 4" in response.content.decode()
    assert not event.players.filter(name__contains="lory").exists()


def test_the_csv_import_names_the_line(client, arbiter, event):
    with pytest.raises(InvalidInput, match=r"Line 3: .*U\+FEFF"):
        services.import_players(event, "name,club\nZoe,Rome\nMal\ufefflory,Rome\n")
    assert not event.players.filter(name="Zoe").exists()


def test_a_backup_with_one_is_refused_with_the_path(event):
    document = export_event(event)
    document["event"]["slug"] = "bidi-copy"
    document["players"][1]["name"] = "Ben\u202e"
    with pytest.raises(BackupError, match=r"players\[1\]\.name.*U\+202E"):
        import_event(document)
    assert not Event.objects.filter(slug="bidi-copy").exists()


# -- look-alike names -------------------------------------------------------------------------


def test_the_module_examples_hold():
    assert doctest.testmod(names).failed == 0


@pytest.mark.parametrize("twin", ["Ａda", "ADA ", "\u0410da", "\u0391da", "Adá"])
def test_a_look_alike_name_is_kept_with_a_warning_for_the_arbiter(client, arbiter, event, twin):
    client.force_login(arbiter)
    response = client.post(reverse("arbiter_players", args=[event.slug]), {"name": twin},
                           follow=True)
    page = response.content.decode()
    if twin.strip().lower() == "ada":  # the same name but for case: refused, as always
        assert "There is already a player called" in page
        return
    assert event.players.filter(name=twin).exists()
    assert re.search(r"looks like .*Ada.*, already entered", page)


def test_the_import_warns_of_each_look_alike(client, arbiter, event):
    client.force_login(arbiter)
    upload = ("players.csv", b"name\n\xd0\x92en\nZoe\n", "text/csv")  # Cyrillic capital Ve
    response = client.post(reverse("arbiter_players_import", args=[event.slug]),
                           {"csv_file": SimpleUploadedFile(*upload)}, follow=True)
    page = response.content.decode()
    assert page.count("already entered") == 1 and "\u0412en looks like Ben" in page


def test_different_names_get_no_warning(event):
    zoe = services.add_player(event, name="Zoe")
    assert look_alike_warnings(event, [zoe]) == []


@given(st.text(max_size=20))
def test_a_skeleton_is_its_own_skeleton(name):
    assert skeleton(skeleton(name)) == skeleton(name)


@given(st.text(alphabet=string.ascii_letters + " ", max_size=20))
def test_case_and_full_width_letters_share_a_skeleton(name):
    full_width = "".join(c if c == " " else chr(ord(c) + 0xFEE0) for c in name)
    assert skeleton(name.upper()) == skeleton(name.lower()) == skeleton(full_width)


# -- sign-up user names -----------------------------------------------------------------------


def _sign_up(client, event, username):
    secret = logins.invite(event.players.get(name="Ada")).secret
    password = "tiles-and-stars-77"
    return client.post(reverse("login_invitation", args=[secret]), {
        "action": "create", "new-username": username, "new-password1": password,
        "new-password2": password})


def test_a_user_name_mixing_alphabets_is_refused(client, event):
    page = _sign_up(client, event, "ad\u0430.l").content.decode()  # Cyrillic small a
    assert "mixes Cyrillic and Latin letters" in page
    assert not event.player_logins.exists()


@pytest.mark.parametrize("username", ["ada.l", "\u0430\u0434\u0430", "山田さん", "ada_1984"])
def test_a_user_name_in_one_alphabet_is_taken(client, event, username):
    assert mixed_scripts(username) == set()
    assert _sign_up(client, event, username).status_code == 302


# -- pages isolate names ----------------------------------------------------------------------


def test_find_yourself_isolates_a_stored_name(client, event):
    """A name stored before the rule (or in a right-to-left script) stays in its ``<bdi>``."""
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    Player.objects.filter(name="Ben").update(name="Ben\u202e")  # as an old database holds it
    board = round_.boards.get(Q(first__name="Ben\u202e") | Q(second__name="Ben\u202e"))
    opponent = board.second if board.first.name.startswith("Ben") else board.first
    for query in ("Ben", opponent.name):
        page = client.get(reverse("event_home", args=[event.slug]), {"q": query}).content
        assert "<bdi>Ben\u202e</bdi>" in page.decode(), query
