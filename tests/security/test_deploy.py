"""Issue #12: production as docs/deployment.md describes it.

``check --deploy`` with the documented production variables is clean, and a real daphne
server with DEBUG=0, after ``collectstatic``, serves pages and static files (WhiteNoise) over
the TLS proxy's https, redirecting plain http.
"""

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SECRET = "k3Y-for-the-deploy-test-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEFGH"


def production_env(tmp_path: Path, **overrides: str) -> dict[str, str]:
    """The production variables of docs/deployment.md, on a throw-away SQLite database."""
    kept = {k: v for k, v in os.environ.items()
            if not k.startswith(("SECURE_", "DJANGO_", "DEBUG", "TLS_", "ALLOWED_", "CSRF_"))}
    return {
        **kept, "DJANGO_SETTINGS_MODULE": "tournament.settings", "DEBUG": "0",
        "SECRET_KEY": SECRET, "ALLOWED_HOSTS": "td.example.org,127.0.0.1",
        "CSRF_TRUSTED_ORIGINS": "https://td.example.org", "TLS_PROXY": "1",
        "DATA_DIR": str(tmp_path), "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "STATIC_ROOT": str(tmp_path / "static"), "FLAG_TIMER": "off", **overrides,
    }


def manage(env, *args) -> subprocess.CompletedProcess:
    # a guard against a hung command, not a speed limit: collectstatic compresses every static
    # file, which took over two minutes on a slow 2-core machine beside the rest of the suite
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


def test_check_deploy_is_clean_with_the_production_variables(tmp_path):
    proc = manage(production_env(tmp_path), "check", "--deploy", "--fail-level", "WARNING")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues" in proc.stdout


def test_each_https_default_can_be_turned_off_and_check_deploy_says_so(tmp_path):
    env = production_env(tmp_path, SECURE_SSL_REDIRECT="0", SECURE_HSTS_SECONDS="0",
                         SECURE_COOKIES="0")
    proc = manage(env, "check", "--deploy")
    for code in ("W004", "W008", "W012", "W016"):
        assert f"security.{code}" in proc.stdout + proc.stderr, code


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _get(url: str, **headers: str):
    request = urllib.request.Request(url, headers=headers)
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


@pytest.fixture
def production_server(tmp_path):
    env = production_env(tmp_path)
    for step in (("migrate", "--noinput"), ("collectstatic", "--noinput")):
        proc = manage(env, *step)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "tournament.asgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while True:
            assert server.poll() is None, server.stderr.read().decode(errors="replace")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert time.monotonic() < deadline, "daphne did not start within 20 s"
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(5)
        server.stderr.close()


@pytest.mark.long_story  # a server of its own on SQLite whatever the pass
def test_debug_off_serves_pages_and_static_files(production_server):
    proxied = {"X-Forwarded-Proto": "https"}
    status, headers, body = _get(production_server + "/", **proxied)
    assert status == 200, body[:2000]
    assert "max-age=31536000" in headers["Strict-Transport-Security"]
    stylesheet = re.search(rb'href="(/static/css/site\.[0-9a-f]{12}\.css)"', body)
    assert stylesheet, "the page links the hashed stylesheet of the manifest"
    status, headers, css = _get(production_server + stylesheet.group(1).decode(), **proxied)
    assert status == 200 and headers["Content-Type"].startswith("text/css") and css
    assert "immutable" in headers.get("Cache-Control", "")
    status, headers, _body = _get(production_server + "/")  # plain http, no proxy
    assert status == 301 and headers["Location"].startswith("https://")
