"""Board geometry: sizes, cell names, start symbols, neighbours and rays."""

import pytest
from engine_helpers import STEPS, coords, on_board
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Board, IllegalActionError, NotationError


@pytest.mark.parametrize(
    ("players", "radius", "cells", "free"),
    [(1, 5, 91, 85), (2, 5, 91, 85), (3, 6, 127, 121), (4, 7, 169, 163)],
)
def test_board_sizes(players: int, radius: int, cells: int, free: int) -> None:
    board = Board.for_players(players)
    assert (board.radius, board.size, board.free_cells) == (radius, cells, free)


def test_two_player_names_from_the_rules() -> None:
    board = Board.for_players(2)
    assert board.coords_of("f6") == (0, 0)
    corners = {board.coords_of(name) for name in ("a1", "a6", "f11", "k11", "k6", "f1")}
    assert corners == {(-5, 5), (0, 5), (5, 0), (5, -5), (0, -5), (-5, 0)}
    symbols = {name: board.start_symbol(name) for name in ("f11", "a6", "a1", "f1", "k6", "k11")}
    assert symbols == {"f11": "R", "a6": "G", "a1": "B", "f1": "O", "k6": "Y", "k11": "P"}
    assert [n for n in board.names if n[0] == "a"] == [f"a{i}" for i in range(1, 7)]
    assert [n for n in board.names if n[0] == "f"] == [f"f{i}" for i in range(1, 12)]
    assert [n for n in board.names if n[0] == "k"] == [f"k{i}" for i in range(6, 12)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_start_symbols_at_distance_five_on_every_board(players: int) -> None:
    board = Board.for_players(players)
    for colour, cell in zip("RGBOYP", board.start_cells, strict=True):
        q, r = board.coords[cell]
        assert max(abs(q), abs(r), abs(q + r)) == 5
        assert board.start_symbol(board.names[cell]) == colour
    assert board.start_symbol(board.names[board.index[board.name_of(0, 0)]]) is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_names_and_coordinates_round_trip(players: int) -> None:
    board = Board.for_players(players)
    for name in board.names:
        q, r = board.coords_of(name)
        assert (q, r) == coords(name, board.radius)  # the formula, computed independently
        assert board.name_of(q, r) == name
    assert len(set(board.names)) == board.size


@pytest.mark.parametrize("players", [2, 3, 4])
def test_neighbours_and_rays_match_the_geometry(players: int) -> None:
    board = Board.for_players(players)
    n = board.radius
    for i, (q, r) in enumerate(board.coords):
        expected = {
            board.index[board.name_of(q + dq, r + dr)]
            for dq, dr in STEPS
            if on_board(q + dq, r + dr, n)
        }
        assert set(board.neighbours[i]) == expected
        for d, (dq, dr) in enumerate(STEPS):
            ray = [board.coords[c] for c in board.rays[i][d]]
            k = 1
            while on_board(q + k * dq, r + k * dr, n):
                k += 1
            assert ray == [(q + j * dq, r + j * dr) for j in range(1, k)]
            five = {tuple(x) for x in board.scan[i * 6 + d]}
            assert five == {board.rays[i][e] for e in range(6) if e != d and board.rays[i][e]}
    for a, b in board.edges:
        assert board.are_adjacent(board.names[a], board.names[b])


def test_unknown_cells_and_sizes_are_refused() -> None:
    board = Board.for_players(2)
    with pytest.raises(IllegalActionError, match="unknown cell 'a7'"):
        board.cell("a7")  # row a holds a1-a6 only
    with pytest.raises(IllegalActionError, match="unknown cell 'l6'"):
        board.cell("l6")
    with pytest.raises(NotationError, match="'5'"):
        Board.for_players(5)
    assert Board.for_players(2) is Board.of_radius(5)  # built once per size


@settings(max_examples=200, deadline=None)
@given(st.integers(-7, 7), st.integers(-7, 7))
def test_every_coordinate_on_the_big_board_has_a_name(q: int, r: int) -> None:
    board = Board.for_players(4)
    if on_board(q, r, 7):
        assert board.coords_of(board.name_of(q, r)) == (q, r)
    else:
        with pytest.raises(IllegalActionError):
            board.name_of(q, r)
