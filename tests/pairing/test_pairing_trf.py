"""TRF export/import: FIDE column layout, javafo extensions, round trips, precise errors."""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pairing_scenarios import run_event, start_event
from py4swiss.trf import TrfParser

from tournament.pairing import (
    Event,
    InvalidEvent,
    NoLegalPairing,
    Player,
    Result,
    RoundRecord,
    Settings,
    Status,
    TrfError,
    export_trf,
    import_trf,
)


def small_event() -> Event:
    """Round 1: Ann (1) beat Cy (3) moving first, Bob (2) had the pairing bye (worth ½).

    For round 2 Bob asked for a half-point bye and Dee (4), a late entry, joins.
    """
    return Event(
        Settings(5, bye=0.5),
        (
            Player(1, "Ann Example", 2010, (RoundRecord(Result.WIN, 3, True),)),
            Player(2, "Bob", None, (RoundRecord(Result.PAIRING_BYE),), Status.HALF_BYE),
            Player(3, "Cy", 1800, (RoundRecord(Result.LOSS, 1, False),)),
            Player(4, "Dee", None, (RoundRecord(Result.ZERO_BYE),), joined_round=2),
        ),
        name="Ingenious Open",
    )


EXPECTED = (
    "012 Ingenious Open\n"
    "192 FIDE_DUTCH_2025\n"
    "001    1      Ann Example                       2010" + " " * 29 + "1.0    1     3 w 1\n"
    "001    2      Bob" + " " * 64 + "1.0    2  0000 - U  0000 - H\n"
    "001    3      Cy                                1800" + " " * 29 + "0.0    3     1 b 0\n"
    "001    4      Dee" + " " * 64 + "0.0    4  0000 - Z\n"
    "XXR 5\n"
    "XXC white1\n"
    "XXS WW=1.0 BW=1.0 WD=0.5 BD=0.5 PAB=0.5 HPB=0.5 FPB=1.0 FW=1.0\n"
    "BBW  1.0\nBBD  0.5\nBBL  0.0\nBBZ  0.0\nBBF  0.0\nBBU  0.5\n"
)


def test_worked_example_export():
    assert export_trf(small_event()) == EXPECTED


def test_player_line_columns_follow_the_fide_layout():
    line = export_trf(small_event()).splitlines()[2]

    def cols(a: int, b: int) -> str:  # 1-based inclusive, as in the FIDE description
        return line[a - 1 : b]

    assert cols(1, 3) == "001"
    assert cols(5, 8) == "   1"
    assert cols(15, 47).rstrip() == "Ann Example"
    assert cols(49, 52) == "2010"
    assert cols(81, 84) == " 1.0"
    assert cols(86, 89) == "   1"
    assert (cols(92, 95), cols(97, 97), cols(99, 99)) == ("   3", "w", "1")


def test_round_trip_of_the_worked_example():
    event = small_event()
    assert import_trf(EXPECTED) == event
    assert export_trf(import_trf(EXPECTED)) == EXPECTED


def test_other_settings_are_written_as_extension_lines():
    event = Event(
        Settings(9, first_move="second", win=2, draw=1, bye=0, forfeit_is_meeting=True),
        (
            Player(1, "A", history=(RoundRecord(Result.FORFEIT_WIN, 3, True),)),
            Player(2, "B", history=(RoundRecord(Result.ZERO_BYE),), status=Status.WITHDRAWN),
            Player(3, "C", history=(RoundRecord(Result.FORFEIT_LOSS, 1, False),)),
            Player(4, "D", history=(RoundRecord(Result.ZERO_BYE),)),
        ),
        forbidden=frozenset({(4, 2)}),
    )
    tail = export_trf(event).splitlines()[5:]
    assert tail == [
        "XXR 9",
        "XXC black1",
        "XXS WW=2.0 BW=2.0 WD=1.0 BD=1.0 PAB=0.0 HPB=0.5 FPB=1.0 FW=1.0",
        "BBW  2.0", "BBD  1.0", "BBL  0.0", "BBZ  0.0", "BBF  0.0", "BBU  0.0",
        "XXZ 2",
        "XXP 1 3",  # the forfeit counts as a meeting in this event
        "XXP 2 4",
    ]
    again = import_trf(export_trf(event))
    assert again.forbidden == {(1, 3), (2, 4)} and not again.settings.forfeit_is_meeting
    assert again.player(2).status is Status.WITHDRAWN
    assert export_trf(again) == export_trf(event)


