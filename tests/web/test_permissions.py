"""Arbiter pages: anonymous users are sent to log in, other users get 403, arbiters get in."""

import pytest
from django.urls import reverse

from tournament.models import Board, Result

pytestmark = pytest.mark.django_db


def arbiter_urls(event):
    board = Board.objects.filter(round__event=event, second__isnull=False).first()
    player = event.players.first()
    result = Result.objects.filter(board=board).first()
    slug = event.slug
    return [
        ("get", reverse("arbiter_dashboard", args=[slug])),
        ("get", reverse("arbiter_settings", args=[slug])),
        ("get", reverse("arbiter_players", args=[slug])),
        ("post", reverse("arbiter_players_import", args=[slug])),
        ("get", reverse("arbiter_player_edit", args=[slug, player.pk])),
        ("post", reverse("arbiter_player_withdraw", args=[slug, player.pk])),
        ("post", reverse("arbiter_player_absence", args=[slug, player.pk])),
        ("post", reverse("arbiter_player_invite", args=[slug, player.pk])),
        ("post", reverse("arbiter_player_login_withdraw", args=[slug, player.pk])),
        ("post", reverse("arbiter_players_invite", args=[slug])),
        ("post", reverse("arbiter_round_pair", args=[slug])),
        ("get", reverse("arbiter_round", args=[slug, 3])),
        ("get", reverse("arbiter_results", args=[slug, 3])),
        ("post", reverse("arbiter_round_action", args=[slug, 3, "publish"])),
        ("post", reverse("arbiter_round_action", args=[slug, 3, "close"])),
        ("post", reverse("arbiter_round_action", args=[slug, 3, "repair"])),
        ("post", reverse("arbiter_round_action", args=[slug, 3, "edit"])),
        ("get", reverse("arbiter_board", args=[slug, board.pk])),
        ("post", reverse("arbiter_conflict", args=[slug, result.pk])),
        ("get", reverse("arbiter_print", args=[slug])),
        ("get", reverse("arbiter_records", args=[slug])),
        ("post", reverse("arbiter_records", args=[slug])),
        ("get", reverse("arbiter_submit", args=[slug, board.pk])),
        ("post", reverse("arbiter_board_token", args=[slug, board.pk, "reissue"])),
        ("get", reverse("arbiter_export", args=[slug])),
        ("get", reverse("arbiter_export_json", args=[slug])),
        ("get", reverse("arbiter_export_trf", args=[slug])),
        ("get", reverse("print_document", args=[slug, "scoresheets"]) + "?round=3"),
        ("get", reverse("print_document", args=[slug, "slips"]) + "?round=3"),
    ]


def test_a_logged_in_non_arbiter_gets_403_on_every_arbiter_url(client, other_user, played_event):
    client.force_login(other_user)
    for method, url in arbiter_urls(played_event):
        response = getattr(client, method)(url)
        assert response.status_code == 403, (method, url, response.status_code)


def test_anonymous_users_are_sent_to_log_in(client, played_event):
    for method, url in arbiter_urls(played_event):
        response = getattr(client, method)(url)
        assert response.status_code == 302, (method, url)
        assert response["Location"].startswith(reverse("login")), url


def test_the_arbiter_of_another_event_gets_403(client, other_user, played_event, arbiter):
    from tournament import services

    services.create_event(name="Other Event", arbiter=other_user)
    client.force_login(other_user)
    response = client.get(reverse("arbiter_dashboard", args=[played_event.slug]))
    assert response.status_code == 403


def test_the_arbiter_reaches_the_pages(arbiter_client, played_event):
    for method, url in arbiter_urls(played_event):
        if method == "get":
            response = arbiter_client.get(url)
            assert response.status_code == 200, (url, response.status_code)


def test_public_pages_are_open_to_everyone(client, played_event):
    slug = played_event.slug
    player = played_event.players.first()
    for url in [
        reverse("home"), reverse("event_home", args=[slug]),
        reverse("event_pairings", args=[slug]), reverse("event_pairings_by_name", args=[slug]),
        reverse("event_results", args=[slug]), reverse("event_standings", args=[slug]),
        reverse("event_crosstable", args=[slug]), reverse("event_projector", args=[slug]),
        reverse("player_detail", args=[slug, player.pk]),
    ]:
        assert client.get(url).status_code == 200, url


def test_arbiter_posts_need_a_csrf_token(played_event, arbiter):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(arbiter)
    response = strict.post(reverse("arbiter_round_pair", args=[played_event.slug]))
    assert response.status_code == 403
