"""Scenario: pairing by the rules in force, and the check the arbiter sees.

A new Swiss event pairs by the FIDE (Dutch) System as amended in 2025 (bbpPairings, built by
``make setup``). Each round page names what paired it and says the draw is identical to what
the engine makes from the round's TRF, the file the arbiter downloads; a board edited by hand
shows up as a difference beside the pairing warnings. The TRF carries the edition (line 192)
and the header lines the event knows. An event set to the 2017 edition pairs by py4swiss and
says so; on a server where bbpPairings is missing, the dashboard says so before round 1 and
each round names the 2017 edition it was paired by. Every page and PDF is opened after each
step (``checks.ALWAYS``).
"""

from __future__ import annotations

import html
import random
import re

import pytest

from tests.bbpairings import bbpairings
from tournament.bridges import pairing_bridge
from tournament.pairing import import_trf

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ada", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gia", "Hugo", "Iris", "Jon", "Kai"]
COMMIT = pairing_bridge.engine_version("bbpairings")


def check_of(page) -> str:
    found = re.search(r'id="pairing-check" data-check="([a-z]+)"', page.html)
    assert found, "the round page has no pairing check"
    return found.group(1)


def trf(story) -> str:
    return story.arbiter.get(story.arbiter.url("arbiter_export_trf")).content.decode()


@pytest.fixture(autouse=True)
def _bbpairings_built():
    bbpairings()


def test_a_swiss_pairs_by_the_2025_rules_and_the_round_page_shows_the_check(story):
    rng = random.Random(37)
    arbiter = story.arbiter
    arbiter.creates_event("Rules Open", format="Swiss", rounds_planned=5, venue="Hall 2")
    assert story.model().pairing_edition == "2025"
    arbiter.enters_players(*NAMES)
    assert 'id="engine-missing"' not in arbiter.page(arbiter.url("arbiter_dashboard")).html

    arbiter.pairs_next_round()
    page = arbiter.page(arbiter.url("arbiter_round", 1))
    assert f"Paired by bbpPairings {COMMIT}, FIDE (Dutch) System 2025." in page.html
    assert check_of(page) == "identical"
    assert (f"Checked: identical to bbpPairings {COMMIT}, FIDE (Dutch) System 2025, given "
            "this round's TRF.") in page.html
    text = trf(story)
    for line in ("192 FIDE_DUTCH_2025", "022 Hall 2", "062 11", "092 Swiss, FIDE_DUTCH_2025",
                 "102 storyarbiter", "122 600 (seconds per player)"):
        assert line in text.splitlines(), (line, text)
    assert import_trf(text).settings.edition == "2025"

    # the edition is fixed once round 1 is paired: the event goes on as it began
    settings_page = arbiter.page(arbiter.url("arbiter_settings"))
    assert re.search(r'<select name="pairing_edition"[^>]*disabled', settings_page.html)

    arbiter.publishes_round(1)
    arbiter.enters_round_results(1, rng)
    arbiter.pairs_next_round()
    assert check_of(arbiter.page(arbiter.url("arbiter_round", 2))) == "identical"

    # a board put together by hand: the check shows the difference, the warnings the rule
    boards = arbiter.boards(2)
    first, second = boards[0], boards[1]
    arbiter.edits_pairing(2, 1, first.first, second.first, "the arbiter's own idea")
    page = arbiter.page(arbiter.url("arbiter_round", 2))
    assert check_of(page) == "differs"
    assert "This draw differs from bbpPairings" in page.html
    assert f"{first.first} (" in page.html and "Pairing warnings" in page.html
    assert "At stake" in page.html and "VP)" in page.html
    arbiter.repairs_round(2, "back to the engine's draw")
    page = arbiter.page(arbiter.url("arbiter_round", 2))
    assert check_of(page) == "identical"
    assert "Paired again: back to the engine" in page.html

    # board 1 given its first player alone (a bye by hand): the check names the opponent it
    # left unpaired beside the engine's board, not only the bye
    one = arbiter.boards(2)[0]
    arbiter.edits_pairing(2, 1, one.first, None, "a bye by hand")
    page = arbiter.page(arbiter.url("arbiter_round", 2))
    assert check_of(page) == "differs"
    assert re.search(rf"{one.second} \(\d+\) \([\d½]+ VP\) not paired", html.unescape(page.html))
    arbiter.repairs_round(2, "back to the engine's draw again")
    # the last board moved to number 99: the same boards, but not the engine's numbers
    last = [b for b in arbiter.boards(2) if not b.is_bye][-1]
    arbiter.edits_pairing(2, 99, last.first, last.second, "the far table")
    page = arbiter.page(arbiter.url("arbiter_round", 2))
    assert check_of(page) == "differs"
    assert (f"numbered board 99 where the engine's draw has board {last.number}"
            in html.unescape(page.html))


def test_an_event_set_to_2017_pairs_by_py4swiss_and_says_so(story):
    arbiter = story.arbiter
    arbiter.creates_event("Old Rules Open", format="Swiss", rounds_planned=5,
                          pairing_edition="2017")
    arbiter.enters_players(*NAMES[:7])
    arbiter.pairs_next_round()
    page = arbiter.page(arbiter.url("arbiter_round", 1))
    assert "Paired by py4swiss 0.3.1, FIDE (Dutch) System 2017." in page.html
    assert check_of(page) == "identical"
    assert "192 FIDE_DUTCH_2017" in trf(story).splitlines()


def test_a_server_without_bbpairings_says_so_and_pairs_by_2017(story, monkeypatch, tmp_path):
    arbiter = story.arbiter
    arbiter.creates_event("Far Away Open", format="Swiss", rounds_planned=5)
    arbiter.enters_players(*NAMES[:9])
    monkeypatch.setenv("BBPAIRINGS", str(tmp_path / "not-built"))
    dashboard = arbiter.page(arbiter.url("arbiter_dashboard"))
    assert 'id="engine-missing"' in dashboard.html
    assert "Pairing by the 2017 rules on this server" in dashboard.html
    arbiter.pairs_next_round()
    page = arbiter.page(arbiter.url("arbiter_round", 1))
    assert "Paired by py4swiss 0.3.1, FIDE (Dutch) System 2017." in page.html
    assert "its engine (bbpPairings) is not installed on this server" in page.html
    assert check_of(page) == "identical"  # checked by the edition it was paired by
    assert story.model().rounds.get(number=1).paired_by == "dutch:2017:missing"
    assert {"192 FIDE_DUTCH_2017", "092 Swiss, FIDE_DUTCH_2017"} <= set(trf(story).splitlines())
    history = html.unescape(arbiter.page(arbiter.url("arbiter_settings")).html)
    assert ("Round 1 paired by the FIDE (Dutch) System 2017, not the event's 2025: "
            "bbpPairings is not installed on this server.") in history
