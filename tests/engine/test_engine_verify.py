"""verify() and replay(): verified games, the first error with its line, live entry, edits."""

import random

import pytest
from engine_helpers import EXAMPLE, coords
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    EngineError,
    IllegalActionError,
    NotationError,
    format_record,
    parse_record,
    random_game,
    replay,
    verify,
)


def edit_line(text: str, number: int, new: str) -> str:
    lines = text.split("\n")
    lines[number - 1] = new
    return "\n".join(lines)


def test_the_section_7_example_is_a_consistent_unfinished_mso_opening() -> None:
    verdict = verify(EXAMPLE)
    assert not verdict.ok
    assert verdict.error.reason.startswith("unfinished record: the game is not over after 8")
    assert verdict.error.line == 20  # just past the last action
    game = replay(EXAMPLE)  # every claim matched, no error before the end of the record
    assert game.scores["A"] == {"R": 0, "G": 2, "B": 0, "O": 3, "Y": 0, "P": 4}
    assert game.scores["B"] == {"R": 0, "G": 1, "B": 1, "O": 1, "Y": 1, "P": 2}
    assert (game.placements, game.swaps, game.to_move) == (7, 1, "B")
    assert verdict.game.scores == game.scores  # the state reached is reported with the error
    assert verdict.to_json() == {
        "ok": False,
        "error": {"line": 20, "message": verdict.error.reason},
    }


def test_replay_supports_live_entry_one_action_at_a_time() -> None:
    game = replay(EXAMPLE)
    assert game.place("B", "i7Y-i6Y") == {}  # touches i8 (A's tile)
    assert game.to_move == "A"
    with pytest.raises(IllegalActionError, match="claim"):
        replay(EXAMPLE.replace("{O+3}", "{O+2}"))


@pytest.mark.parametrize(
    ("line", "new", "fragment", "column"),
    [
        (12, "1. A d0B-e1R", "unknown cell 'd0'", 6),
        (13, "2. B e1B-f2O {B+1 O+1}", "cell 'e1' is occupied (R)", 6),
        (13, "2. B e2B-f4O", "cells 'e2' and 'f4' are not adjacent", 6),
        (13, "2. B e5B-e6O", "placement rule broken", 6),
        (13, "2. A e2B-f2O {B+1 O+1}", "wrong seat to act: A", 6),
        (13, "2. B e2B-f2O {B+1 O+2}", "claim {B+1 O+2} differs from the true score {B+1 O+1}", 14),
        (13, "2. B e2B-f2O {B+1}", "claim {B+1} differs", 14),
        (13, "2. B e2B-f2O {}", "claim {} differs", 14),
        (18, "7. B swap OY YP GY YP RP", "shows one of seat B's lowest colours (R)", 6),
        (18, "7. B swap OY YP GY YP", "shows 4 tiles", 6),
        (18, "7. A swap OY YP GY YP YP", "swap not allowed now", 6),
        (14, "3. C g2O-g3O", "seat 'C' does not play in this 2-player game", 6),
        (6, '[Players "5"]', "'Players' must be 1, 2, 3 or 4, not '5'", None),
        (7, '[Rules "casual"]', "unknown rules profile 'casual' (valid: kosmos, mso)", None),
        (8, '[TileSet "mini"]', "unknown tile set 'mini'", None),
        (9, '[TimeControl "10 min"]', "'TimeControl' '10 min' is not seconds", None),
        (9, '[TimeControl "90000"]', "'TimeControl' '90000' is not seconds", None),
        (9, '[TimeControl "600+5d3"]', "'TimeControl' '600+5d3' is not seconds", None),
        (10, '[Result "2-0"]', "'Result' '2-0' is not 1-0, 0-1", None),
    ],
)
def test_the_first_error_is_reported_at_its_line(
    line: int, new: str, fragment: str, column: int | None
) -> None:
    verdict = verify(edit_line(EXAMPLE, line, new))
    assert not verdict.ok
    assert fragment in verdict.error.reason
    assert verdict.error.line == line
    assert verdict.error.column == column


@pytest.mark.parametrize("spec", ["600", "300+5", "600d10", "-", "90", "86400"])
def test_the_time_control_tag_is_read_as_the_board_clock_reads_it(spec: str) -> None:
    """One grammar: what the clock accepts (or "-", unknown) the record may say; the example
    then fails only where it always does, for stopping before the end."""
    verdict = verify(edit_line(EXAMPLE, 9, f'[TimeControl "{spec}"]'))
    assert verdict.error.code == "unfinished"


