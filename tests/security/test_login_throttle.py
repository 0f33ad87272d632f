"""Issue #12: wrong passwords are throttled (django-axes): after the limit, the user name is
locked from that address, even with the right password, while other accounts still log in."""

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _login(client, username, password, address="203.0.113.7"):
    return client.post(reverse("login"), {"username": username, "password": password},
                       REMOTE_ADDR=address)


def test_thirty_wrong_passwords_are_not_all_answered(arbiter, organiser):
    client = Client()
    codes = [_login(client, "sec-arbiter", f"guess-{n}").status_code for n in range(30)]
    limit = settings.AXES_FAILURE_LIMIT
    assert codes[: limit - 1] == [200] * (limit - 1)  # the form again, with its error
    assert set(codes[limit:]) == {429}
    locked = _login(client, "sec-arbiter", "pw-sec-arbiter-1")
    assert locked.status_code == 429
    assert b"Too many failed logins" in locked.content
    assert "_auth_user_id" not in client.session
    # another account from the same venue address is not locked out
    other = _login(Client(), "sec-organiser", "pw-sec-organiser-1")
    assert other.status_code == 302


def test_a_right_password_before_the_limit_logs_in_and_resets_the_count(arbiter):
    client = Client()
    for n in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _login(client, "sec-arbiter", f"guess-{n}").status_code == 200
    assert _login(client, "sec-arbiter", "pw-sec-arbiter-1").status_code == 302
    assert _login(Client(), "sec-arbiter", "wrong-again").status_code == 200


def test_an_overlong_username_is_a_field_error_and_no_attempt(arbiter):
    """The login form checks the username's length before any password: django-axes' table
    of attempts holds 255 characters, which PostgreSQL enforces."""
    response = _login(Client(), "u" * 100_000, "whatever")
    assert response.status_code == 200
    assert "Ensure this value has at most 150 characters" in response.content.decode()
    assert not AccessAttempt.objects.exists()
