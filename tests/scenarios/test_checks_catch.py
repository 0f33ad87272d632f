"""The checks of every step do find what they look for (a check that never fails checks nothing)."""

import random
from decimal import Decimal

import pytest

from tests.scenarios import checks
from tests.scenarios.story import EventStory
from tournament.models import Result
from tournament.views import public as views_public


@pytest.fixture
def played(arbiter_user):
    story = EventStory(arbiter_user)
    story.arbiter.creates_event("Check Cup", format="round robin")
    story.arbiter.enters_players("Ada", "Ben", "Cleo", "Dan")
    number = story.arbiter.pairs_next_round()
    story.arbiter.publishes_round(number)
    story.arbiter.enters_round_results(number, random.Random(1))
    return story


def test_a_crashing_page_is_reported_with_the_step(played, monkeypatch):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("standings broke")

    monkeypatch.setattr(views_public.standings_bridge, "standings", broken)
    with pytest.raises(AssertionError, match=r"(?s)enters_round_results.*standings broke"):
        checks.every_page_answers(played)


def test_standings_that_disagree_with_the_stored_results_are_reported(played):
    checks.standings_vp_match(played)
    result = Result.objects.filter(board__round__event__slug=played.slug,
                                   status="accepted").first()
    expected = checks.expected_vp(played.model(), 1)
    Result.objects.filter(pk=result.pk).update(first_vp=Decimal(1) - result.first_vp)
    assert checks.expected_vp(played.model(), 1) != expected
    with pytest.raises(AssertionError):
        checks.standings_vp_match(played)


def test_a_pairing_score_that_is_not_the_standings_vp_is_reported(played, monkeypatch):
    """The seam of issue #36: a round the pairing counts at its code's points, not at what it
    scored, shows in the TRF and in the engine's score."""
    from tournament.bridges import pairing_bridge

    checks.pairing_points_match(played)
    result = Result.objects.filter(board__round__event__slug=played.slug, status="accepted",
                                   board__second__isnull=False).first()
    Result.objects.filter(pk=result.pk).update(kind="decision", first_vp=Decimal("0.5"),
                                               second_vp=Decimal(0))
    checks.pairing_points_match(played)
    core = pairing_bridge.core
    # the old seam: the game coded by who won (½–0 as a win), its points left to the code
    monkeypatch.setattr(pairing_bridge, "_game_codes", lambda game: (
        (core.Result.WIN, core.Result.LOSS) if game.first_vp > game.second_vp
        else (core.Result.LOSS, core.Result.WIN) if game.first_vp < game.second_vp
        else (core.Result.DRAW, core.Result.DRAW)))
    monkeypatch.setattr(pairing_bridge, "_record",
                        lambda code, vp, opponent=0, first=None:
                        core.RoundRecord(code, opponent, first))
    with pytest.raises(AssertionError, match="differ"):
        checks.pairing_points_match(played)


def test_a_players_page_is_opened_again_when_that_players_result_changes(played, monkeypatch):
    """Player and board pages are opened again only when what they show changed: a correction
    of one board reopens its two players' pages and its own arbiter page, no other."""
    from django.urls import reverse

    from tournament import services
    from tournament.models import Board

    checks.every_page_answers(played)
    board = Board.objects.filter(round__event__slug=played.slug, second__isnull=False).first()
    opened = []
    original = checks.Opened.get

    def watched(self, visitor, url, **kwargs):
        opened.append(url)
        return original(self, visitor, url, **kwargs)

    monkeypatch.setattr(checks.Opened, "get", watched)
    services.record_result(board, "forfeit", loser_seat="first", correction=True,
                           reason="the slip was wrong")
    played.steps.append("corrects a result")
    checks.every_page_answers(played)
    pages = {reverse("player_detail", args=[played.slug, pk]): pk
             for pk in played.model().players.values_list("pk", flat=True)}
    assert sorted(pages[url] for url in opened if url in pages) == sorted(
        [board.first_id, board.second_id])
    boards = {reverse("arbiter_board", args=[played.slug, pk]): pk
              for pk in Board.objects.filter(round__event__slug=played.slug)
              .values_list("pk", flat=True)}
    assert [boards[url] for url in opened if url in boards] == [board.pk]
