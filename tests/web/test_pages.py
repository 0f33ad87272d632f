"""Whole events driven through the web pages, as an arbiter at the desk would."""

import io
import json
import random

import pytest
from django.core.management import call_command
from django.db.models import Q
from django.urls import reverse

from games import simulation
from tournament import services
from tournament.bridges import standings_bridge
from tournament.models import Board, Event, Result

pytestmark = pytest.mark.django_db
COLOURS = "RGBOYP"


def slip(rng):
    return {c: rng.randint(0, 18) for c in COLOURS}


def enter_round_by_slips(client, event, number, rng):
    url = reverse("arbiter_results", args=[event.slug, number])
    for board in Board.objects.filter(round__event=event, round__number=number,
                                      second__isnull=False):
        data = {"board_id": board.pk}
        for seat in ("first", "second"):
            data.update({f"{seat}_{c}": v for c, v in slip(rng).items()})
        response = client.post(url, data)
        assert response.status_code == 302, response.content[:500]


def run_from_pages(client, event, rng):
    for number in range(1, event.rounds_planned + 1):
        response = client.post(reverse("arbiter_round_pair", args=[event.slug]))
        assert response.status_code == 302
        assert response["Location"] == reverse("arbiter_round", args=[event.slug, number])
        client.post(reverse("arbiter_round_action", args=[event.slug, number, "publish"]))
        enter_round_by_slips(client, event, number, rng)
    client.post(reverse("arbiter_round_action", args=[event.slug, event.rounds_planned,
                                                      "close"]))


def create_from_pages(client, name, players, system, rounds):
    """The new-event form as served (its defaults), with the name, system and rounds set."""
    form = client.get(reverse("event_create")).context["form"]
    data = {}
    for field_name in form.fields:
        value = form[field_name].value()
        if value is True:
            data[field_name] = "on"
        elif value is not None and value is not False:
            data[field_name] = value
    data.update(name=name, pairing_system=system, rounds_planned=rounds)
    response = client.post(reverse("event_create"), data)
    assert response.status_code == 302, response.content[:2000]
    event = Event.objects.get(name=name)
    for index in range(players):
        client.post(reverse("arbiter_players", args=[event.slug]),
                    {"name": f"Player {index + 1:02d}", "club": "Club"})
    assert event.players.count() == players
    return event


def test_a_nine_player_round_robin_from_the_web_pages(arbiter_client):
    event = create_from_pages(arbiter_client, "Nine RR", 9, "round_robin", 9)
    run_from_pages(arbiter_client, event, random.Random(1))
    pairs = set()
    for board in Board.objects.filter(round__event=event, second__isnull=False):
        pairs.add(frozenset((board.first_id, board.second_id)))
    assert len(pairs) == 36  # everyone met everyone once
    assert event.rounds.filter(status="closed").count() == 9
    page = arbiter_client.get(reverse("event_standings", args=[event.slug]))
    assert page.status_code == 200
    table = standings_bridge.standings(event)
    assert sum(row.vp for row in table) == 36 + 9  # 36 games and nine 1-VP byes
    assert table.rows[0].name.encode() in page.content


def test_a_forty_player_seven_round_swiss_from_the_web_pages(arbiter_client):
    event = create_from_pages(arbiter_client, "Forty Swiss", 40, "swiss", 7)
    run_from_pages(arbiter_client, event, random.Random(2))
    seen = set()
    for board in Board.objects.filter(round__event=event, second__isnull=False):
        pair = frozenset((board.first_id, board.second_id))
        assert pair not in seen, "rematch"
        seen.add(pair)
    assert Result.objects.filter(board__round__event=event, status="accepted").count() == 140
    response = arbiter_client.get(reverse("event_crosstable", args=[event.slug]))
    assert response.status_code == 200


