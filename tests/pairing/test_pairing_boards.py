"""RoundPairing's engine-style text form: print, parse back, refuse truncated output."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.pairing import Board, RoundPairing, TrfError
from tournament.pairing.boards import parse_pairs


@st.composite
def pairings(draw):
    numbers = draw(st.lists(st.integers(1, 999), min_size=1, max_size=40, unique=True))
    bye = numbers.pop() if len(numbers) % 2 else None
    boards = tuple(Board(a, b) for a, b in zip(numbers[::2], numbers[1::2], strict=True))
    return RoundPairing(draw(st.integers(1, 9)), boards, bye)


@given(pairings())
def test_text_round_trip(pairing):
    text = pairing.to_text()
    lines = text.splitlines()
    assert int(lines[0]) == len(lines) - 1 == len(pairing.boards) + (pairing.bye is not None)
    assert RoundPairing.parse(text, pairing.round) == pairing


def test_worked_example():
    pairing = RoundPairing(3, (Board(4, 1), Board(2, 5)), 3)
    assert pairing.to_text() == "3\n4 1\n2 5\n3 0\n"
    assert pairing.players == (4, 1, 2, 5, 3)
    assert str(pairing.boards[0]) == "4 1"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("two\n1 2\n", "'two' is not the number of pairs"),
        ("2\n1 2\n", "says 2 pairs but 1 follow"),
        ("1\n1 2 3\n", "'1 2 3' is not two pairing numbers"),
        ("1\n4 4\n", "'4 4' does not pair"),
        ("1\n0 4\n", "'0 4' does not pair"),
    ],
)
def test_malformed_output_is_refused_with_the_line(text, message):
    with pytest.raises(TrfError, match=message):
        parse_pairs(text)


def test_two_byes_are_refused():
    with pytest.raises(TrfError, match=r"more than one bye in the pairing: \[1, 2\]"):
        RoundPairing.parse("2\n1 0\n2 0\n", 1)


def test_line_numbers_are_reported():
    with pytest.raises(TrfError) as info:
        parse_pairs("2\n1 2\nx y\n")
    assert info.value.line == 3
    assert str(info.value).startswith("line 3: ")