def test_a_withdrawn_player_has_a_zero_point_cell_for_the_round_to_be_paired():
    """bbpPairings ignores XXZ and would seat a withdrawn player (#37): the round to be paired
    has a pre-filled Z for them, read back as the withdrawal; none after the last round."""
    event = Event(Settings(3), (
        Player(1, "A", history=(RoundRecord(Result.WIN, 2, True),)),
        Player(2, "B", history=(RoundRecord(Result.LOSS, 1, False),), status=Status.WITHDRAWN),
        Player(3, "C", history=(RoundRecord(Result.PAIRING_BYE),)),
    ))
    text = export_trf(event)
    assert text.splitlines()[2].endswith("    1 b 0  0000 - Z") and "XXZ 2\n" in text
    assert import_trf(text) == event and export_trf(import_trf(text)) == text
    finished = replace(event, settings=Settings(1))
    assert export_trf(finished).splitlines()[2].endswith("    1 b 0")
    half = text.replace("1 b 0  0000 - Z", "1 b 0  0000 - H")
    with pytest.raises(TrfError, match="Z for a player on XXZ"):
        import_trf(half)


def normalise(event: Event) -> Event:
    """What the TRF cannot tell apart: leading Z = late entry; counted forfeits = XXP."""
    forbidden = set(event.forbidden)
    players = []
    for player in event.players:
        joined = 1
        while joined <= len(player.history) and player.history[joined - 1].result == "Z":
            joined += 1
        players.append(replace(player, joined_round=joined, name=player.name[:33].strip()))
        if event.settings.forfeit_is_meeting:
            forbidden |= {
                (min(player.number, r.opponent), max(player.number, r.opponent))
                for r in player.history
                if r.result.forfeit
            }
    plain = replace(event.settings, forfeit_is_meeting=False)
    return replace(event, settings=plain, players=tuple(players), forbidden=frozenset(forbidden))


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 30), st.integers(0, 9), st.integers(0, 2**32 - 1))
def test_export_import_export_is_identical(players, stop, seed):
    rng = random.Random(seed)
    event = start_event(players, 9, rng)
    for before, outcome in run_event(event, rng, absent=0.1, withdraw=0.03, forfeit=0.1):
        event = before
        if isinstance(outcome, NoLegalPairing) or before.rounds_played >= stop:
            break
    text = export_trf(event)
    again = import_trf(text)
    assert export_trf(again) == text
    assert again == normalise(event)


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 30), st.integers(0, 2**32 - 1))
def test_py4swiss_reads_our_export_strictly_and_agrees(players, seed):
    """An independent parser of the same columns: points, rounds, absences, XXP, XXZ."""
    rng = random.Random(seed)
    event = start_event(players, 9, rng)
    for before, _ in run_event(event, rng, absent=0.1, withdraw=0.05, forfeit=0.1):
        event = before
        if rng.random() < 0.3:
            break

    class Text:  # py4swiss knows neither bbpPairings' points lines (BBW, ...) nor line 192
        def open(self, *args: object, **kwargs: object) -> io.StringIO:
            lines = export_trf(event).splitlines(True)
            return io.StringIO("".join(x for x in lines if not x.startswith(("BB", "192"))))

    parsed = TrfParser.parse(Text(), strict=True)  # type: ignore[arg-type]
    assert parsed.x_section.number_of_rounds == event.settings.rounds
    assert parsed.x_section.configuration.first_round_color == (
        event.settings.first_move == "first"
    )
    assert parsed.x_section.zeroed_ids == {
        p.number for p in event.players if p.status is Status.WITHDRAWN
    }
    for section, player in zip(parsed.player_sections, event.players, strict=True):
        assert section.starting_number == player.number
        left = event.rounds_played < event.settings.rounds
        extra = 1 if player.status.absence or (player.status is Status.WITHDRAWN and left) else 0
        assert len(section.results) == event.rounds_played + extra
        assert section.name == player.name
        assert [str(r.to_string()) for r in section.results[: event.rounds_played]] == [
            str(r) for r in player.history
        ]


def fide_line(fields: dict[tuple[int, int], str], cells: list[str]) -> str:
    """A player line written field by field at the FIDE 1-based columns."""
    line = [" "] * 89
    for (first, last), value in fields.items():
        line[first - 1 : last] = value.rjust(last - first + 1)
    return "".join(line) + "".join(f"  {cell}" for cell in cells)


def test_foreign_files_with_headers_and_unrated_codes_are_read():
    alpha = {
        (1, 3): "001",
        (5, 8): "1",
        (10, 10): "m",
        (15, 47): "Alpha".ljust(33),
        (49, 52): "1500",
        (54, 56): "GER",
        (58, 68): "1234567",
        (70, 79): "1990/01/01",
        (81, 84): "1.0",
        (86, 89): "1",
    }
    beta = {
        (1, 3): "001",
        (5, 8): "2",
        (10, 10): "w",
        (15, 47): "Beta".ljust(33),
        (81, 84): "0.0",
        (86, 89): "2",
    }
    text = "\n".join(
        [
            "012 Club Championship",
            "022 Somewhere",
            "042 2025/01/01",
            "",
            fide_line(alpha, ["   2 w W"]),
            fide_line(beta, ["   1 b L"]),
            "XXR 7",
            "XXS W=1.0 D=0.5",
        ]
    )
    event = import_trf(text)
    assert event.name == "Club Championship"
    assert event.player(1).history == (RoundRecord(Result.WIN, 2, True),)
    assert event.player(2).name == "Beta" and event.player(1).rating == 1500
    assert event.settings == Settings(7)