def test_more_tiles_of_a_kind_than_the_set_holds() -> None:
    text = (
        '[Rules "kosmos"]\n[TileSet "travel"]\n'
        "A f10R-f9R\nB k10P-j10P\nA f8R-f7R\nB j6Y-k7Y\nA g10R-h10R\n"
    )
    verdict = verify(text)
    assert verdict.error.line == 7
    assert verdict.error.reason == "more tiles 'RR' than the travel set holds (2)"
    assert verdict.error.action == 5


def test_action_after_the_end_and_claimed_result() -> None:
    finished = random_game(random.Random(3))
    text = format_record(finished.record)
    assert verify(text).ok
    last = len(text.rstrip("\n").split("\n"))
    extended = text + f"{len(finished.record.actions) + 1}. A flag\n"
    verdict = verify(extended)
    assert verdict.error.reason == "action after the end of the game"
    assert verdict.error.line == last + 1
    true = finished.result
    wrong = {"1-0": "0-1", "0-1": "1-0", "½-½": "1-0"}[true]
    lie = text.replace(f'[Result "{true}"]', f'[Result "{wrong}"]')
    verdict = verify(lie)
    assert verdict.error.reason == f"claimed result '{wrong}' differs from the true result '{true}'"
    assert verdict.error.line == parse_record(lie).tag_line("Result")
    assert verify(text.replace(f'[Result "{true}"]', '[Result "*"]')).ok


def test_draw_spelled_one_half_and_json_lines_are_action_indexes() -> None:
    text = '[Result "1/2-1/2"]\nA flag\nB flag\n'
    verdict = verify(text)
    assert verdict.ok and verdict.game.result == "½-½"
    assert verdict.game.differences == {"A": (0,) * 6, "B": (0,) * 6}
    data = parse_record(EXAMPLE).to_json()
    data["actions"][2]["placement"] = "g2O-g4O"
    verdict = verify(data)
    assert verdict.error.line == 3 and verdict.error.action == 3
    assert "not adjacent" in verdict.error.reason


def test_verified_game_shape() -> None:
    generated = random_game(random.Random(11), swap_rate=1.0)
    verdict = verify(format_record(generated.record))
    game = verdict.game
    assert verdict.ok and game.finished and game == generated.game
    out = verdict.to_json()
    assert list(out) == [
        "ok",
        "error",
        "scores",
        "levels",
        "differences",
        "result",
        "placements",
        "bonus_plays",
        "swaps",
    ]
    assert set(out["scores"]) == {"A", "B"} and list(out["scores"]["A"]) == list("RGBOYP")
    for seat, other in (("A", "B"), ("B", "A")):
        assert out["levels"][seat] == sorted(out["scores"][seat].values())
        assert out["differences"][seat] == [
            x - y for x, y in zip(out["levels"][seat], out["levels"][other], strict=True)
        ]
    assert game.lowest == {"A": game.levels["A"][0], "B": game.levels["B"][0]}
    assert len(game.history) == len(generated.record.actions)
    assert game.history[-1] == tuple(tuple(game.scores[s].values()) for s in "AB")
    assert game.placements == sum(1 for a in generated.record.actions if a.kind == "place")
    assert game.swaps == sum(1 for a in generated.record.actions if a.kind == "swap") > 0


# -- properties -----------------------------------------------------------------------------------
configs = st.fixed_dictionaries(
    {
        "players": st.sampled_from([1, 2, 3, 4]),
        "profile": st.sampled_from(["mso", "kosmos"]),
        "draws": st.booleans(),
        "clocks": st.booleans(),
        "flag_rate": st.sampled_from([0.0, 0.03]),
        "resign_rate": st.sampled_from([0.0, 0.005]),
    }
)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), configs, st.booleans())
def test_random_games_verify_with_the_generators_scores(
    seed: int, config: dict, team: bool
) -> None:
    partnership = team and config["players"] == 4
    tile_set = "travel" if config["players"] == 2 and seed % 3 == 0 else "standard"
    generated = random_game(
        random.Random(seed), partnership=partnership, tile_set=tile_set, **config
    )
    for source in (format_record(generated.record), format_record(generated.record, form="json")):
        verdict = verify(source)
        assert verdict.ok, verdict.error
        assert verdict.game == generated.game
        assert verdict.game.scores == generated.scores


