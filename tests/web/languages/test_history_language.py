"""The event's history is said in the reader's language, whoever caused the change."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tournament import services
from tournament.models import HistoryEntry
from tournament.texts import event_texts

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kai", "Lu"]


def test_a_change_made_in_korean_reads_in_russian_and_english(arbiter, arbiter_client):
    event = services.create_event(name="Mixed", arbiter=arbiter, rounds_planned=7)
    for name in NAMES:
        services.add_player(event, name=name)
    with translation.override("ko"):  # the arbiter who acts reads Korean
        round_ = services.pair_next_round(event, user=arbiter)
        services.update_event(event, {"rounds_planned": 8}, user=arbiter,
                              reason="more time")
        board = round_.boards.get(number=2)
        services.edit_pairing(round_, first_id=board.second_id, second_id=board.first_id,
                              board_number=2, user=arbiter, reason="seats swapped")
    stored = {h.action: h.summary for h in event.history.all()}
    assert stored[HistoryEntry.Action.ROUNDS_CHANGED] == "Rounds changed from 7 to 8."
    assert stored[HistoryEntry.Action.PAIRING_EDITED].startswith("Round 1, board 2 paired by")

    url = reverse("arbiter_settings", args=[event.slug])
    russian = arbiter_client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Число туров изменено с 7 на 8." in russian
    assert "Тур 1, доска 2, пара составлена вручную:" in russian
    assert "Rounds changed" not in russian and "라운드" not in russian
    english = arbiter_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Rounds changed from 7 to 8." in english and "by rating" in english


def test_an_entry_whose_details_say_too_little_keeps_its_stored_summary(arbiter):
    event = services.create_event(name="Old", arbiter=arbiter)
    entry = HistoryEntry(event=event, action=HistoryEntry.Action.ROUNDS_CHANGED,
                         summary="Runden von 7 auf 9 geändert.", details={})
    assert event_texts.summary(entry) == "Runden von 7 auf 9 geändert."
