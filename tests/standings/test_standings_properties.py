"""Property tests: invariants of the ranking over random small events (hypothesis)."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tournament.standings import (
    NOTHING,
    TIEBREAKS,
    Bye,
    EventResults,
    Game,
    Player,
    ResultKind,
    build_crosstable,
    compute_standings,
    decided_by,
)
from tournament.standings.model import level_vector
from tournament.standings.table import place_label

HALF = Fraction(1, 2)
VPS = st.sampled_from([Fraction(0), HALF, Fraction(1)])
# Small score range: equal level vectors (draws, ties on the colour sums) stay frequent.
SCORES = st.lists(st.integers(0, 4), min_size=6, max_size=6)
KINDS = st.sampled_from(["played", "played", "played", "resigned", "forfeit", "double", "decision"])


@st.composite
def events(draw: st.DrawFn, max_players: int = 7, max_rounds: int = 5) -> EventResults:
    """Random events: everybody paired each round, odd one out a bye, every result kind."""
    count = draw(st.integers(1, max_players))
    players = [Player(i, f"P{i}") for i in range(count)]
    games: list[Game] = []
    byes: list[Bye] = []
    for rnd in range(1, draw(st.integers(0, max_rounds)) + 1):
        order = list(draw(st.permutations(range(count))))
        if draw(st.booleans()) and order:
            byes.append(Bye(rnd, order.pop(), ResultKind.ABSENT, draw(VPS)))
        if len(order) % 2:
            byes.append(Bye(rnd, order.pop(), ResultKind.BYE, draw(VPS)))
        for a, b in zip(order[::2], order[1::2], strict=True):
            games.append(_game(draw, rnd, a, b))
    return EventResults(players, games, byes)


def _game(draw: st.DrawFn, rnd: int, a: int, b: int) -> Game:
    kind = draw(KINDS)
    if kind == "played":
        return Game.played(rnd, a, b, draw(SCORES), draw(SCORES))
    if kind == "resigned":
        return Game.resigned(rnd, a, b, draw(SCORES), draw(SCORES), draw(st.sampled_from([a, b])))
    if kind == "forfeit":
        return Game.forfeit(rnd, a, b, draw(st.sampled_from([a, b])))
    if kind == "double":
        return Game.double_forfeit(rnd, a, b)
    scored = draw(st.booleans())
    return Game.decision(
        rnd, a, b, draw(VPS), draw(VPS),
        draw(SCORES) if scored else None, draw(SCORES) if scored else None,
    )


ORDERS = st.lists(st.sampled_from(list(TIEBREAKS)), unique=True, max_size=len(TIEBREAKS))


@settings(deadline=None, max_examples=150)
@given(events(), ORDERS)
def test_ranks_and_places_follow_the_sort_keys(event: EventResults, order: list[str]) -> None:
    rows = compute_standings(event, order).rows
    assert sorted(row.player_id for row in rows) == sorted(p.id for p in event.players)
    start = 0
    while start < len(rows):
        end = start
        while end < len(rows) and rows[end].rank == rows[start].rank:
            end += 1
        group = rows[start:end]
        # rank = 1 + number of players strictly ahead; label covers the whole group.
        assert group[0].rank == start + 1
        assert {row.place for row in group} == {place_label(start + 1, end - start)}
        # shared places only for fully equal keys ...
        assert len({row.sort_key for row in group}) == 1
        # ... and a better key strictly before a worse one.
        if end < len(rows):
            assert group[0].sort_key > rows[end].sort_key
        start = end


@settings(deadline=None, max_examples=150)
@given(events(), ORDERS)
def test_every_place_boundary_within_equal_vp_is_explained(event: EventResults,
                                                          order: list[str]) -> None:
    """#23: each row below another with equal VP in a different place has the criterion that
    separated them, the first differing element of its value, the upper value the greater;
    every other row has none."""
    table = compute_standings(event, order)
    decisions = decided_by(table)
    rows = table.rows
    explained = set()
    for upper, lower in itertools.pairwise(rows):
        if upper.vp == lower.vp and upper.rank != lower.rank:
            decision = decisions[lower.player_id]
            explained.add(lower.player_id)
            assert decision.above == upper.player_id
            mine, theirs = upper.tiebreak(decision.key), lower.tiebreak(decision.key)
            assert decision.upper > decision.lower
            assert mine.sort_key[:decision.element] == theirs.sort_key[:decision.element]
            assert (mine.sort_key[decision.element], theirs.sort_key[decision.element]) == (
                decision.upper, decision.lower)
            earlier = [tb.key for tb in table.tiebreaks][:[tb.key for tb in table.tiebreaks]
                                                         .index(decision.key)]
            assert all(upper.tiebreak(k).sort_key == lower.tiebreak(k).sort_key
                       for k in earlier)
    assert set(decisions) == explained


@settings(deadline=None, max_examples=150)
@given(events(), ORDERS)
def test_tiebreaks_never_reorder_different_vp(event: EventResults, order: list[str]) -> None:
    vps = [row.vp for row in compute_standings(event, order)]
    assert vps == sorted(vps, reverse=True)


@settings(deadline=None, max_examples=100)
@given(events(), st.data())
def test_vp_sum_equals_vp_given(event: EventResults, data: st.DataObject) -> None:
    after = data.draw(st.integers(0, event.last_round))
    given_vp = sum(g.first_vp + g.second_vp for g in event.games if g.round <= after)
    given_vp += sum(b.vp for b in event.byes if b.round <= after)
    assert sum(row.vp for row in compute_standings(event, after_round=after)) == given_vp


@settings(deadline=None, max_examples=100)
@given(events(), st.randoms(use_true_random=False))
def test_invariant_under_renaming_and_reordering(event: EventResults, rng) -> None:
    names = {p.id: f"N{rng.randrange(10**6)}-{p.id}" for p in event.players}
    ids = {p.id: f"id-{names[p.id]}" for p in event.players}
    players = [Player(ids[p.id], names[p.id]) for p in event.players]
    rng.shuffle(players)
    games = [
        Game(g.round, ids[g.first], ids[g.second], g.kind, g.first_vp, g.second_vp,
             g.first_scores, g.second_scores)
        for g in event.games
    ]
    rng.shuffle(games)
    byes = [Bye(b.round, ids[b.player], b.kind, b.vp) for b in event.byes]
    renamed = compute_standings(EventResults(players, games, byes), list(TIEBREAKS))
    original = compute_standings(event, list(TIEBREAKS))

    def summary(row):
        return (row.rank, row.place, row.vp, tuple(v.sort_key for v in row.tiebreaks))

    back = {row.player_id: summary(row) for row in renamed}
    for row in original:
        assert back[ids[row.player_id]] == summary(row)


@settings(deadline=None, max_examples=100)
@given(events())
def test_under_the_earlier_rule_colour_sums_count_only_games_with_scores(
    event: EventResults,
) -> None:
    standings = compute_standings(event, unplayed=NOTHING)
    for player in event.players:
        level = [0] * 6
        for game in event.games:
            if not game.scored or player.id not in (game.first, game.second):
                continue
            own = game.first_scores if game.first == player.id else game.second_scores
            level = [a + b for a, b in zip(level, level_vector(own), strict=True)]
        row = standings.row(player.id)
        assert row.tiebreak("lowest_colour_level").sort_key == tuple(level)
    # Dropping every game without scores and every bye changes no colour sum.
    stripped = EventResults(event.players, [g for g in event.games if g.scored])
    again = compute_standings(stripped, after_round=standings.rounds, unplayed=NOTHING)
    for row in standings:
        other = again.row(row.player_id)
        for key in ("lowest_colour_level", "lowest_colour_difference"):
            assert other.tiebreak(key).sort_key == row.tiebreak(key).sort_key


@settings(deadline=None, max_examples=100)
@given(events(), ORDERS, st.sampled_from(list(TIEBREAKS)))
def test_a_further_criterion_only_refines(
    event: EventResults, order: list[str], extra: str
) -> None:
    assume(extra not in order)
    before = compute_standings(event, order)
    after = compute_standings(event, [*order, extra])
    rank_before = {row.player_id: row.rank for row in before}
    positions = [rank_before[row.player_id] for row in after]
    assert positions == sorted(positions)
    assert len({row.rank for row in after}) >= len({row.rank for row in before})


@settings(deadline=None, max_examples=60)
@given(events())
def test_crosstable_cells_add_up_to_vp(event: EventResults) -> None:
    standings = compute_standings(event)
    for row in build_crosstable(event, standings):
        assert sum((cell.vp for cell in row.cells if cell), Fraction(0)) == row.vp
        assert row.firsts + row.seconds <= standings.rounds


READING_PAIRS = [
    ("lowest_colour_difference", "lowest_colour_difference_cumulative"),
    ("lowest_colour_level", "lowest_colour_level_cumulative"),
]


@settings(deadline=None, max_examples=100)
@given(events())
def test_cumulative_reading_sums_the_colour_by_colour_sums_after_each_round(
    event: EventResults,
) -> None:
    # The running total after round k is the colour-by-colour sum of the standings after
    # round k; the cumulative reading adds those up for k = 1..R, per colour rank.
    keys = [key for pair in READING_PAIRS for key in pair]
    last = compute_standings(event, keys)
    running = {row.player_id: {key: [0] * 6 for key, _ in READING_PAIRS} for row in last}
    for after in range(1, last.rounds + 1):
        for row in compute_standings(event, keys, after_round=after):
            for by_colour, _ in READING_PAIRS:
                vector = row.tiebreak(by_colour).sort_key
                totals = running[row.player_id]
                totals[by_colour] = [a + b for a, b in zip(totals[by_colour], vector, strict=True)]
    for row in last:
        for by_colour, cumulative in READING_PAIRS:
            assert list(row.tiebreak(cumulative).sort_key) == running[row.player_id][by_colour]


@settings(deadline=None, max_examples=100)
@given(events())
def test_cumulative_differences_cancel_out(event: EventResults) -> None:
    # Both players of a scored game count its difference with opposite signs and the same weight
    # (under the earlier rule, where nothing else counts).
    rows = compute_standings(event, ["lowest_colour_difference_cumulative"], unplayed=NOTHING).rows
    columns = zip(*(row.tiebreaks[0].sort_key for row in rows), strict=True)
    assert all(sum(column) == 0 for column in columns)


@settings(deadline=None, max_examples=100)
@given(events(max_rounds=1))
def test_both_readings_agree_on_a_single_round(event: EventResults) -> None:
    keys = [key for pair in READING_PAIRS for key in pair]
    for row in compute_standings(event, keys):
        for by_colour, cumulative in READING_PAIRS:
            assert row.tiebreak(cumulative).sort_key == row.tiebreak(by_colour).sort_key
