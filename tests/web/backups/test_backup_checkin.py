"""Backups carry the check-in: the event's settings, cards, check-ins and confirmations;
version 3 files still import; a crafted file gets a precise error and writes nothing."""

import copy
import json
from datetime import timedelta

import pytest
from django.utils import timezone

from backups import document
from tournament.boards import player_codes
from tournament.models import CheckIn, Confirmation, Event, PlayerCard
from tournament.services import checkin

pytestmark = pytest.mark.django_db

SCORES_A = {"R": 12, "G": 10, "B": 9, "O": 14, "Y": 11, "P": 13}
SCORES_B = {"R": 8, "G": 15, "B": 7, "O": 12, "Y": 10, "P": 9}


@pytest.fixture
def checked_event(played_event, arbiter):
    Event.objects.filter(pk=played_event.pk).update(
        checkin=Event.CheckIn.EVERY_ROUND, checkin_open=False, kiosk_generation=3,
        checkin_closes_at=timezone.now() + timedelta(hours=1))
    event = Event.objects.get(pk=played_event.pk)
    players = list(event.players.order_by("seed"))
    player_codes.issue_card(players[0])  # the first card (given when entered) revoked
    CheckIn.objects.create(player=players[0], round_number=1, via="kiosk", user=arbiter)
    CheckIn.objects.create(player=players[1], round_number=2, via="card")
    board = event.rounds.get(number=3).boards.filter(second__isnull=False).first()
    Confirmation.objects.create(board=board, seat="first", first_scores=SCORES_A,
                                second_scores=SCORES_B, at=timezone.now(), via="card")
    return event


def _round_trip(data):
    return json.loads(json.dumps(data))


def test_checkin_travels_and_exports_the_same(checked_event):
    data = document.export_event(checked_event)
    assert data["version"] == document.VERSION
    assert data["event"]["checkin"] == "every_round" and data["event"]["checkin_open"] is False
    assert data["event"]["kiosk_generation"] == 3 and data["event"]["checkin_closes_at"]
    first = data["players"][0]
    assert len(first["cards"]) == 2 and first["checkins"][0]["via"] == "kiosk"
    codes = {c.key: player_codes.code_for(c) for c in PlayerCard.objects.all()}
    Event.objects.filter(pk=checked_event.pk).delete()
    restored = document.import_event(_round_trip(data))
    again = document.export_event(restored)
    assert again == data
    # the same keys on the same server: the printed codes still open the pages
    for code in codes.values():
        card = PlayerCard.objects.get(key=code[:6])
        if card.revoked_at is None:
            assert player_codes.player_for_code(code).event_id == restored.pk
    assert Confirmation.objects.get().first_scores == SCORES_A


def test_a_copy_beside_the_original_gets_new_card_keys(checked_event):
    data = document.export_event(checked_event)
    copy_ = document.import_event(_round_trip(data), slug="copy")
    keys = set(PlayerCard.objects.filter(player__event=checked_event).values_list("key",
                                                                                  flat=True))
    new = set(PlayerCard.objects.filter(player__event=copy_).values_list("key", flat=True))
    assert len(new) == len(keys) and not keys & new


def test_a_version_3_file_still_imports(played_event):
    data = document.export_event(played_event)
    data["version"] = 3
    for name in ("checkin_open", "kiosk_generation", "checkin_closes_at"):
        del data["event"][name]
    for player in data["players"]:
        del player["cards"], player["checkins"]
    for round_ in data["rounds"]:
        for board in round_["boards"]:
            del board["confirmations"]
    event = document.import_event(data, slug="older")
    assert event.checkin_open is True and event.kiosk_generation == 0
    assert event.checkin_closes_at is None


def _mangle(data, where, key, value):
    target = data
    for step in where:
        target = target[step]
    target[key] = value