def test_slip_entry_refuses_an_impossible_score_and_keeps_the_input(arbiter_client,
                                                                    played_event):
    board = Board.objects.filter(round__event=played_event, round__number=3,
                                 second__isnull=False).first()
    data = {"board_id": board.pk, **{f"first_{c}": 5 for c in COLOURS},
            **{f"second_{c}": 5 for c in COLOURS}}
    data["second_Y"] = 19
    url = reverse("arbiter_results", args=[played_event.slug, 3])
    response = arbiter_client.post(url, data)
    assert response.status_code == 200
    assert b"18" in response.content and b'value="19"' in response.content
    assert not Result.objects.filter(board=board).exists()


def test_find_yourself_names_board_opponent_and_first_move(client, played_event):
    board = Board.objects.filter(round__event=played_event, round__number=3,
                                 second__isnull=False).first()
    response = client.get(reverse("event_home", args=[played_event.slug]),
                          {"q": board.first.name})
    text = response.content.decode()
    assert f"board {board.number}" in text and board.second.name in text
    assert "you play first" in text


@pytest.mark.parametrize("typed", ["bjorn", "Wojcik", "sean", "Elodie", "Zoe", "ZOË", "lund",
                                   "rn Ny"])
def test_find_yourself_ignores_accents_and_case_and_matches_any_part(client, event, typed):
    for name in ("Björn Nylund", "Łukasz Wójcik", "Seán Ó Briain", "Élodie Dubois", "Zoë Ball"):
        services.add_player(event, name=name)
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    wanted = {"bjorn": "Björn Nylund", "Wojcik": "Łukasz Wójcik", "sean": "Seán Ó Briain",
              "Elodie": "Élodie Dubois", "Zoe": "Zoë Ball", "ZOË": "Zoë Ball",
              "lund": "Björn Nylund", "rn Ny": "Björn Nylund"}[typed]
    text = client.get(reverse("event_home", args=[event.slug]), {"q": typed}).content.decode()
    board = Board.objects.get(Q(first__name=wanted) | Q(second__name=wanted), round=round_)
    assert f"<strong><bdi>{wanted}</bdi></strong>" in text
    assert ("bye" if board.is_bye else f"board {board.number}") in text


def test_name_folding_spells_letters_that_do_not_decompose():
    from tournament.inputs.name_search import folded

    assert folded("  Søren  ŁÓDŹ Æsa ") == "soren lodz aesa"
    assert folded("Straße") == folded("STRASSE")


def test_standings_page_query_count_does_not_grow_with_the_event(client, arbiter,
                                                                 django_assert_max_num_queries):
    counts = []
    for players in (6, 24):
        rng = random.Random(players)
        event = simulation.create_event(f"Q{players}", players, rng, rounds=3, arbiter=arbiter)
        for _ in range(3):
            round_ = services.pair_next_round(event)
            services.publish_round(round_)
            for board, result in services.boards_with_results(round_):
                if result is None:
                    services.record_result(board, "played", first_scores=slip(rng),
                                           second_scores=slip(rng))
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as ctx:
            assert client.get(reverse("event_standings", args=[event.slug])).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1] and counts[0] <= 12, counts


def test_tables_download_as_csv_and_xlsx(client, played_event):
    url = reverse("event_standings", args=[played_event.slug])
    csv = client.get(url, {"_export": "csv"})
    assert csv["Content-Type"].startswith("text/csv")
    header = csv.content.decode().splitlines()[0]
    assert header.startswith("Rank,Name,Club,VP") and "H2H" in header
    xlsx = client.get(url, {"_export": "xlsx"})
    assert xlsx.content[:2] == b"PK"


def test_drafted_pairings_are_hidden_from_the_public(arbiter, played_event):
    from django.test import Client

    client, arbiter_client = Client(), Client()
    arbiter_client.force_login(arbiter)
    url = reverse("event_pairings", args=[played_event.slug])
    assert b"Round 3" in client.get(url).content
    for board, result in services.boards_with_results(played_event.rounds.get(number=3)):
        if result is None:
            services.record_result(board, "double_forfeit")
    services.pair_next_round(played_event)
    assert client.get(url, {"round": 4}).status_code == 404
    assert arbiter_client.get(url, {"round": 4}).status_code == 200


