"""What `make run` serves to the hall (issue #23, items 8 and 9).

The README's main command is what an arbiter runs: it serves the hall's network with DEBUG off
(friendly error pages, never Django's debug page with every address and setting), plain http
(no certificate a phone would trust), and every QR code carries an address a phone can open.
"""

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.test import override_settings
from django.urls import reverse

from tournament import config
from tournament.site import site_address

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


def _venue_env(tmp_path: Path, **overrides: str) -> dict[str, str]:
    """The environment of `make run`: nothing set but the data folder."""
    dropped = ("SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL",
               "ALLOWED_HOSTS", "SECURE_", "PUBLIC_BASE_URL", "STATIC_ROOT")
    env = {k: v for k, v in os.environ.items() if not k.startswith(dropped)}
    return {**env, "DATA_DIR": str(tmp_path), **overrides}


def _setting(env: dict[str, str], name: str) -> str:
    code = ("import django; django.setup(); from django.conf import settings; "
            f"print(settings.{name})")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60,
                          env={**env, "DJANGO_SETTINGS_MODULE": "tournament.settings"})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


@pytest.mark.long_story  # the embedded setup drops DATABASE_URL and REDIS_URL: same either pass
def test_the_embedded_setup_serves_plain_http_and_production_stays_https_only(tmp_path):
    venue = _venue_env(tmp_path)
    assert _setting(venue, "DEBUG") == "False"
    assert _setting(venue, "SECURE_SSL_REDIRECT") == "False"
    assert _setting(venue, "SESSION_COOKIE_SECURE") == "False"
    production = {**venue, "DATABASE_URL": f"sqlite:///{tmp_path / 'p.sqlite3'}",
                  "SECRET_KEY": "a-long-random-secret-for-the-venue-test-0123456789"}
    assert _setting(production, "SECURE_SSL_REDIRECT") == "True"
    assert _setting(production, "SECURE_HSTS_SECONDS") == "31536000"


def test_the_hall_addresses_leave_out_loopback_and_are_accepted_as_hosts(tmp_path):
    for address in config.hall_addresses():
        assert not config.is_loopback(address)
    hosts = _setting(_venue_env(tmp_path), "ALLOWED_HOSTS")
    for address in config.hall_addresses():
        assert f"'{address}'" in hosts


@pytest.mark.parametrize("host,loopback", [
    ("127.0.0.1", True), ("127.1.2.3", True), ("localhost", True), ("[::1]", True),
    ("::1", True), ("192.168.1.10", False), ("td.example.org", False), ("", False)])
def test_loopback_hosts(host, loopback):
    assert config.is_loopback(host) is loopback


def test_a_qr_code_never_points_at_this_computer_alone(rf, monkeypatch):
    monkeypatch.setattr(site_address, "hall_addresses", lambda: ("192.168.1.10",))
    request = rf.get("/", HTTP_HOST="127.0.0.1:8000")
    assert site_address.base_url(request) == "http://192.168.1.10:8000"
    assert site_address.unreachable_warning(request) is None
    with override_settings(ALLOWED_HOSTS=["192.168.1.10"]):
        hall = rf.get("/", HTTP_HOST="192.168.1.10:8000")
        assert site_address.base_url(hall) == "http://192.168.1.10:8000"
    with override_settings(PUBLIC_BASE_URL="https://td.example.org"):
        assert site_address.absolute_url(request, "/b/x/") == "https://td.example.org/b/x/"


def test_the_print_page_warns_when_no_phone_can_reach_the_address(arbiter_client, event,
                                                                   monkeypatch):
    monkeypatch.setattr(site_address, "hall_addresses", lambda: ())
    url = reverse("arbiter_print", args=[event.slug])
    page = arbiter_client.get(url, HTTP_HOST="127.0.0.1").content.decode()
    assert "which only this computer can open" in page
    monkeypatch.setattr(site_address, "hall_addresses", lambda: ("192.168.1.10",))
    page = arbiter_client.get(url, HTTP_HOST="127.0.0.1").content.decode()
    assert "which only this computer can open" not in page
    assert "http://192.168.1.10/" in page


def test_an_unknown_page_is_a_friendly_404_in_the_readers_language(client):
    page = client.get("/e/nope/")
    assert page.status_code == 404
    text = page.content.decode()
    assert "Page not found" in text and "matches the given query" not in text
    assert "URLconf" not in text and 'class="site-header"' in text
    korean = client.get("/e/nope/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert 'lang="ko"' in korean


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.mark.long_story  # the embedded setup: SQLite whatever the pass
def test_make_runs_server_serves_like_production_on_the_embedded_defaults(tmp_path):
    """`make run`'s steps, as the Makefile runs them, then pages from the server it starts."""
    env = _venue_env(tmp_path, STATIC_ROOT=str(tmp_path / "static"))
    for step in (["migrate", "--noinput"], ["collectstatic", "--noinput", "-v", "0"]):
        proc = subprocess.run([sys.executable, "manage.py", *step], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
    port = _free_port()
    server = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port),
                               "--bind", "127.0.0.1"], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                status, _home = _fetch(base + "/")
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.3)
        assert status == 200
        status, page = _fetch(base + "/e/nope/")
        assert status == 404 and "Page not found" in page and "URLconf" not in page
        status, css = _fetch(base + "/static/css/site.css")
        assert status == 200 and "{" in css
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0]
    assert f"This computer: http://127.0.0.1:{port}/" in output