@pytest.mark.parametrize(("where", "key", "value", "message"), [
    (("event",), "checkin_open", "yes", "event.checkin_open: expected true or false"),
    (("event",), "kiosk_generation", -1, "event.kiosk_generation"),
    (("event",), "kiosk_generation", True, "event.kiosk_generation: expected a whole number"),
    (("event",), "checkin", "sometimes", "event.checkin"),
    (("event",), "checkin_closes_at", "tomorrow", "event.checkin_closes_at"),
    (("players", 0, "cards", 0), "key", "abc", "players[0].cards[0].key"),
    (("players", 0, "cards", 0), "key", "OOOOOO", "players[0].cards[0].key"),
    (("players", 0, "cards", 0), "revoked_at", None, "players[0].cards: more than one card"),
    (("players", 0, "cards", 0), "issued_at", 5, "players[0].cards[0].issued_at"),
    (("players", 0, "checkins", 0), "via", "telepathy", "players[0].checkins[0].via"),
    (("players", 0, "checkins", 0), "round", 0, "players[0].checkins[0].round_number"),
    (("players", 0, "checkins", 0), "round", "1", "players[0].checkins[0].round"),
    (("players", 0, "checkins", 0), "at", None, "players[0].checkins[0].at"),
])
def test_crafted_checkin_fields_are_refused_precisely(checked_event, where, key, value,
                                                      message):
    data = document.export_event(checked_event)
    _mangle(data, where, key, value)
    before = (Event.objects.count(), PlayerCard.objects.count(), CheckIn.objects.count())
    with pytest.raises(document.BackupError, match=message.replace("[", r"\[").replace(
            "]", r"\]").replace(".", r"\.")):
        document.import_event(data, slug="crafted")
    assert (Event.objects.count(), PlayerCard.objects.count(),
            CheckIn.objects.count()) == before


def _confirmations(data):
    for r_index, round_ in enumerate(data["rounds"]):
        for b_index, board in enumerate(round_["boards"]):
            if board["confirmations"]:
                return r_index, b_index, board["confirmations"]
    raise AssertionError("no confirmation")


@pytest.mark.parametrize(("change", "message"), [
    (lambda c: c[0].update(seat="third"), "seat"),
    (lambda c: c[0].update(first_scores={"R": 19, "G": 1, "B": 1, "O": 1, "Y": 1, "P": 1}),
     "first_scores: six colour scores"),
    (lambda c: c[0].update(second_scores=[1, 2, 3]), "second_scores: expected an object"),
    (lambda c: c[0].update(via="pigeon"), "via"),
    (lambda c: c[0].update(at="yesterday"), ".at"),
    (lambda c: c.append(copy.deepcopy(c[0])), "the first seat confirmed twice"),
])
def test_crafted_confirmations_are_refused(checked_event, change, message):
    data = document.export_event(checked_event)
    r_index, b_index, confirmations = _confirmations(data)
    change(confirmations)
    with pytest.raises(document.BackupError) as refused:
        document.import_event(data, slug="crafted")
    assert f"rounds[{r_index}].boards[{b_index}].confirmations" in str(refused.value)
    assert message in str(refused.value)
    assert not Event.objects.filter(slug="crafted").exists()


def test_a_bye_with_confirmations_is_refused(arbiter):
    from tournament import services

    event = services.create_event(name="Three", arbiter=arbiter)
    for name in ("Ada", "Ben", "Cy"):
        services.add_player(event, name=name)
    services.pair_next_round(event)
    data = document.export_event(event)
    bye = next(b for r in data["rounds"] for b in r["boards"] if b["second"] is None)
    bye["confirmations"] = [{"seat": "first", "first_scores": SCORES_A,
                             "second_scores": SCORES_B, "at": timezone.now().isoformat(),
                             "via": "card"}]
    with pytest.raises(document.BackupError, match="a bye has no scores to confirm"):
        document.import_event(data, slug="crafted")


def test_a_key_used_twice_in_the_file(checked_event):
    data = document.export_event(checked_event)
    data["players"][1]["cards"][0]["key"] = data["players"][0]["cards"][0]["key"]
    with pytest.raises(document.BackupError, match=r"players\[1\]\.cards\[0\]\.key: the same "
                                                   r"key as players\[0\]\.cards\[0\]\.key"):
        document.import_event(data, slug="crafted")


def test_checkins_survive_for_the_service(checked_event):
    data = document.export_event(checked_event)
    restored = document.import_event(_round_trip(data), slug="again")
    assert CheckIn.objects.filter(player__event=restored).count() == 2
    assert checkin.summary(restored).round == 4
