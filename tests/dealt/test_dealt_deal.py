"""The deal: the specified stream, shuffle and commitment, re-derived independently here."""

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.dealt import Deal, Table, commitment, parse_seed
from games.dealt.deal import Stream, shuffled
from games.engine import format_record
from games.engine.tiles import get_tile_set
from tests.protocol_example import worked_example

SEED = bytes(range(32))


def _independent_bag(seed: bytes, tiles: list[str]) -> list[str]:
    """The specification of docs/online-protocol.md, written again from the text."""
    stream = b"".join(hashlib.sha256(seed + i.to_bytes(8, "big")).digest() for i in range(200))
    offset = 0

    def below(n):
        nonlocal offset
        while True:
            u = int.from_bytes(stream[offset:offset + 8], "big")
            offset += 8
            if u < 2**64 - 2**64 % n:
                return u % n

    bag = list(tiles)
    for i in range(len(bag) - 1, 0, -1):
        j = below(i + 1)
        bag[i], bag[j] = bag[j], bag[i]
    return bag


def test_the_bag_order_follows_the_written_specification():
    tiles = [str(t) for t in get_tile_set("standard").tiles()]
    assert tiles[:7] == ["RR"] * 5 + ["RG"] * 2  # kind order, as specified
    deal = Deal(SEED)
    assert [str(t) for t in deal.order] == _independent_bag(SEED, tiles)


def test_the_commitment_is_sha256_of_the_version_seed_and_order():
    deal = Deal(SEED)
    text = "ingenious-deal/1\n" + SEED.hex() + "\n" + " ".join(str(t) for t in deal.order)
    assert deal.commitment == hashlib.sha256(text.encode()).hexdigest()
    assert deal.commitment == commitment(SEED, deal.order)
    assert Deal(bytes(32)).commitment != deal.commitment


def test_draws_come_from_the_front_and_a_swap_draws_before_the_shown_tiles_return():
    deal = Deal(SEED)
    order = list(deal.order)
    assert deal.draw(6) == order[:6]
    assert deal.draw(3) == order[6:9]
    shown = order[:4]
    new = deal.swap(shown)
    assert new == order[9:15]
    assert len(deal) == 120 - 15 + 4
    rest = sorted(map(str, order[15:] + shown))
    assert sorted(map(str, deal.draw(200))) == rest


def test_a_swap_needs_six_tiles_in_the_bag():
    deal = Deal(SEED, "travel")
    deal.draw(52)
    with pytest.raises(Exception, match="the bag holds only 5 tiles"):
        deal.swap(deal.order[:2])
    assert len(deal) == 5


def test_a_seed_is_32_bytes_or_64_hex_digits():
    with pytest.raises(ValueError, match="32 bytes"):
        Deal(b"short")
    assert parse_seed(SEED.hex()) == SEED
    for bad in ("00" * 31, "zz" * 32, None, "00 " * 21 + "0"):
        with pytest.raises(ValueError, match="64 hex digits"):
            parse_seed(bad)


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(1, 10**12))
def test_below_stays_in_range_and_is_deterministic(seed, n):
    a, b = Stream(seed), Stream(seed)
    values = [a.below(n) for _ in range(5)]
    assert values == [b.below(n) for _ in range(5)]
    assert all(0 <= v < n for v in values)


def test_below_is_not_biased_for_a_small_range():
    stream = Stream(SEED)
    counts = [0] * 6
    for _ in range(6000):
        counts[stream.below(6)] += 1
    assert all(900 < c < 1100 for c in counts), counts


@settings(max_examples=50, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_a_shuffle_is_a_permutation_of_the_set(seed):
    tiles = get_tile_set("standard").tiles()
    assert sorted(map(str, shuffled(tiles, Stream(seed)))) == sorted(map(str, tiles))


def test_the_protocols_worked_example_is_the_cores_own_deal():
    """docs/online-protocol.md's worked example, replayed by the server's core: the same
    commitment and record lines, and the views its bullets describe (re-checked from the
    document's words alone in tests/security/online/test_protocol_worked_example.py)."""
    example = worked_example()
    seed = parse_seed(example.seed)
    moves = []
    for line in example.lines:
        seat, action = line.split()[:2]
        if action == "swap":
            moves.append({"seat": seat, "move": "swap"})
        elif "-" in action:
            moves.append({"seat": seat, "move": "place", "placement": action})
    swap = next(i for i, m in enumerate(moves) if m["move"] == "swap")
    table = Table.restore(seed, moves[:swap])
    assert table.commitment == example.commitment
    assert [str(t) for t in table.deal.order[:24]] == example.bag_start
    chooser, others = table.view("A"), [table.view("B"), table.view()]
    assert chooser["awaiting"] == "choice" and chooser["lowest"]["A"] == "GB"
    assert all(v["awaiting"] == "place" and v["to_act"] == "A" for v in others)
    assert chooser["bag"] == 102 and chooser["number"] == swap == 7
    table.play(moves[swap])
    assert table.view()["bag"] == 101
    for move in moves[swap + 1:]:
        table.play(move)
    assert table.view()["number"] == 9
    record = format_record(table.record()).split("\n\n", 1)[1].strip().splitlines()
    assert [line.split(". ", 1)[1] for line in record] == example.lines