@pytest.mark.parametrize(
    ("change", "message", "line", "column"),
    [
        (
            lambda t: t.replace(" 1.0    1", " 2.0    1"),
            "has 2.0 points but the results give 1.0",
            2,
            81,
        ),
        (lambda t: t.replace("XXR 5\n", ""), "the number of rounds (XXR) is missing", None, None),
        (lambda t: t.replace("XXR 5", "XXR five"), "XXR 'five'", 6, 5),
        (lambda t: t + "XXA    1  1.0\n", "accelerated pairings are not supported", 15, 5),
        (lambda t: t + "XXA    1  0.0  1.0  0.0\n", "must give 2 values starting with 0.0", 15, 5),
        (lambda t: t + "XXA    1  0.0 -1.5\n", "gives round 1 -0.5 points", 15, 5),
        (lambda t: t + "XXA    1  0.0 +0.5\n", "XXA value '+0.5'", 15, 5),
        (lambda t: t + "XXA    9  0.0  0.5\n", "XXA names player 9, who has no '001'", 15, 5),
        (lambda t: t + "XXA    1  0.0  0.5\nXXA    1  0.0  0.5\n", "player 1 twice", 16, 5),
        (lambda t: t + "XXA    1  0.0 -0.5\n", "the results and its XXA line give 0.5", 2, 81),
        (lambda t: t + "ABC hello\n", "unknown line code 'ABC'", 15, 1),
        (lambda t: t.replace("XXC white1", "XXC rank"), "XXC option 'rank'", 7, 5),
        (lambda t: t.replace("HPB=0.5", "HPB=x"), "XXS item 'HPB=x'", 8, None),
        (lambda t: t.replace("BW=1.0", "BW=0.5"), "differently for moving first", None, None),
        (lambda t: t.replace("FW=1.0", "FL=1.0"), "'FL=1.0': losses and absences", 8, None),
        (lambda t: t.replace("FW=1.0", "QQ=1.0"), "XXS code 'QQ' is unknown", 8, None),
        (lambda t: t.replace("    3 w 1", "    3 x 1"), "colour 'x'", 2, 92),
        (lambda t: t.replace("1     3 w 1", "1 x   3 w 1"), "must start in column 92", 2, 90),
        (lambda t: t.replace("    3 w 1", "   3 w 1 "), "round entry '  3 w 1'", 2, 92),
        (lambda t: t.replace("0000 - H", "0000 - U"), "only an absence", 3, 102),
        (
            lambda t: t.replace("0000 - Z", "0000 - Z  0000 - Z  0000 - Z"),
            "player 4 has 3 round entries but player 1 only 1",
            5,
            None,
        ),
        (lambda t: t.replace("001    4", "001   x4"), "pairing number '  x4'", 5, 5),
        (lambda t: t.replace("1800", "18x0"), "rating '18x0'", 4, 49),
        (lambda t: t.replace("XXC white1", "XXC white1\nXXC black1"), "XXC appears twice", 8, 1),
        (lambda t: t + "XXP 1\n", "XXP '1' does not name two players", 15, 5),
        (lambda t: t + "XXZ 1 x\n", "'x' is not a pairing number", 15, None),
        (lambda t: t.replace("BBW  1.0", "BBW  2.0"), "the BB line gives 2.0 for a win, XXS 1.0",
         9, None),
        (lambda t: t.replace("BBU  0.5", "BBU half"), "BBU 'half' is not a number", 14, 5),
        (lambda t: t.replace("BBL  0.0", "BBL  0.5"), "BBL 0.5: losses and absences", 11, 5),
    ],
)
def test_malformed_files_are_refused_naming_line_and_column(change, message, line, column):
    with pytest.raises(TrfError) as info:
        import_trf(change(EXPECTED))
    assert message in str(info.value)
    # the lines above are counted as the file was before line 192 (the edition) came second
    assert (info.value.line, info.value.column) == (line and line + 1, column)


def test_inconsistent_games_and_empty_files_are_refused():
    with pytest.raises(InvalidEvent, match="incompatible"):
        import_trf(EXPECTED.replace("    1 b 0", "    1 b +").replace(" 0.0    3", " 1.0    3"))
    with pytest.raises(TrfError, match="no player lines"):
        import_trf("XXR 5\n")


def test_scores_beyond_the_points_column_are_refused():
    big = Settings(9, win=60)
    event = Event(
        big,
        (
            Player(1, "A", history=(RoundRecord(Result.WIN, 2, True), RoundRecord("U"))),
            Player(2, "B", history=(RoundRecord(Result.LOSS, 1, False), RoundRecord("Z"))),
        ),
    )
    assert event.points(1) == 61.0
    bigger = replace(event, settings=replace(big, bye=50))
    with pytest.raises(InvalidEvent, match=r"A \(1\) has 110.0 points; TRF columns hold 99.9"):
        export_trf(bigger)