def _placement_lines(text: str) -> list[int]:
    return [i for i, line in enumerate(text.split("\n"), 1) if "-" in line and "[" not in line]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.data())
def test_any_single_edit_is_a_legal_game_or_an_error_with_a_line(
    seed: int, data: st.DataObject
) -> None:
    text = format_record(
        random_game(random.Random(seed), draws=seed % 2 == 0, flag_rate=0.02).record
    )
    lines = text.split("\n")
    number = data.draw(st.integers(1, len(lines) - 1), label="line")
    line = lines[number - 1]
    kind = data.draw(
        st.sampled_from(["cell", "colour", "seat", "claim", "drop", "duplicate"]), label="edit"
    )
    words = line.split()
    if kind == "cell" and len(words) > 2 and "-" in words[2]:
        new_cell = data.draw(st.sampled_from(["a1", "f6", "k11", "e4", "z9", "c7", "f12"]))
        half = data.draw(st.sampled_from([0, 1]))
        halves = words[2].split("-")
        halves[half] = new_cell + halves[half][-1]
        edited = " ".join([*words[:2], "-".join(halves), *words[3:]])
    elif kind == "colour":
        old, new = data.draw(st.sampled_from("RGBOYP")), data.draw(st.sampled_from("RGBOYP"))
        edited = line.replace(old, new)
    elif kind == "seat" and len(words) > 1:
        words[1] = data.draw(st.sampled_from("ABCD"))
        edited = " ".join(words)
    elif kind == "claim" and "{" in line:
        edited = line.replace("+", "+1", 1) if "+" in line else line.replace("{}", "{G+1}")
    elif kind == "drop":
        edited = None
    else:
        edited = line + "\n" + line
    new_lines = lines[: number - 1] + ([] if edited is None else [edited]) + lines[number:]
    verdict = verify("\n".join(new_lines))  # never raises
    if not verdict.ok:
        assert isinstance(verdict.error, EngineError)
        assert verdict.error.line is not None and verdict.error.line >= 1
        assert verdict.error.reason


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.data())
def test_an_edit_that_breaks_its_own_line_is_reported_at_that_line(
    seed: int, data: st.DataObject
) -> None:
    generated = random_game(random.Random(seed), draws=seed % 2 == 0)
    text = format_record(generated.record)
    lines = text.split("\n")
    placements = _placement_lines(text)
    number = data.draw(st.sampled_from(placements), label="line")
    words = lines[number - 1].split()  # "12." seat placement [claim...]
    first, second = words[2].split("-")
    how = data.draw(st.sampled_from(["occupied", "unknown", "claim", "seat"]), label="edit")
    if how == "occupied":
        taken = ["f11", "a6", "a1", "f1", "k6", "k11"]  # start symbols, then earlier tiles
        for earlier in lines[: number - 1]:
            parts = earlier.split()
            if len(parts) > 2 and "-" in parts[2]:
                taken += [half[:-1] for half in parts[2].split("-")]
        words[2] = data.draw(st.sampled_from(taken)) + first[-1] + "-" + second
    elif how == "unknown":
        bad = data.draw(st.sampled_from(["z9", "a7", "l1", "f12", "b0"]))
        words[2] = bad + first[-1] + "-" + second
    elif how == "claim":
        claim = " ".join(words[3:]).split("@")[0].strip()
        wrong = "{R+1}" if claim == "{}" else claim.replace("+", "+9", 1)
        words = [*words[:3], wrong]
    else:
        words[1] = data.draw(st.sampled_from([s for s in "ABCD" if s != words[1]]))
    lines[number - 1] = " ".join(words)
    verdict = verify("\n".join(lines))
    assert not verdict.ok
    assert verdict.error.line == number, (how, lines[number - 1], verdict.error)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200) | st.binary(max_size=200))
def test_verify_never_raises_and_replay_raises_only_engine_errors(junk: str | bytes) -> None:
    verdict = verify(junk)
    assert verdict.ok is (verdict.error is None)
    try:
        replay(junk)
    except EngineError as error:
        assert isinstance(error, NotationError | IllegalActionError)


def test_cell_formula_used_by_the_edit_tests() -> None:
    assert coords("f11", 5) == (5, 0) and coords("k6", 5) == (0, -5)
