"""The cores' refusals reach people in their language (issue #14).

The engine, the time-control grammar and the tiebreak list say what is wrong as a code and
params; the shell has one msgid per code (``games.engine_messages``,
``tournament.texts.core_messages``). The first tests fail when a code has no msgid or a msgid's
placeholders are not the code's params (so a new raise site needs its translation); the others
follow a refusal to the pages that show it: the record submission page, the live scoresheet,
the JSON API and the event settings form.
"""

from __future__ import annotations

import json
import random
from string import Formatter

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from clocks.core.timecontrol import MESSAGES as TIME_CONTROL_MESSAGES
from games.dealt import REFUSALS
from games.engine import Game, IllegalActionError, format_record, random_game
from games.engine.messages import MESSAGES, param_names
from games.engine_messages import JSON_DETAILS, MOVE_MSGIDS, MSGIDS, engine_text
from tournament import services
from tournament.inputs.json_input import ENGLISH as JSON_ENGLISH
from tournament.models import Board, Event, Player
from tournament.pairing import PAIRING_WARNINGS
from tournament.standings.errors import TIEBREAK_MESSAGES
from tournament.texts.core_messages import (
    JSON_MSGIDS,
    PAIRING_WARNING_MSGIDS,
    TIEBREAK_MSGIDS,
    TIME_CONTROL_MSGIDS,
    say,
)

LANGUAGES = [code for code, _name in settings.LANGUAGES]


class Marker(int):
    """A param value that prints as ``<name>``: an int, so that ngettext can count it (5 picks
    a plural form in every shipped language)."""

    def __new__(cls, name: str) -> Marker:
        marker = super().__new__(cls, 5)
        marker.name = name
        return marker

    def __str__(self) -> str:
        return f"<{self.name}>"


def markers(names) -> dict[str, Marker]:
    return {name: Marker(name) for name in names}


TABLES = [
    ("engine", MSGIDS, MESSAGES),
    ("time control", TIME_CONTROL_MSGIDS, TIME_CONTROL_MESSAGES),
    ("tiebreaks", TIEBREAK_MSGIDS, TIEBREAK_MESSAGES),
    ("online moves", MOVE_MSGIDS, REFUSALS),
    ("pairing warnings", PAIRING_WARNING_MSGIDS, PAIRING_WARNINGS),
    ("JSON input", JSON_MSGIDS, JSON_ENGLISH),
]


@pytest.mark.parametrize(("core", "msgids", "english"), TABLES, ids=[t[0] for t in TABLES])
def test_every_code_has_a_msgid_with_the_params_as_placeholders(core, msgids, english):
    assert set(msgids) == set(english), f"{core}: codes and msgids differ"
    for code in english:
        names = param_names_of(english[code])
        for language in LANGUAGES:
            with translation.override(language):
                text = say(msgids, code, markers(names))  # a placeholder without a param: KeyError
            missing = [name for name in names if f"<{name}>" not in text]
            assert not missing, f"{core} {code} [{language}]: {missing} not shown in {text!r}"


def param_names_of(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name}


def test_the_english_msgids_say_what_the_engine_says():
    """The shell's English is the engine's English (placeholders aside): one text, not two."""
    for code, template in MESSAGES.items():
        params = markers(param_names(code))
        with translation.override("en"):
            shell = say(MSGIDS, code, params)
        assert shell == template.format(**params), code


def test_a_nested_reason_is_translated_too():
    game = Game()
    game.place("A", "e1R-f2O")
    with pytest.raises(IllegalActionError) as caught:
        game.place("A", "j10P-k10P")
    with translation.override("ru"):
        assert engine_text(caught.value) == (
            "не тот игрок: A не может выложить фишку; ходит игрок B")
    with translation.override("ko"):
        assert engine_text(caught.value) == (
            "차례가 아닌 좌석: A은(는) 타일을 놓을 수 없습니다. 좌석 B의 차례입니다")
    with translation.override("en"):
        assert engine_text(caught.value) == caught.value.reason


BROKEN_JSON = ['', '{', '{"a" 1}', '[1 2]', '{"a": 1} x', '"abc', '"a\x01"', '"\\q"',
               '"\\u12"']


def test_what_the_json_parser_says_is_translated_too():
    """The detail of 'not valid JSON' comes from Python's parser; every text it gives for these
    inputs is in the shell's list (a Python whose wording changed is noticed here)."""
    said = set()
    for text in BROKEN_JSON:
        with pytest.raises(json.JSONDecodeError) as caught:
            json.loads(text)
        said.add(caught.value.msg)
    assert said == set(JSON_DETAILS)
    for language in LANGUAGES[1:]:
        with translation.override(language):
            untranslated = [key for key, text in JSON_DETAILS.items() if str(text) == key]
        assert not untranslated, (language, untranslated)


# --- the pages ----------------------------------------------------------------------------

@pytest.fixture
def board(event):
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    return Board.objects.filter(round=round_, second__isnull=False).first()


def good_record(board) -> str:
    """A finished, valid record of this board."""
    tags = {"Event": board.round.event.name, "Round": str(board.round.number),
            "Board": str(board.number), "First": board.first.name,
            "Second": board.second.name}
    return format_record(random_game(random.Random(3), tags=tags).record)