def test_simulate_event_json_round_robin(capsys):
    call_command("simulate_event", players=6, seed=4, json=True)
    data = json.loads(capsys.readouterr().out)
    assert len(data["standings"]) == 6 and len(data["games"]) == 15 and data["byes"] == []
    assert [row["rank"] for row in data["standings"]] == sorted(
        row["rank"] for row in data["standings"])
    assert sum(row["vp"] for row in data["standings"]) == 15
    game = data["games"][0]
    assert set(game["first_scores"]) == set(COLOURS) and game["first_vp"] + game["second_vp"] == 1


def test_simulate_event_swiss_with_odd_players_gives_byes(capsys):
    call_command("simulate_event", players=13, rounds=4, seed=9, json=True)
    data = json.loads(capsys.readouterr().out)
    assert len(data["byes"]) == 4 and len({b["player"] for b in data["byes"]}) == 4
    assert len(data["games"]) == 24


def test_the_standings_say_what_decided_between_equal_vp(client, arbiter):
    """#23: the two winners tie on VP, on H2H (they did not meet) and on the lowest colour's
    difference; the 4th-lowest colour decides. The page, its CSV and the PDF say so."""
    from pypdf import PdfReader

    event = services.create_event(name="Tied Open", arbiter=arbiter, rounds_planned=7)
    for name in ("Ada", "Ben", "Cy", "Di"):
        services.add_player(event, name=name)
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    loser = dict(zip("RGBOYP", [4, 11, 13, 9, 8, 6], strict=True))
    one, two = round_.boards.exclude(second=None).order_by("number")
    services.record_result(one, "played", second_scores=loser,
                           first_scores=dict(zip("RGBOYP", [5, 9, 12, 7, 7, 10], strict=True)))
    services.record_result(two, "played", second_scores=loser,
                           first_scores=dict(zip("RGBOYP", [5, 8, 12, 7, 7, 10], strict=True)))
    url = reverse("event_standings", args=[event.slug])
    said = f"Diff, 4th-lowest colour: −1 against 0 ({one.first.name})"
    page = client.get(url).content.decode()
    assert f"<details><summary>Diff</summary>{said}</details>" in page
    assert "higher is better" in page
    assert said in client.get(url, {"_export": "csv"}).content.decode()
    pdf = client.get(reverse("print_document", args=[event.slug, "standings"])).content
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "Decided by" in text and "4th-lowest colour" in text


def test_a_withdrawn_player_is_marked_and_every_kind_of_crosstable_cell_explained(
        client, played_event):
    """#23 item 5: standings (page, PDF) and crosstable (page, PDF) say who withdrew and
    when; the crosstable's legend explains an empty cell; exports keep the bare name."""
    from pypdf import PdfReader

    rng = random.Random(3)
    for board, result in services.boards_with_results(played_event.rounds.get(number=3)):
        if result is None:
            services.record_result(board, "played", first_scores=slip(rng),
                                   second_scores=slip(rng))
    leaving = played_event.players.order_by("seed").last()
    services.withdraw_player(leaving, reason="train home")
    leaving.refresh_from_db()
    mark = f"withdrawn after round {leaving.withdrawn_after_round}"
    slug = played_event.slug
    for name in ("event_standings", "event_crosstable"):
        page = client.get(reverse(name, args=[slug]), {"round": 3}).content.decode()
        assert f'<span class="muted withdrawn">{mark}</span>' in page, name
    crosstable = client.get(reverse("event_crosstable", args=[slug]), {"round": 3})
    assert "Not in the event that round" in crosstable.content.decode()
    csv_names = client.get(reverse("event_standings", args=[slug]),
                           {"round": 3, "_export": "csv"}).content.decode()
    assert leaving.name in csv_names and mark not in csv_names
    for document in ("standings", "crosstable"):
        pdf = client.get(reverse("print_document", args=[slug, document]), {"round": 3}).content
        text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
        text = " ".join(text.split())
        assert f"{leaving.name} †" in text, document
        assert f"† withdrawn: {leaving.name} after round 3" in text, document
