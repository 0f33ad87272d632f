"""Scenario 6: an international Swiss, read in several languages (issues #13 and #14).

Twelve players, some with accented names. The arbiter pairs round 1 and changes two boards by
hand, leaving two players unpaired for a moment: the round page warns, in Russian for a
Russian reader. The public pairings by name list the names in the same order as the printed
pairings. A player submits a record whose TimeControl tag the board clock would refuse (over a
day): refused at its line; the corrected record becomes the result, and the results page and
the board page link the game viewer. A round is added with a reason, and the settings page's
history reads in Russian and Korean whoever made the changes. Then the event plays out.
"""

import io
import random
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.scenarios.story import Refused
from tournament.texts.formatting import name_key

NAMES = ["Zoë", "Émile", "adam", "Ørjan", "Bo", "Cleo", "Dan", "Eve", "Finn", "Gia", "Hugo",
         "Ida"]


def with_time_control(record: str, spec: str) -> str:
    """The record with a TimeControl tag after its first tag line."""
    first, rest = record.split("\n", 1)
    return f'{first}\n[TimeControl "{spec}"]\n{rest}'


@pytest.mark.long_story  # the languages: the same on either database
def test_an_international_swiss_reads_in_each_readers_language(story):
    arbiter = story.arbiter
    arbiter.creates_event("Nordic Open", rounds_planned=5)
    arbiter.enters_players(*NAMES)
    r1 = arbiter.pairs_next_round()

    # Two boards changed by hand: for a moment two players sit nowhere, and the page says so.
    one, two = arbiter.board(r1, 1), arbiter.board(r1, 2)
    arbiter.edits_pairing(r1, 1, one.first, two.first, reason="team-mates apart")
    round_page = arbiter.url("arbiter_round", r1)
    russian = arbiter.client.get(round_page, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    # in the pairing warnings, and beside the engine's board of each in the pairing check
    assert russian.count("не стоит ни в паре, ни на бае") == 4
    assert "is neither paired" not in russian
    arbiter.edits_pairing(r1, 2, one.second, two.second, reason="team-mates apart")
    english = arbiter.get(round_page).content.decode()
    assert "is neither paired" not in english
    arbiter.publishes_round(r1)

    # The pairings by name: page and PDF in one order, accents and case ignored.
    rows = story.public.page(reverse("event_pairings_by_name", args=[story.slug])).rows
    listed = [row.cells[0] for row in rows if row.cells and row.cells[0] in NAMES]
    assert listed == sorted(NAMES, key=name_key)
    pdf = story.public.get(reverse("print_document", args=[story.slug, "pairings"]),
                           round=r1).content
    cells = PdfReader(io.BytesIO(pdf)).pages[-1].extract_text().splitlines()
    names = [cell for cell in cells if cell in NAMES]  # each row: the name, then the opponent
    assert names[::2] == listed

    # A record the clock's grammar refuses, then the right one.
    board = arbiter.board(r1, 3)
    player = story.player(board.first)
    record = story.game_record(r1, board, seed=11)
    with pytest.raises(Refused, match="Line 2: 'TimeControl' '90000' is not seconds"):
        player.submits_record(board.token, with_time_control(record, "90000"))
    player.submits_record(board.token, with_time_control(record, "600+5"))
    results = story.public.get(reverse("event_results", args=[story.slug]),
                               round=r1).content.decode()
    viewer = re.search(r'href="(/games/\d+/)"', results)
    assert viewer is not None
    history = arbiter.get(arbiter.url("arbiter_board", board.pk)).content.decode()
    assert f'href="{viewer.group(1)}"' in history
    assert story.public.get(viewer.group(1)).status_code == 200

    arbiter.enters_round_results(r1, random.Random(3))
    arbiter.changes_settings(rounds_planned=6, change_reason="a free afternoon")
    settings = arbiter.url("arbiter_settings")
    russian = arbiter.client.get(settings, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Число туров изменено с 5 на 6." in russian and "a free afternoon" in russian
    korean = arbiter.client.get(settings, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "라운드 수가 5에서 6(으)로 변경되었습니다." in korean
    assert "Rounds changed" not in russian + korean

    assert story.plays_to_the_end(random.Random(5)) == [2, 3, 4, 5, 6]
