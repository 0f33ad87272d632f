"""Issue #35, item 2: at the kiosk a name search never counts as a wrong code.

"Rosalind Franklin" reduced to 16 code characters, so her search was looked up as a code and
counted as a wrong one; after ten a real card was refused for ten minutes. A text is a code now
only in a code's own form: the card's printed groups, the 16 characters alone, or the address
of the card's QR code as a scanner types it."""

import unicodedata

import pytest
from django.urls import reverse

from tournament import services
from tournament.boards import player_codes
from tournament.models import CheckIn, Event
from tournament.printing.cards import card_path
from tournament.views.kiosk import COOKIE

pytestmark = pytest.mark.django_db

#: Names that reduce to 16 code characters (hyphens, an apostrophe, an accent typed as a
#: combining mark, as some keyboards do), as players type them.
NAMES = ["Rosalind Franklin", "Jean-Pierre Moreau", "Dara O'Shaughnessy",
         unicodedata.normalize("NFD", "Björn Kristiansen"), "Karl-Heinz Bergman"]


@pytest.fixture
def kiosk(client, event, arbiter):
    """An unlocked kiosk of the event, whose check-in before round 1 is open; the players of
    ``NAMES`` entered."""
    Event.objects.filter(pk=event.pk).update(checkin=Event.CheckIn.ONCE)
    for name in NAMES:
        services.add_player(event, name=unicodedata.normalize("NFC", name))
    client.force_login(arbiter)
    unlocked = client.post(reverse("arbiter_kiosk_unlock", args=[event.slug]))
    client.logout()
    client.cookies[COOKIE] = unlocked.cookies[COOKIE].value
    return client


def _search(kiosk, event, text):
    return kiosk.post(reverse("event_kiosk", args=[event.slug]), {"q": text})


def _checked_in(response, name: str) -> bool:
    return response.status_code == 200 and \
        f"Checked in: <bdi>{name}</bdi>" in response.content.decode()


def _code(event, name) -> str:
    return player_codes.code_for(player_codes.live_card(event.players.get(name=name)))


def test_full_names_find_their_players_and_never_block_a_real_card(kiosk, event):
    searches = [(name, unicodedata.normalize("NFC", name)) for name in NAMES]
    searches += [("rosalind franklin", "Rosalind Franklin"),
                 ("ROSALIND FRANKLIN", "Rosalind Franklin")] * 3  # eleven in all
    for text, name in searches:
        found = _search(kiosk, event, text)
        pick = f'name="pick" value="{event.players.get(name=name).pk}"'
        assert found.status_code == 200 and pick in found.content.decode(), text
    assert _checked_in(_search(kiosk, event, _code(event, "Ada")), "Ada")


def test_every_form_of_a_real_code_checks_in(kiosk, event):
    """As printed (any case), the 16 characters alone, and what a scanner types: the address
    of the card's QR code."""
    forms = {
        "Ada": player_codes.grouped(_code(event, "Ada")),
        "Ben": player_codes.grouped(_code(event, "Ben")).lower(),
        "Cy": _code(event, "Cy"),
        "Di": "http://192.168.1.20:8000" + card_path(_code(event, "Di")),
        "Rosalind Franklin": card_path(_code(event, "Rosalind Franklin")),
    }
    for name, text in forms.items():
        done = _search(kiosk, event, text)
        assert _checked_in(done, name), text
        assert text not in done.content.decode()
    assert CheckIn.objects.count() == len(forms)


def test_malformed_codes_in_a_codes_form_still_count(kiosk, event):
    wrong = ["0000-0000-0000-0000", "zzzz-zzzz-zzzz-zzzz", "ZZZZZZZZZZZZZZZZ",
             "https://td.example.org/card/0000000000000000/", "/card/ABCDEFGHJKMNPQRS"]
    for text in (wrong * 2)[:10]:
        assert _search(kiosk, event, text).status_code == 404
    assert _search(kiosk, event, _code(event, "Ada")).status_code == 429
    assert not CheckIn.objects.exists()


def test_a_code_typed_with_spaces_is_a_search_with_a_hint_and_is_not_shown(kiosk, event):
    spaced = player_codes.grouped(_code(event, "Ada")).replace("-", " ")
    for _ in range(11):
        answer = _search(kiosk, event, spaced)
        text = answer.content.decode()
        assert answer.status_code == 200 and "type it as the card prints it" in text
        assert spaced not in text
    assert _checked_in(_search(kiosk, event, _code(event, "Ada")), "Ada")
