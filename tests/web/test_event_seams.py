"""Where features meet: format and round count, pairing numbers, absences, removed boards.

Each test names the failure it guards against (issue #11); they drive the pages where an
arbiter would, and the services where the page only forwards.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from clocks import services as clock_services
from tournament import services
from tournament.bridges import standings_bridge
from tournament.models import Absence, Board, Event, HistoryEntry, Result


def _create(client, name, **overrides):
    """The event form as a new arbiter leaves it: defaults, plus ``overrides``."""
    form = client.get(reverse("event_create")).context["form"]
    data = {}
    for field_name in form.fields:
        value = form[field_name].value()
        if isinstance(value, bool):
            if value:
                data[field_name] = "on"
        elif value is not None:
            data[field_name] = value
    data.update(name=name, **overrides)
    response = client.post(reverse("event_create"), data)
    assert response.status_code == 302, response.content[:1000]
    return Event.objects.get(name=name)


def _enter(client, event, names, ratings=None):
    for index, name in enumerate(names):
        data = {"name": name}
        if ratings:
            data["rating"] = ratings[index]
        client.post(reverse("arbiter_players", args=[event.slug]), data)


def _pair(client, event):
    response = client.post(reverse("arbiter_round_pair", args=[event.slug]))
    assert response.status_code == 302
    event.refresh_from_db()
    return event.rounds.order_by("-number").first()


NAMES = ["Ada", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]


@pytest.mark.parametrize(("players", "rounds"), [(6, 5), (9, 9), (10, 9)])
def test_an_event_left_at_its_defaults_becomes_a_round_robin_of_the_tables_length(
        arbiter_client, players, rounds):
    event = _create(arbiter_client, f"Small {players}")
    assert event.pairing_system == Event.PairingSystem.AUTO
    _enter(arbiter_client, event, NAMES[:players])
    page = arbiter_client.get(reverse("event_home", args=[event.slug])).content.decode()
    assert "Round robin (Berger tables)" in page and f"{rounds} rounds" in page
    assert "follows the field" in page
    _pair(arbiter_client, event)
    assert event.pairing_system == Event.PairingSystem.ROUND_ROBIN
    assert event.rounds_planned == rounds
    dashboard = arbiter_client.get(reverse("arbiter_dashboard", args=[event.slug]))
    assert f"{rounds} rounds" in dashboard.content.decode()
    settled = event.history.get(action=HistoryEntry.Action.FORMAT_SETTLED)
    assert settled.details["rounds"] == rounds


def test_eleven_players_play_the_planned_swiss(arbiter_client):
    event = _create(arbiter_client, "Eleven", rounds_planned=8)
    _enter(arbiter_client, event, NAMES[:11])
    _pair(arbiter_client, event)
    assert (event.pairing_system, event.rounds_planned) == ("swiss", 8)


def test_forcing_swiss_on_a_small_field_warns_before_round_1(arbiter_client):
    event = _create(arbiter_client, "Forced", pairing_system="swiss")
    _enter(arbiter_client, event, NAMES[:8])
    page = arbiter_client.get(reverse("arbiter_dashboard", args=[event.slug])).content.decode()
    assert "may run out of legal pairings" in page


def test_the_number_of_rounds_is_fixed_at_round_1_and_changes_only_with_a_reason(
        arbiter_client):
    event = _create(arbiter_client, "Locked", rounds_planned=7)
    _enter(arbiter_client, event, NAMES)
    _pair(arbiter_client, event)
    url = reverse("arbiter_settings", args=[event.slug])
    form = arbiter_client.get(url).context["form"]
    assert form.fields["pairing_system"].disabled and form.fields["pairing_order"].disabled
    data = {k: v for k, v in form.initial.items() if v is not None and k != "tiebreaks"}
    data.update(name=event.name, publish_pairings="on", publish_standings="on",
                tiebreak_order="", rounds_planned=9, start_date="", end_date="")
    data.pop("forfeit_counts_as_meeting", None)
    refused = arbiter_client.post(url, data)
    assert refused.status_code == 200
    assert "needs a reason" in refused.content.decode()
    event.refresh_from_db()
    assert event.rounds_planned == 7
    data.update(rounds_planned=0, change_reason="typo")
    assert arbiter_client.post(url, data).status_code == 200
    data.update(rounds_planned=9, change_reason="the venue has time for two more")
    saved = arbiter_client.post(url, data)
    assert saved.status_code == 302, saved.context["form"].errors
    event.refresh_from_db()
    assert event.rounds_planned == 9
    change = event.history.get(action=HistoryEntry.Action.ROUNDS_CHANGED)
    assert change.reason == "the venue has time for two more"
    assert change.details == {"old": 7, "new": 9}
    assert "the venue has time for two more" in arbiter_client.get(url).content.decode()


def test_fewer_rounds_than_already_paired_is_refused(arbiter):
    event = services.create_event(name="Few", arbiter=arbiter, rounds_planned=7)
    for name in NAMES:
        services.add_player(event, name=name)
    services.pair_next_round(event)
    with pytest.raises(services.ServiceError, match="cannot have fewer"):
        services.update_event(event, {"rounds_planned": 0}, reason="oops")


def test_the_settings_form_offers_no_full_point_for_an_absence(arbiter_client):
    form = arbiter_client.get(reverse("event_create")).context["form"]
    offered = [str(value) for value, _label in form.fields["absence_vp"].choices if value != ""]
    assert offered == ["0.5", "0"]


def test_the_settings_page_shows_the_stored_vp_selected(arbiter_client):
    """Was: 0.0 from the database matched no option; saving sent ½ for the absence."""
    event = _create(arbiter_client, "Stored VP", bye_vp="0.5", absence_vp="0")
    html = arbiter_client.get(reverse("arbiter_settings", args=[event.slug])).content.decode()
    assert '<option value="0.5" selected>½</option>' in html
    absence = html[html.index('name="absence_vp"'):]
    assert '<option value="0" selected>0</option>' in absence[:400]


def test_pairing_numbers_follow_the_rating_at_round_1(arbiter_client):
    event = _create(arbiter_client, "Rated")
    _enter(arbiter_client, event, ["Low", "High", "None", "Mid"], ratings=[1500, 2100, "", 1800])
    _pair(arbiter_client, event)
    numbers = dict(event.players.values_list("name", "seed"))
    assert numbers == {"High": 1, "Mid": 2, "Low": 3, "None": 4}


def test_pairing_numbers_by_lot_show_their_seed_and_repeat_from_it(arbiter_client):
    from tournament.pairing import Entrant, pairing_order

    event = _create(arbiter_client, "Lot", pairing_order="lot")
    _enter(arbiter_client, event, NAMES[:8])
    entered = list(event.players.order_by("seed"))
    _pair(arbiter_client, event)
    assert event.lot_seed is not None
    again = pairing_order([Entrant(p.pk, p.name, p.rating) for p in entered], "lot",
                          event.lot_seed)
    assert list(event.players.order_by("seed").values_list("pk", flat=True)) == again
    page = arbiter_client.get(reverse("arbiter_players", args=[event.slug])).content.decode()
    assert f"seed {event.lot_seed}" in page


def _round_robin(arbiter, names):
    event = services.create_event(name="RR", arbiter=arbiter)
    for name in names:
        services.add_player(event, name=name)
    return event


def _finish(round_):
    for board, result in services.boards_with_results(round_):
        if result is None:
            services.record_result(board, Result.Kind.DOUBLE_FORFEIT, source="arbiter")


def test_a_round_robin_absence_is_one_forfeit_and_every_page_answers(arbiter, client):
    """Was: the forfeit and the absence were both results of round 1, a 500 on every page."""
    event = _round_robin(arbiter, NAMES[:6])
    ada = event.players.get(name="Ada")
    with pytest.raises(services.ServiceError, match="½ is not offered"):
        services.set_absence(ada, 1, vp="0.5")
    services.set_absence(ada, 1, reason="train delayed")
    round_ = services.pair_next_round(event)
    board = Board.objects.get(round=round_, second__isnull=False,
                              **{"first" if round_.boards.filter(first=ada).exists()
                                 else "second": ada})
    result = services.current_result(board)
    assert result.kind == Result.Kind.FORFEIT
    ada_vp = result.first_vp if board.first_id == ada.pk else result.second_vp
    assert ada_vp == Decimal("0")
    assert not Absence.objects.filter(player=ada).exists()
    assert event.history.filter(action=HistoryEntry.Action.ABSENCE_FORFEITED,
                                reason="train delayed").exists()
    services.publish_round(round_)
    _finish(round_)
    table = standings_bridge.standings(event)
    assert table.rounds == 1 and table.row(ada.pk).vp == 0
    for name in ("event_pairings", "event_standings", "event_crosstable", "event_projector"):
        assert client.get(reverse(name, args=[event.slug])).status_code == 200
    assert client.get(reverse("event_standings", args=[event.slug]) + "?_export=csv"
                      ).status_code == 200


def test_a_withdrawn_round_robin_player_gets_no_bye_point(arbiter):
    event = _round_robin(arbiter, NAMES[:5])
    first = services.pair_next_round(event)
    services.publish_round(first)
    _finish(first)
    bye_later = next(p for p in event.players.all()
                     if not first.boards.filter(first=p, second__isnull=True).exists())
    services.withdraw_player(bye_later, reason="ill")
    for _number in range(2, 6):
        round_ = services.pair_next_round(event)
        services.publish_round(round_)
        assert not round_.boards.filter(first=bye_later, second__isnull=True).exists()
        _finish(round_)
    assert standings_bridge.standings(event).row(bye_later.pk).vp == 0


def test_stored_data_the_core_refuses_shows_the_last_consistent_standings(
        arbiter, client):
    """An old backup may hold an absence beside a board of the same round."""
    event = _round_robin(arbiter, NAMES[:4])
    for _number in range(2):
        round_ = services.pair_next_round(event)
        services.publish_round(round_)
        _finish(round_)
    ada = event.players.get(name="Ada")
    Absence.objects.create(player=ada, round_number=2, vp=Decimal("0"))
    page = client.get(reverse("event_standings", args=[event.slug]))
    assert page.status_code == 200
    assert "being checked by the arbiter" in page.content.decode()
    assert page.context["after"] == 1
    client.force_login(arbiter)
    dashboard = client.get(reverse("arbiter_dashboard", args=[event.slug])).content.decode()
    assert "Round 2: Ada has 2 results" in dashboard
    for document in ("standings", "crosstable", "pairings"):
        pdf = client.get(reverse("print_document", args=[event.slug, document]) + "?round=2")
        assert pdf.status_code == 200, document


def _started_clock(board):
    clock_services.clock_for(board)
    clock_services.start(board, who="arbiter")


def test_pairing_again_asks_before_removing_a_started_clock_and_keeps_a_copy(
        arbiter_client, arbiter):
    event = services.create_event(name="Clocked", arbiter=arbiter, rounds_planned=5)
    for name in NAMES:
        services.add_player(event, name=name)
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    board = Board.objects.get(round=round_, number=1)
    _started_clock(board)
    url = reverse("arbiter_round_action", args=[event.slug, 1, "repair"])
    asked = arbiter_client.post(url, {"reason": "wrong player entered"})
    assert asked.status_code == 409
    assert "board 1: a running clock" in asked.content.decode()
    assert Board.objects.filter(pk=board.pk).exists()
    done = arbiter_client.post(url, {"reason": "wrong player entered", "confirm": "1"})
    assert done.status_code == 302
    assert not Board.objects.filter(pk=board.pk).exists()
    entry = event.history.get(action=HistoryEntry.Action.ROUND_REPAIRED)
    kept = entry.details["removed_attachments"]
    assert [(a["board"], a["kind"]) for a in kept] == [(1, "clock")]
    assert kept[0]["snapshot"]["log"][0]["action"] == "start"


def test_a_hand_edit_asks_before_removing_a_stored_record_and_refuses_absent_players(
        arbiter_client, arbiter):
    from games.models import GameRecord

    event = services.create_event(name="Edited", arbiter=arbiter, rounds_planned=5)
    for name in NAMES:
        services.add_player(event, name=name)
    services.set_absence(event.players.get(name="Lu"), 1, vp="0.5")
    round_ = services.pair_next_round(event)
    board = round_.boards.get(number=2)
    GameRecord.objects.create(board=board, text="[Event \"x\"]", digest="d" * 64)
    url = reverse("arbiter_round_action", args=[event.slug, 1, "edit"])
    data = {"first": board.first_id, "second": board.second_id, "board": 2,
            "reason": "players swapped seats"}
    asked = arbiter_client.post(url, data)
    assert asked.status_code == 409 and "a stored game record" in asked.content.decode()
    assert arbiter_client.post(url, {**data, "confirm": "1"}).status_code == 302
    assert event.history.filter(action=HistoryEntry.Action.PAIRING_EDITED).exists()
    lu = event.players.get(name="Lu")
    refused = arbiter_client.post(url, {**data, "second": lu.pk}, follow=True)
    assert "asked to be absent in round 1" in refused.content.decode()
    junk = arbiter_client.post(url, {**data, "board": "two"})
    assert junk.status_code == 400 and "is not a whole number" in junk.content.decode()


def test_a_service_refusal_that_a_view_did_not_expect_is_a_409(rf, monkeypatch):
    from tournament.site.middleware import RefusalMiddleware

    middleware = RefusalMiddleware(lambda request: None)
    stale = services.StaleResult("changed by someone else")
    page = middleware.process_exception(rf.get("/e/x/arbiter/"), stale)
    assert page.status_code == 409 and b"changed by someone else" in page.content
    api = middleware.process_exception(rf.post("/api/records/"), stale)
    assert api.status_code == 409 and api["Content-Type"] == "application/json"
    assert middleware.process_exception(rf.get("/"), KeyError("x")) is None


def test_settings_and_standings_say_which_reading_of_progressive_the_event_uses(
        arbiter_client, arbiter):
    event = services.create_event(name="Readings", arbiter=arbiter)
    standings_url = reverse("event_standings", args=[event.slug])
    settings_url = reverse("arbiter_settings", args=[event.slug])
    assert "colour by colour" in arbiter_client.get(standings_url).content.decode()
    event.tiebreaks = ["head_to_head", "lowest_colour_difference_cumulative",
                       "lowest_colour_level_cumulative"]
    event.save()
    for url in (standings_url, settings_url):
        page = arbiter_client.get(url).content.decode()
        assert "cumulative (the chess reading)" in page
        assert "colour by colour:" not in page


def test_the_player_page_counts_a_granted_absence_in_the_total(arbiter, client):
    event = services.create_event(name="Absent Page", arbiter=arbiter)
    for name in NAMES:
        services.add_player(event, name=name)
    ada = event.players.get(name="Ada")
    services.set_absence(ada, 1, vp="0.5")
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    page = client.get(reverse("player_detail", args=[event.slug, ada.pk]))
    rows = page.context["games"]
    assert [(g["round"], g["vp"], g["total"]) for g in rows] == [
        (1, Decimal("0.5"), Decimal("0.5"))]
    assert "absent (requested)" in page.content.decode()
