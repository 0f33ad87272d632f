"""Issue #12: behind a TLS proxy (TLS_PROXY=1) Django trusts X-Forwarded-Proto, so requests
are secure and the printed QR codes say https://; without it the header is ignored."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from tournament.printing import documents

ROOT = Path(__file__).resolve().parents[2]

PRINT_PROXY_SETTING = """
import django
django.setup()
from django.conf import settings
print(getattr(settings, "SECURE_PROXY_SSL_HEADER", None))
"""


@pytest.mark.parametrize(("flag", "expected"), [
    ("1", "('HTTP_X_FORWARDED_PROTO', 'https')"), ("0", "None"),
])
def test_tls_proxy_turns_on_the_proxy_ssl_header(flag, expected, tmp_path):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tournament.settings", "DEBUG": "0",
           "SECRET_KEY": "a-long-random-secret-for-the-test", "TLS_PROXY": flag,
           "DATA_DIR": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", PRINT_PROXY_SETTING], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60, check=True)
    assert proc.stdout.strip() == expected


@pytest.fixture
def base_urls(monkeypatch):
    """The base URL each PDF's QR codes were made with."""
    seen = []
    real = documents.render

    def spy(*args, **kwargs):
        seen.append(kwargs["base_url"])
        return real(*args, **kwargs)

    monkeypatch.setattr(documents, "render", spy)
    return seen


@pytest.mark.django_db
def test_scoresheet_qr_codes_follow_the_forwarded_scheme(client, settings, arbiter, board,
                                                          base_urls):
    url = reverse("print_document", args=[board.round.event.slug, "scoresheets"]) + "?round=1"
    settings.ALLOWED_HOSTS = ["td.example.org"]
    client.force_login(arbiter)
    proxied = {"HTTP_HOST": "td.example.org", "HTTP_X_FORWARDED_PROTO": "https"}
    assert client.get(url, **proxied).status_code == 200
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert client.get(url, **proxied).status_code == 200
    assert client.get(url, HTTP_HOST="td.example.org").status_code == 200
    assert base_urls == ["http://td.example.org", "https://td.example.org",
                         "http://td.example.org"]
