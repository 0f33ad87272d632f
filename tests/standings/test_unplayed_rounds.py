"""The default rule for unplayed rounds in the colour tiebreaks (issue #36, item 11).

An unplayed round counts as a game by its VP: a full point as 18 in every colour against 0, no
point as 0 against 18, a half point as 0 against 0. The properties below are what the rule is
for: not playing never ranks above a played loss, a forfeit win never below a played win, in
both readings of "progressive"; the worked example is the golden ``unplayed_rounds.json``.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from test_standings_properties import events

from tournament.standings import (
    NOTHING,
    Bye,
    EventResults,
    Game,
    Player,
    ResultKind,
    compute_standings,
)
from tournament.standings.model import compare_levels, level_vector

COLOUR_KEYS = [
    "lowest_colour_difference",
    "lowest_colour_level",
    "lowest_colour_difference_cumulative",
    "lowest_colour_level_cumulative",
]
FULL_SCORES = st.lists(st.integers(0, 18), min_size=6, max_size=6)


def _with_round(event: EventResults, player, newcomer, game: Game | None,
                byes: tuple[Bye, ...] = ()) -> EventResults:
    """``event`` with one more round in which ``player`` meets ``newcomer`` (or not)."""
    players = [*event.players, Player(newcomer, "newcomer")]
    games = [*event.games, *([game] if game else [])]
    return EventResults(players, games, [*event.byes, *byes])


def _keys(event: EventResults, player) -> dict[str, tuple]:
    row = compute_standings(event, COLOUR_KEYS).row(player)
    return {key: row.tiebreak(key).sort_key for key in COLOUR_KEYS}


def _one_more_round(event: EventResults, data, own, other):
    """A player of ``event``, a newcomer to meet them, the next round's number, and a loser's
    and a winner's scores made of ``own`` and ``other`` (made to differ)."""
    if compare_levels(own, other) == 0:
        other = [18] * 6 if own != [18] * 6 else [0, *own[1:]]
    loser_scores, winner_scores = sorted([own, other], key=level_vector)
    player = data.draw(st.sampled_from([p.id for p in event.players]))
    rounds = [0, *[g.round for g in event.games], *[b.round for b in event.byes]]
    return player, len(event.players), max(rounds) + 1, loser_scores, winner_scores


@settings(deadline=None, max_examples=120)
@given(events(max_players=5, max_rounds=3), st.data(), FULL_SCORES, FULL_SCORES)
def test_not_playing_never_ranks_above_a_played_loss(event, data, own, other) -> None:
    # The same event, one more round: the player either loses a game over the board (any
    # scores) or does not play at all (absent, a forfeit loss, a double forfeit).
    player, newcomer, rnd, loser_scores, winner_scores = _one_more_round(event, data, own, other)
    lost = _with_round(event, player, newcomer,
                       Game.played(rnd, player, newcomer, loser_scores, winner_scores))
    how = data.draw(st.sampled_from(["absent", "forfeit", "double"]))
    if how == "absent":
        unplayed = _with_round(event, player, newcomer, None,
                               (Bye(rnd, player, ResultKind.ABSENT, 0),
                                Bye(rnd, newcomer, ResultKind.BYE, 1)))
    elif how == "forfeit":
        unplayed = _with_round(event, player, newcomer,
                               Game.forfeit(rnd, player, newcomer, absent=player))
    else:
        unplayed = _with_round(event, player, newcomer, Game.double_forfeit(rnd, player, newcomer))
    played, missed = _keys(lost, player), _keys(unplayed, player)
    for key in COLOUR_KEYS:
        assert missed[key] <= played[key], (how, key)


@settings(deadline=None, max_examples=120)
@given(events(max_players=5, max_rounds=3), st.data(), FULL_SCORES, FULL_SCORES)
def test_a_forfeit_win_or_a_full_point_bye_never_ranks_below_a_played_win(
    event, data, own, other
) -> None:
    player, newcomer, rnd, loser_scores, winner_scores = _one_more_round(event, data, own, other)
    won = _with_round(event, player, newcomer,
                      Game.played(rnd, player, newcomer, winner_scores, loser_scores))
    if data.draw(st.booleans()):
        unplayed = _with_round(event, player, newcomer,
                               Game.forfeit(rnd, player, newcomer, absent=newcomer))
    else:
        unplayed = _with_round(event, player, newcomer, None,
                               (Bye(rnd, player, ResultKind.BYE, 1),
                                Bye(rnd, newcomer, ResultKind.ABSENT, 0)))
    played, given_ = _keys(won, player), _keys(unplayed, player)
    for key in COLOUR_KEYS:
        assert given_[key] >= played[key], key


@settings(deadline=None, max_examples=100)
@given(events())
def test_colour_sums_are_the_played_games_plus_a_virtual_game_per_other_round(event) -> None:
    standings = compute_standings(event)
    widest = {2: ([18] * 6, [0] * 6), 1: ([0] * 6, [0] * 6), 0: ([0] * 6, [18] * 6)}
    for player in event.players:
        level, difference = [0] * 6, [0] * 6
        for rnd in range(1, standings.rounds + 1):
            game = next((g for g in event.games if g.round == rnd
                         and player.id in (g.first, g.second)), None)
            if game is not None and game.scored:
                first = game.first == player.id
                mine = level_vector(game.first_scores if first else game.second_scores)
                theirs = level_vector(game.second_scores if first else game.first_scores)
            else:
                if game is not None:
                    vp = game.first_vp if game.first == player.id else game.second_vp
                else:
                    bye = next((b for b in event.byes if b.round == rnd
                                and b.player == player.id), None)
                    vp = bye.vp if bye else Fraction(0)
                mine, theirs = widest[int(vp * 2)]
            level = [a + b for a, b in zip(level, mine, strict=True)]
            difference = [a + b - c for a, b, c in zip(difference, mine, theirs, strict=True)]
        row = standings.row(player.id)
        assert row.tiebreak("lowest_colour_level").sort_key == tuple(level)
        assert row.tiebreak("lowest_colour_difference").sort_key == tuple(difference)


def test_the_walkthrough_three_lost_games_against_two_players_who_never_played() -> None:
    # The walkthrough: Lou played three games and lost them (Diff −4); Max and Nia
    # never sat at a board. The earlier rule ranked both above Lou; the default ranks Lou first.
    players = [Player(name, name) for name in ("Lou", "Max", "Nia", "Ann", "Bo", "Cy")]
    lose = (8, 10, 10, 10, 10, 10), (9, 10, 10, 10, 10, 10)
    games = [Game.played(1, "Lou", "Ann", *lose), Game.played(2, "Bo", "Lou", *reversed(lose)),
             Game.played(3, "Lou", "Cy", (7, 10, 10, 10, 10, 10), (9, 10, 10, 10, 10, 10))]
    byes = [Bye(r, p, ResultKind.ABSENT, 0) for r in (1, 2, 3) for p in ("Max", "Nia")]
    event = EventResults(players, games, byes)
    earlier = [r.name for r in compute_standings(event, unplayed=NOTHING) if r.vp == 0]
    default = [r.name for r in compute_standings(event) if r.vp == 0]
    assert earlier == ["Max", "Nia", "Lou"]
    assert default == ["Lou", "Max", "Nia"]
    assert compute_standings(event).row("Lou").tiebreak("lowest_colour_difference").display == (
        "−4")
