"""Issue #12: an oversize body to POST /api/records/ is the documented 413 JSON, decided from
Content-Length before the body is read, whoever sends it."""

import pytest
from django.test import Client
from django.urls import reverse

from games.services import MAX_RECORD_BYTES

pytestmark = pytest.mark.django_db

THREE_MB = b"1. x\n" * (3 * 1024 * 1024 // 5)


def _assert_413_json(response):
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["ok"] is False and f"{MAX_RECORD_BYTES // 1024} KB" in body["error"]["message"]


def test_three_megabytes_with_a_board_token(client, board):
    _assert_413_json(client.post(reverse("api_submit"), THREE_MB, content_type="text/plain",
                                 HTTP_AUTHORIZATION=f"Board {board.token}"))


def test_three_megabytes_from_a_session(board, arbiter):
    client = Client(enforce_csrf_checks=True)
    client.force_login(arbiter)
    _assert_413_json(client.post(f"{reverse('api_submit')}?board={board.pk}", THREE_MB,
                                 content_type="application/x-www-form-urlencoded"))


def test_just_over_the_limit_is_refused_before_the_token_is_looked_at(client, db):
    _assert_413_json(client.post(reverse("api_submit"), b"x" * (MAX_RECORD_BYTES + 1),
                                 content_type="text/plain",
                                 HTTP_AUTHORIZATION="Board no-such-token"))


def test_a_body_at_the_limit_is_read_and_judged(client, board):
    response = client.post(reverse("api_submit"), b"x" * MAX_RECORD_BYTES,
                           content_type="text/plain", HTTP_AUTHORIZATION=f"Board {board.token}")
    assert response.status_code == 422 and response.json()["ok"] is False