def bad_record(board) -> str:
    """The record with its first line entered for the wrong seat."""
    return good_record(board).replace("1. A ", "1. B ", 1)


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "reason"), [
    ("ru", "не тот игрок: B не может выложить фишку; ходит игрок A"),
    ("ko", "차례가 아닌 좌석: B은(는) 타일을 놓을 수 없습니다. 좌석 A의 차례입니다"),
])
def test_the_record_submission_page_gives_the_reason_in_the_players_language(
        client, board, language, reason):
    url = reverse("player_submit", args=[board.token])
    response = client.post(url, {"record": bad_record(board)}, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    page = response.content.decode()
    assert reason in page and 'class="line bad"' in page
    assert "wrong seat" not in page


@pytest.mark.django_db
def test_the_arbiters_page_follows_the_language_cookie(arbiter_client, board):
    arbiter_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    url = reverse("arbiter_submit", args=[board.round.event.slug, board.pk])
    page = arbiter_client.post(url, {"record": bad_record(board)}).content.decode()
    assert "не тот игрок: B не может выложить фишку" in page


@pytest.mark.django_db
def test_the_live_scoresheet_refuses_in_the_players_language(client, board):
    url = reverse("live_state", args=[board.token])
    entry = {"entry": {"seat": "A", "action": "place", "placement": "e1R-f2O"}, "version": 0}
    client.post(url, entry, content_type="application/json")
    again = {"entry": {"seat": "B", "action": "place", "placement": "e1R-f2O"}, "version": 1}
    refused = client.post(url, again, content_type="application/json",
                          HTTP_ACCEPT_LANGUAGE="ko")
    assert refused.status_code == 409
    assert refused.json()["error"] == "칸 'e1'은(는) 이미 차 있습니다(R)"
    wrong = {"entry": {"seat": "A", "action": "place", "placement": "j10P-k10P"}, "version": 1}
    refused = client.post(url, wrong, content_type="application/json",
                          HTTP_ACCEPT_LANGUAGE="ru")
    assert refused.json()["error"] == "не тот игрок: A не может выложить фишку; ходит игрок B"


@pytest.mark.django_db
def test_the_api_gives_a_code_and_the_message_in_the_requested_language(client, board):
    """A digital board keys on ``code``; ``message`` follows Accept-Language (English
    without one), like every other message of the API."""
    url = reverse("api_submit")
    body = bad_record(board)
    auth = {"HTTP_AUTHORIZATION": f"Board {board.token}"}
    english = client.post(url, body, content_type="text/plain", **auth)
    assert english.status_code == 422
    assert english.json()["error"] == {
        "line": body.splitlines().index(next(line for line in body.splitlines()
                                             if line.startswith("1. B "))) + 1,
        "code": "wrong_seat",
        "message": "wrong seat to act: B cannot place a tile; seat A is to act",
    }
    russian = client.post(url, body, content_type="text/plain", HTTP_ACCEPT_LANGUAGE="ru",
                          **auth)
    assert russian.json()["error"]["code"] == "wrong_seat"
    assert russian.json()["error"]["message"] == (
        "не тот игрок: B не может выложить фишку; ходит игрок A")
    header = client.post(url, good_record(board).replace('[Round "1"]', '[Round "7"]'),
                         content_type="text/plain", **auth)
    assert header.status_code == 422 and header.json()["error"]["code"] == "tag_mismatch"
    broken = client.post(url, '{"tags": {}, "actions": [1 2]}', content_type="text/plain",
                         HTTP_ACCEPT_LANGUAGE="ru", **auth)
    assert broken.status_code == 422 and broken.json()["error"] == {
        "line": 1, "code": "json_invalid",
        "message": "некорректный JSON: ожидается разделитель «,»"}
    token = client.post(url, body, content_type="text/plain", HTTP_ACCEPT_LANGUAGE="ko",
                        HTTP_AUTHORIZATION="Board nonsense-token")
    assert token.status_code == 403 and token.json()["error"]["code"] == "token_refused"
    assert token.json()["error"]["line"] is None and token.json()["error"]["message"]


def _settings_data(arbiter_client, event, **changes):
    url = reverse("arbiter_settings", args=[event.slug])
    form = arbiter_client.get(url).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k != "tiebreaks"}
    data.update({"name": event.name, "tiebreak_order": ", ".join(event.tiebreaks),
                 "start_date": "", "end_date": "", **changes})
    data.pop("forfeit_counts_as_meeting", None)
    return url, data


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "value", "shown"), [
    ("ru", "600+100000", "неверный контроль времени &#x27;600+100000&#x27;: добавка — от 0 "
                         "до 86400 секунд, а не 100000"),
    ("ko", "10m", "잘못된 제한 시간 &#x27;10m&#x27;: 플레이어당 초를 쓰고"),
    ("en", "0", "invalid time control &#x27;0&#x27;: the time per player must be at least 1 "
                "second, got 0"),
])
def test_a_bad_time_control_is_explained_in_the_arbiters_language(
        arbiter_client, event, language, value, shown):
    url, data = _settings_data(arbiter_client, event, time_control=value)
    arbiter_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = arbiter_client.post(url, data)
    assert response.status_code == 200
    assert shown in response.content.decode()


@pytest.mark.django_db
def test_an_unknown_tiebreak_is_explained_in_the_arbiters_language(arbiter_client, event):
    url, data = _settings_data(arbiter_client, event, tiebreak_order="head_to_head, luck")
    response = arbiter_client.post(url, data, HTTP_ACCEPT_LANGUAGE="ru")
    assert "неизвестный дополнительный показатель &#x27;luck&#x27;" in response.content.decode()


@pytest.mark.django_db
def test_event_and_player_names_have_their_own_words():
    with translation.override("ru"):
        assert str(Event._meta.get_field("name").verbose_name) == "название"
        assert str(Player._meta.get_field("name").verbose_name) == "имя"
