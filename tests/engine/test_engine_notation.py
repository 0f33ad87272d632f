"""Reading and writing records: the section 7 example, canonical text, JSON, errors, fuzzing."""

import json
import random

import pytest
from engine_helpers import EXAMPLE
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    Action,
    NotationError,
    Placement,
    Record,
    Tile,
    format_record,
    parse_record,
    random_game,
)
from games.engine.notation import MAX_RECORD_CHARS

CANONICAL_EXAMPLE = """[Event "Demo Open"]
[Round "3"]
[Board "2"]
[First "Ada Lovelace"]
[Second "Blaise Pascal"]
[Players "2"]
[Rules "mso"]
[TileSet "standard"]
[TimeControl "600"]
[Result "0-1"]

1. A d1B-e1R
2. B e2B-f2O {B+1 O+1}
3. A g2O-g3O {O+3}
4. B j10P-k10P {P+2}
5. A j9P-k9G {P+2}
6. B k7Y-k8G {G+1 Y+1} @9:12
7. B swap OY YP GY YP YP
8. A i8P-j8G {G+2 P+2}
"""


def test_the_section_7_example_parses() -> None:
    record = parse_record(EXAMPLE)
    assert record.tag("Event") == "Demo Open" and record.tag("TimeControl") == "600"
    assert len(record.tags) == 10 and len(record.actions) == 8
    first, sixth, swap = record.actions[0], record.actions[5], record.actions[6]
    assert first == Action("A", "place", Placement("d1", "B", "e1", "R"))
    assert first.claim is None  # no claim written
    assert sixth.claim == (("G", 1), ("Y", 1)) and sixth.clock == 9 * 60 + 12
    assert swap.kind == "swap" and swap.tiles == tuple(
        Tile.parse(t) for t in ["OY", "YP", "GY", "YP", "YP"]
    )
    assert record.positions[4][0] == 16  # line numbers count tags and the blank line
    assert record.tag_line("Result") == 10


def test_canonical_text_and_json_round_trip() -> None:
    record = parse_record(EXAMPLE)
    assert format_record(record) == CANONICAL_EXAMPLE
    as_json = format_record(record, form="json")
    back = parse_record(as_json)
    assert back == record and format_record(back) == CANONICAL_EXAMPLE
    data = json.loads(as_json)
    assert data["actions"][5] == {
        "seat": "B",
        "action": "place",
        "placement": "k7Y-k8G",
        "claim": {"G": 1, "Y": 1},
        "clock": 552,
    }
    assert data["actions"][6] == {
        "seat": "B",
        "action": "swap",
        "tiles": ["OY", "YP", "GY", "YP", "YP"],
    }
    assert parse_record(data) == record  # an already decoded object works too
    assert parse_record(EXAMPLE.encode("utf-8")) == record


def test_move_numbers_comments_blank_lines_and_spacing_are_optional() -> None:
    loose = (
        '\ufeff; a record typed by hand\r\n[Rules "mso"]\r\n\r\n'
        "A d1B-e1R ;first\r\n  12...  B   e2B-f2O{B+1,O+1}   @09:05\r\nB swap  OY YP\r\n"
    )
    record = parse_record(loose)
    assert format_record(record) == (
        '[Rules "mso"]\n\n1. A d1B-e1R\n2. B e2B-f2O {B+1 O+1} @9:05\n3. B swap OY YP\n'
    )
    assert record.positions[1] == (5, 14, 21)  # line, column of the placement, of the claim
    assert parse_record("A e1R-f2O {}").actions[0].claim == ()  # a claimed zero


def test_tag_values_with_quotes_and_backslashes_round_trip() -> None:
    record = Record(tags=(("Event", 'The "Big" One \\ 2025; Round ½'),), actions=())
    text = format_record(record)
    assert text == '[Event "The \\"Big\\" One \\\\ 2025; Round ½"]\n'
    assert parse_record(text) == record


