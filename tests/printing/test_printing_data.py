"""The bridge from rows to plain data, and the small pure helpers the builders rely on."""

from __future__ import annotations

import pytest

from games.engine.board import Board as EngineBoard
from tournament.models import Board
from tournament.printing import data
from tournament.printing.board_diagram import cell_centre
from tournament.texts.formatting import name_key


def test_time_control_text():
    assert data.time_control_text("600") == "10 min per player"
    assert data.time_control_text("600+5") == "10 min per player + 5 s per move"
    assert data.time_control_text("600d10") == "10 min per player (10 s delay)"
    assert data.time_control_text("90") == "90 s per player"
    assert data.time_control_text("ten minutes") == "ten minutes"


def test_names_sort_without_case_or_accents():
    assert sorted(["emma", "Émile", "Eve", "dan"], key=name_key) == [
        "dan", "Émile", "emma", "Eve"]


def test_by_name_lists_both_players_and_the_bye():
    info = data.EventInfo("E")
    doc = data.PairingsDoc(info, 3, (
        data.PairingLine(1, data.Seat("Zoe"), data.Seat("Adam")),
        data.PairingLine(None, data.Seat("Mia")),
    ))
    lines = doc.by_name()
    assert [(n.name, n.board, n.opponent, n.first) for n in lines] == [
        ("Adam", 1, "Zoe", False), ("Mia", None, None, True), ("Zoe", 1, "Adam", True)]


@pytest.mark.django_db
def test_pairings_doc_reads_boards_and_vp_before_the_round(event):
    doc = data.pairings_doc(event, event.rounds.get(number=2))
    assert doc.round == 2
    assert [(line.board, line.first.name, line.second and line.second.name)
            for line in doc.boards] == [
        (1, "Dorothy Vaughan", "Ada Lovelace"), (2, "Florence Nightingale", "Grace Hopper"),
        (3, "Blaise Pascal", "Carl Gauss"), (None, "Émile Borel", None)]
    # After round 1: Ada won, Florence drew, Grace had the bye (1 VP by default).
    vp = {line.first.name: line.first.vp for line in doc.boards}
    vp.update({line.second.name: line.second.vp for line in doc.boards if line.second})
    assert vp["Ada Lovelace"] == "1"
    assert vp["Florence Nightingale"] == "½"
    assert vp["Grace Hopper"] == "1"
    assert vp["Blaise Pascal"] == "0"


@pytest.mark.django_db
def test_board_sheets_skip_the_bye_and_carry_the_board_url(event):
    round_ = event.rounds.get(number=1)
    sheets = data.board_sheets(event, round_, "https://td.example.org/")
    assert [s.board for s in sheets] == [1, 2, 3]
    board = Board.objects.get(round=round_, number=1)
    assert sheets[0].url == f"https://td.example.org/b/{board.token}/"
    assert sheets[0].first.name == "Ada Lovelace"
    assert sheets[0].event.time_control == "10 min per player"


@pytest.mark.django_db
def test_rounds_are_checked(event):
    with pytest.raises(data.PrintError, match="Round 9 has not been paired"):
        data.find_round(event, 9)
    with pytest.raises(data.PrintError, match="not a round number"):
        data.find_round(event, "two")
    with pytest.raises(data.PrintError, match="which round"):
        data.find_round(event, None)
    assert data.after_round(event, None) == 2
    assert data.after_round(event, "1") == 1


def test_diagram_geometry_matches_the_engine_names():
    """Row a at the bottom, q to the east: the corners land where game-rules.md puts them."""
    board = EngineBoard.of_radius(5)
    at = {board.names[i]: cell_centre(q, r, 10.0) for i, (q, r) in enumerate(board.coords)}
    xs = [x for x, _ in at.values()]
    ys = [y for _, y in at.values()]
    assert at["f11"][0] == pytest.approx(max(xs))  # red start: the right-hand corner
    assert at["f1"][0] == pytest.approx(min(xs))  # orange: the left-hand corner
    assert at["a1"][1] == pytest.approx(min(ys))  # row a is the bottom row
    assert at["k6"][1] == pytest.approx(max(ys))
    assert at["a6"][0] > at["a1"][0] and at["k11"][0] > at["k6"][0]
    assert len(at) == 91