@pytest.mark.parametrize(
    ("text", "line", "column", "fragment"),
    [
        ("[Rules mso]\n", 1, 1, "malformed tag"),
        ('[Rules "mso"]\n[Rules "kosmos"]\n', 2, None, "tag 'Rules' appears twice"),
        ('A d1B-e1R\n[Rules "mso"]\n', 2, 1, "tag after the first action"),
        ("\n\nE d1B-e1R\n", 3, 1, "expected a seat letter A-D, found 'E'"),
        ("A d1B-e1\n", 1, 3, "'d1B-e1' is neither a placement"),
        ("A d1B-e1R {R+0}\n", 1, 11, "claim item 'R+0' moves nothing"),
        ("A d1B-e1R {R+1 R+2}\n", 1, 11, "colour R appears twice"),
        ("A d1B-e1R {R+1\n", 1, 11, "has no closing '}'"),
        ("A d1B-e1R {X+1}\n", 1, 11, "malformed claim item 'X+1'"),
        ("A d1B-e1R @9:75\n", 1, 11, "'@9:75' is not understood"),
        ("A d1B-e1R @9:12 {R+1}\n", 1, 11, "clock notes go last"),
        ("A swap OY XX\n", 1, 11, "'XX' is not a tile"),
        ("A draw\n", 1, 3, "'draw' lists no tiles"),
        ("A flag now\n", 1, 8, "'now' is not understood"),
        ("7.\n", 1, 3, "a move number with no action"),
        ("B\n", 1, 2, "seat B with no action"),
        ("A d1B-e1R \x00\n", 1, 11, "'\\x00' is not understood"),
    ],
)
def test_notation_errors_name_line_column_and_token(
    text: str, line: int, column: int | None, fragment: str
) -> None:
    with pytest.raises(NotationError) as caught:
        parse_record(text)
    error = caught.value
    assert fragment in error.reason
    assert (error.line, error.column) == (line, column)
    assert str(error).startswith(f"line {line}")


def test_absurd_input_is_refused_quickly() -> None:
    with pytest.raises(NotationError, match="too large"):
        parse_record("A d1B-e1R\n" * (MAX_RECORD_CHARS // 5))
    with pytest.raises(NotationError, match="too large"):
        parse_record(b"x" * (MAX_RECORD_CHARS + 1))
    with pytest.raises(NotationError, match=r"not UTF-8 text .* offset 3"):
        parse_record(b"A d\xff1B")
    with pytest.raises(NotationError, match="nested deeper than 32 levels"):
        parse_record('{"actions": ' + "[" * 100_000)
    with pytest.raises(NotationError, match="nested deeper than 32 levels"):
        parse_record('{"actions": [' + "[" * 100_000 + "]" * 100_000 + "]}")
    with pytest.raises(NotationError, match=r"5,000 digits .* \$.actions\[0\].clock"):
        parse_record('{"actions": [{"seat": "A", "action": "flag", "clock": ' + "9" * 5000
                     + "}]}")
    with pytest.raises(NotationError, match="cannot read a game record from a int"):
        parse_record(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("data", "line", "fragment"),
    [
        ([], None, "must be an object"),
        ({"tags": [], "actions": []}, None, "'tags' must be an object"),
        ({"tags": {"Event": 3}}, None, "must have a string value"),
        ({"tags": {"Bad name": "x"}}, None, "tag name 'Bad name'"),
        ({"tags": {"Event": "a\nb"}}, None, "control character"),
        ({"actions": [{"seat": "A", "action": "place"}]}, 1, "needs a 'placement'"),
        (
            {"actions": [{"seat": "A", "action": "flag"}, {"seat": "E", "action": "flag"}]},
            2,
            "seat",
        ),
        ({"actions": [{"seat": "A", "action": "jump"}]}, 1, "unknown action 'jump'"),
        ({"actions": [{"seat": "A", "action": "flag", "tiles": []}]}, 1, "key 'tiles'"),
        ({"actions": [{"seat": "A", "action": "swap", "tiles": "RG"}]}, 1, "list of strings"),
        ({"actions": [{"seat": "A", "action": "flag", "clock": -1}]}, 1, "clock '-1'"),
        ({"actions": [{"seat": "A", "action": "flag", "clock": True}]}, 1, "clock 'True'"),
        (
            {
                "actions": [
                    {"seat": "A", "action": "place", "placement": "d1B-e1R", "claim": {"R": 0}}
                ]
            },
            1,
            "claimed points '0'",
        ),
        ({"actions": [{"seat": "A", "action": "place", "placement": "d1B"}]}, 1, "'d1B' is not"),
        ({"extra": 1}, None, "unknown key 'extra'"),
    ],
)
def test_json_errors_use_the_action_index_as_line(
    data: object, line: int | None, fragment: str
) -> None:
    with pytest.raises(NotationError) as caught:
        parse_record(json.dumps(data)) if isinstance(data, dict) else Record.from_json(data)
    assert fragment in caught.value.reason
    assert caught.value.line == line


# -- properties -----------------------------------------------------------------------------------
colours = st.sampled_from("RGBOYP")
cells = st.builds(lambda r, n: f"{r}{n}", st.sampled_from("abcdefghijklmno"), st.integers(1, 15))
tile_lists = st.lists(st.builds(lambda a, b: Tile.parse(a + b), colours, colours), max_size=6)
claims = st.none() | st.dictionaries(colours, st.integers(1, 36)).map(
    lambda d: tuple((c, d[c]) for c in "RGBOYP" if c in d)
)
clocks = st.none() | st.integers(0, 99 * 60 + 59)
seats = st.sampled_from("ABCD")
actions = st.one_of(
    st.builds(
        lambda s, c1, k1, c2, k2, claim, clock: Action(
            s, "place", Placement(c1, k1, c2, k2), claim=claim, clock=clock
        ),
        seats,
        cells,
        colours,
        cells,
        colours,
        claims,
        clocks,
    ),
    st.builds(
        lambda s, t, c: Action(s, "swap", tiles=tuple(t), clock=c), seats, tile_lists, clocks
    ),
    st.builds(
        lambda s, t, c: Action(s, "draw", tiles=tuple(t), clock=c),
        seats,
        tile_lists.filter(bool),
        clocks,
    ),
    st.builds(
        lambda s, k, c: Action(s, k, clock=c), seats, st.sampled_from(["flag", "resign"]), clocks
    ),
)
tag_values = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=20)
tags = st.dictionaries(
    st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,10}", fullmatch=True), tag_values, max_size=5
)


@settings(max_examples=120, deadline=None)
@given(tags, st.lists(actions, max_size=12))
def test_any_record_survives_text_and_json_round_trips(tag_dict: dict, action_list: list) -> None:
    record = Record(tuple(tag_dict.items()), tuple(action_list))
    text = format_record(record)
    assert parse_record(text) == record
    assert parse_record(format_record(record, form="json")) == record
    assert format_record(parse_record(format_record(parse_record(text), form="json"))) == text


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([1, 2, 3, 4]))
def test_generated_games_round_trip(seed: int, players: int) -> None:
    record = random_game(
        random.Random(seed), players=players, draws=seed % 2 == 0, clocks=True, flag_rate=0.02
    ).record
    text = format_record(record)
    assert parse_record(text) == record == parse_record(format_record(record, form="json"))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300) | st.binary(max_size=300))
def test_parsing_arbitrary_input_raises_only_notation_errors(junk: str | bytes) -> None:
    try:
        record = parse_record(junk)
    except NotationError as error:
        assert error.reason
    else:
        assert isinstance(record, Record)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "A",
                "B",
                "d1B-e1R",
                "{",
                "}",
                "R+1",
                "@9:12",
                "swap",
                "draw",
                "OY",
                "[",
                "]",
                '"',
                "\n",
                " ",
                ";",
                "1.",
                "Players",
                "{G+2 P+2}",
                "\t",
                "½",
                "{}",
            ]
        ),
        max_size=30,
    )
)
def test_parsing_record_shaped_junk_raises_only_notation_errors(parts: list[str]) -> None:
    text = "".join(parts)
    try:
        parse_record(text)
    except NotationError as error:
        assert error.line is None or error.line >= 1
