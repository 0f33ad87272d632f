"""The documented deployment, run for real: nginx with the repository's site file and a
certificate made here, in front of two daphne workers started by the systemd unit's own
command line, and the flag timer, on PostgreSQL and Redis (docs/deployment.md, ``deploy/``).

Through ``https://`` and ``wss://`` an arbiter logs in and starts an online round, two bots
(the ``online_bot`` command, a client of docs/online-protocol.md) play its game to the end
on sockets the proxy spreads over both workers, and the standings follow; a board page keeps
its clock through a Wi-Fi drop and a reload (the service worker, which https allows); then a hostile
client probes every limit keyed on the address with a forged ``X-Forwarded-For`` and
``X-Real-IP`` that change with every request: each limit answers 429 at its count, the lockout
locks, the cookies are ``Secure``, the websocket origin check holds over ``wss://``, and the
workers cannot be reached but through the proxy.

It needs nginx, PostgreSQL and Redis (``.ci/run`` has them); without them it is skipped, and
with ``REQUIRE_BROWSER=1`` (CI) a missing one is an error.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import shutil
import socket
import ssl
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest

pytestmark = [pytest.mark.long_story]

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
PG = "postgres://postgres@127.0.0.1:5432"
REDIS = "redis://127.0.0.1:6379/0"
HOST = "localhost"


def _missing() -> str | None:
    if not os.path.exists(NGINX):
        return "nginx is not installed (apt-get install nginx)"
    for name, port in (("PostgreSQL", 5432), ("Redis", 6379)):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
        except OSError:
            return f"{name} is not reachable on 127.0.0.1:{port}"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost and 127.0.0.1, which the story's clients trust
    (and only they)."""
    cert, key = folder / "localhost.crt", folder / "localhost.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=localhost", "-addext",
                    "subjectAltName=DNS:localhost,IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


def _environment(folder: Path, https_port: int, database: str) -> dict[str, str]:
    """``deploy/ingenious.env.example`` with this machine's values where the file says
    ``change-me`` or ``td.example.org``; everything else (TLS_PROXY, TRUSTED_PROXIES) as it is."""
    values = {}
    for line in (DEPLOY / "ingenious.env.example").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, value = line.partition("=")
            values[name] = value
    assert values["TLS_PROXY"] == "1" and values["TRUSTED_PROXIES"] == "127.0.0.1"
    values.update(
        SECRET_KEY=secrets.token_urlsafe(50), DATABASE_URL=f"{PG}/{database}", REDIS_URL=REDIS,
        ALLOWED_HOSTS=values["ALLOWED_HOSTS"].replace("td.example.org", HOST),
        CSRF_TRUSTED_ORIGINS=values["CSRF_TRUSTED_ORIGINS"].replace(
            "https://td.example.org", f"https://{HOST}:{https_port}"),
        BACKUP_DIR=str(folder / "backups"))
    prefix = f"story-{uuid.uuid4().hex[:8]}"
    keep = {k: v for k, v in os.environ.items()
            if k in ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SSL_CERT_FILE")}
    return {**keep, **values, "DATA_DIR": str(folder / "data"),
            "STATIC_ROOT": str(folder / "static"), "CACHE_KEY_PREFIX": prefix,
            "CHANNEL_LAYER_PREFIX": prefix, "PUBLIC_BASE_URL": f"https://{HOST}:{https_port}",
            "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}


def _exec_start(unit: str, port: int | None = None) -> list[str]:
    """The ``ExecStart`` of a systemd unit of ``deploy/``, run from this checkout's venv."""
    text = (DEPLOY / "systemd" / unit).read_text()
    line = re.search(r"^ExecStart=(.+)$", text, re.M).group(1)
    line = line.replace("/srv/ingenious/venv/bin/", f"{Path(sys.executable).parent}/")
    if port is not None:
        line = line.replace("%i", str(port))
    return line.split()


def _nginx_conf(folder: Path, http_port: int, https_port: int, workers: list[int],
                cert: Path, key: Path) -> Path:
    """The repository's site file with this machine's ports and certificate, in a main file
    of its own (a prefix in ``folder``, no root needed)."""
    site = (DEPLOY / "nginx" / "ingenious.conf").read_text()
    replacements = {
        "    server 127.0.0.1:8001;\n    server 127.0.0.1:8002;\n    server 127.0.0.1:8003;\n":
            "".join(f"    server 127.0.0.1:{p};\n" for p in workers),
        "listen 80;": f"listen 127.0.0.1:{http_port};",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{https_port} ssl http2;",
        "/etc/ssl/td.example.org.crt": str(cert), "/etc/ssl/td.example.org.key": str(key),
        "td.example.org": HOST,
    }
    for old, new in replacements.items():
        assert old in site, f"deploy/nginx/ingenious.conf no longer holds {old!r}"
        site = site.replace(old, new)
    (folder / "site.conf").write_text(site)
    for sub in ("logs", "tmp"):
        (folder / sub).mkdir(exist_ok=True)
        os.chmod(folder / sub, 0o777)
    main = folder / "nginx.conf"
    main.write_text(f"""daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/logs/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log {folder}/logs/access.log;
    client_body_temp_path {folder}/tmp/body;
    proxy_temp_path {folder}/tmp/proxy;
    fastcgi_temp_path {folder}/tmp/fastcgi;
    uwsgi_temp_path {folder}/tmp/uwsgi;
    scgi_temp_path {folder}/tmp/scgi;
    include {folder}/site.conf;
}}
""")
    return main


def _wait_for(port: int, processes: list[subprocess.Popen], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for process in processes:
            if process.poll() is not None:
                raise RuntimeError(f"{process.args[:3]} stopped: {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"nothing listens on {port}")


def _start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    with open(log, "w") as out:  # the child keeps its own copy of the descriptor
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT)


@dataclass
class Deployment:
    https_port: int
    http_port: int
    workers: list[int]
    cert: Path
    env: dict[str, str]
    made: dict
    context: ssl.SSLContext = field(init=False)

    def __post_init__(self):
        self.context = ssl.create_default_context(cafile=str(self.cert))

    @property
    def url(self) -> str:
        return f"https://{HOST}:{self.https_port}"


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    missing = _missing()
    if missing:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"the deployment story is required in CI but {missing}")
        pytest.skip(missing)
    import psycopg

    folder = tmp_path_factory.mktemp("deployment")
    os.chmod(folder, 0o755)
    cert, key = _certificate(folder)
    os.chmod(key, 0o644)  # read by nginx's worker (nobody) from this throw-away folder
    https_port, http_port, workers = _free_port(), _free_port(), [_free_port(), _free_port()]
    database = f"ingenious_story_{uuid.uuid4().hex[:10]}"
    env = _environment(folder, https_port, database)
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as db:
        db.execute(f"CREATE DATABASE {database}")
    python = sys.executable
    for command in (["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                    ["manage.py", "migrate", "--noinput", "-v", "0"],
                    ["manage.py", "collectstatic", "--noinput", "-v", "0"]):
        subprocess.run([python, *command], cwd=ROOT, env=env, check=True,
                       capture_output=True, timeout=300)
    made = json.loads(subprocess.run(
        [python, "-m", "tests.deploy.story_setup"], cwd=ROOT, env=env, check=True,
        capture_output=True, text=True, timeout=120).stdout.strip().splitlines()[-1])
    logs = folder / "logs"
    logs.mkdir(exist_ok=True)
    processes = []
    try:
        for port in workers:
            processes.append(_start(_exec_start("ingenious@.service", port),
                                    {**env, "FLAG_TIMER": "off"}, logs / f"worker-{port}.log"))
        processes.append(_start(_exec_start("ingenious-flags.service"), env, logs / "flags.log"))
        conf = _nginx_conf(folder, http_port, https_port, workers, cert, key)
        subprocess.run([NGINX, "-t", "-p", str(folder), "-c", str(conf)], check=True,
                       capture_output=True)
        processes.append(_start([NGINX, "-p", str(folder), "-c", str(conf)], env,
                                logs / "nginx.out"))
        for port in (*workers, https_port):
            _wait_for(port, processes)
        yield Deployment(https_port, http_port, workers, cert, env, made)
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        for log in sorted(logs.glob("*")):
            text = log.read_text(errors="replace")[-3000:]
            if "Traceback" in text or "emerg" in text:
                print(f"--- {log.name}\n{text}")
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as db:
            db.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


class Browserless:
    """A client of the site over https as a page's user would be: cookies kept, forms posted
    with their CSRF token and the page's origin, redirects not followed (they are checked)."""

    def __init__(self, deployment: Deployment, headers: dict[str, str] | None = None):
        self.d = deployment
        self.cookies: dict[str, str] = {}
        self.set_cookies: list[str] = []
        self.headers = headers or {}

    def request(self, method: str, path: str, data: dict | None = None,
                headers: dict[str, str] | None = None):
        connection = http.client.HTTPSConnection(HOST, self.d.https_port, context=self.d.context,
                                                 timeout=30)
        sent = {"Host": f"{HOST}:{self.d.https_port}", **self.headers, **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urlencode({**data, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")})
            sent.update({"Content-Type": "application/x-www-form-urlencoded",
                         "Origin": self.d.url, "Referer": self.d.url + path})
        connection.request(method, path, body=body, headers=sent)
        response = connection.getresponse()
        text = response.read().decode(errors="replace")
        for value in response.headers.get_all("Set-Cookie") or []:
            self.set_cookies.append(value)
            for name, morsel in SimpleCookie(value).items():
                self.cookies[name] = morsel.value
        connection.close()
        return response.status, response.headers, text

    def get(self, path: str, **kw):
        return self.request("GET", path, **kw)

    def post(self, path: str, data: dict, **kw):
        if "csrftoken" not in self.cookies:
            self.get(path)
        return self.request("POST", path, data=data, **kw)


def _forged(i: int) -> dict[str, str]:
    """What a hostile client sends to look like a new address with every request."""
    return {"X-Forwarded-For": f"10.8.{i % 250}.9", "X-Real-IP": f"10.9.{i % 250}.9",
            "Forwarded": f"for=10.7.{i % 250}.9"}


def _bot(d: Deployment, token: str, seed: int) -> subprocess.Popen:
    """``manage.py online_bot`` on a seat's personal link, trusting the story's certificate."""
    return subprocess.Popen(
        [sys.executable, "manage.py", "online_bot", f"{d.url}/p/{token}/", "--seed", str(seed),
         "--timeout", "60"],
        cwd=ROOT, env={**d.env, "SSL_CERT_FILE": str(d.cert)}, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)


def test_deployment_story_nginx_two_workers_and_the_flag_timer(deployment):
    """The deployment's story in order: the arbiter's online round first (the probes after it
    lock this machine's address out of the arbiter's login for an hour)."""
    _an_online_round_through_nginx(deployment)
    _a_board_page_over_https_through_a_wifi_drop(deployment)
    _websocket_origins_hold_over_wss(deployment)
    _the_workers_answer_only_through_the_proxy(deployment)
    _forged_address_every_limit_holds_through_nginx(deployment)


def _an_online_round_through_nginx(deployment):
    """The arbiter logs in over https (Secure cookies), starts the round's clocks; the bots play
    the game over wss:// through the proxy; games.json and the standings follow."""
    from django.urls import reverse

    d = deployment
    status, headers, _ = Browserless(d).request("GET", "/", headers={"Host": HOST})
    assert status == 200 and "max-age=" in (headers.get("Strict-Transport-Security") or "")
    plain = http.client.HTTPConnection("127.0.0.1", d.http_port, timeout=10)
    plain.request("GET", "/e/", headers={"Host": HOST})
    redirect = plain.getresponse()
    assert redirect.status == 301 and redirect.headers["Location"].startswith("https://")

    arbiter = Browserless(d)
    status, headers, _ = arbiter.post(reverse("login"), {"username": "story-arbiter",
                                                         "password": "pw-story-arbiter-7"})
    assert status == 302, "the arbiter's login through the proxy"
    for name in ("sessionid", "csrftoken"):
        cookie = next(c for c in arbiter.set_cookies if c.startswith(name + "="))
        assert "Secure" in cookie and "SameSite" in cookie, cookie
    slug, number = d.made["slug"], d.made["round"]
    status, _, page = arbiter.get(reverse("online_round", args=[slug, number]))
    assert status == 200 and "Start the clocks" in page
    status, _, _ = arbiter.post(reverse("online_round_action", args=[slug, number, "start"]), {})
    assert status == 302

    bots = [_bot(d, token, seed) for seed, token in enumerate(d.made["tokens"])]
    outputs = [bot.communicate(timeout=240)[0] for bot in bots]
    assert all(bot.returncode == 0 for bot in bots), outputs
    assert all("game over:" in out for out in outputs), outputs
    status, _, listing = Browserless(d).get(f"/e/{slug}/online/{number}/games.json")
    game = json.loads(listing)["games"][0]
    assert status == 200 and game["over"] and game["result"] in ("1-0", "0-1", "½-½")
    status, _, standings = Browserless(d).get(reverse("event_standings", args=[slug]))
    assert status == 200 and "Ada First" in standings and "Ben Second" in standings


def _a_board_page_over_https_through_a_wifi_drop(d: Deployment) -> None:
    """The board page over https, where browsers allow a service worker: it keeps the page, so
    a reload without the network comes back with the queued press; the Wi-Fi (a relay in front
    of nginx that holds the bytes, as TCP does) comes back and the press reaches the clock.
    The online pages' notifications need the same secure context."""
    from playwright.sync_api import sync_playwright

    from tests.browser.outage import Outage

    wifi = Outage(d.https_port)
    connected, offline = ('#clock-connection[data-state="connected"]',
                          '#clock-connection[data-state="offline"]')
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                        args=["--ignore-certificate-errors"])
            context = browser.new_context(ignore_https_errors=True,
                                          viewport={"width": 390, "height": 844})
            page = context.new_page()
            page.set_default_timeout(20_000)
            page.goto(f"https://{HOST}:{wifi.port}/b/{d.made['clock_board']}/")
            page.wait_for_selector(connected)
            assert page.evaluate("window.isSecureContext && 'Notification' in window")
            page.wait_for_function("() => navigator.serviceWorker.controller !== null")
            page.wait_for_function("""async () => (await caches.open('ingenious-board-pages-v1'))
                                        .match(location.href).then(hit => !!hit)""")
            page.wait_for_selector(".side-A.running")
            wifi.cut()
            context.set_offline(True)
            page.wait_for_selector(offline, timeout=6_000)
            page.click(".side-A")
            page.wait_for_selector(".side-B.running")
            page.reload()  # from the service worker: no network
            page.wait_for_selector(".side-B.running")
            assert page.get_attribute("#clock", "data-queued") == "1"
            wifi.restore()
            context.set_offline(False)
            page.wait_for_selector('#clock[data-queued="0"]', timeout=30_000)
            page.wait_for_selector(connected)
            page.wait_for_selector(".side-B.running")
            browser.close()
    finally:
        wifi.stop()


def _forged_address_every_limit_holds_through_nginx(deployment):
    """Rotating forged X-Forwarded-For, X-Real-IP and Forwarded headers: sign-ups stop at 20,
    the login locks at its limit (the right password then refused too), wrong card codes stop
    at 10, exactly as on the embedded server."""
    from django.conf import settings
    from django.urls import reverse

    from tournament.site import throttle

    d = deployment
    register = reverse("autopilot_register", args=[d.made["open"]])
    answers = []
    for i in range(throttle.SIGNUPS + 3):
        client = Browserless(d, _forged(i))
        status, _, _ = client.post(register, {
            "new-username": f"forger{i}", "new-password1": "a-long-pass-39",
            "new-password2": "a-long-pass-39", "name": f"Forger {i}", "club": "",
            "country": "", "rating": ""})
        answers.append(status)
    assert answers == [302] * throttle.SIGNUPS + [429] * 3

    limit = settings.AXES_FAILURE_LIMIT
    answers = []
    for i in range(limit + 5):
        status, _, _ = Browserless(d, _forged(i)).post(
            reverse("login"), {"username": "story-arbiter", "password": f"guess-{i}"})
        answers.append(status)
    assert answers[:limit - 1] == [200] * (limit - 1) and set(answers[limit:]) == {429}
    status, _, page = Browserless(d, _forged(99)).post(
        reverse("login"), {"username": "story-arbiter", "password": "pw-story-arbiter-7"})
    assert status == 429 and "Too many failed logins" in page

    answers = [Browserless(d, _forged(i)).get(f"/card/WRONG-{i}/")[0]
               for i in range(throttle.FAILED_CODES + 3)]
    assert answers == [404] * throttle.FAILED_CODES + [429] * 3
    assert Browserless(d, _forged(77)).get(f"/card/{d.made['card']}/")[0] == 429


def _websocket_origins_hold_over_wss(deployment):
    """A page of another site, or of the same host over plain http, gets no socket (403); the
    site's own https page does."""
    import asyncio

    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    d = deployment
    path = f"wss://{HOST}:{d.https_port}/ws/play/{d.made['tokens'][0]}/"

    async def opens(origin: str):
        try:
            async with connect(path, origin=origin, ssl=d.context, open_timeout=20) as ws:
                return json.loads(await asyncio.wait_for(ws.recv(), 20))["type"]
        except InvalidStatus as refused:
            return refused.response.status_code

    assert asyncio.run(opens("https://evil.example")) == 403
    assert asyncio.run(opens(f"http://{HOST}:{d.https_port}")) == 403
    assert isinstance(asyncio.run(opens(d.url)), str)


def _the_workers_answer_only_through_the_proxy(deployment):
    """The units bind the workers to 127.0.0.1: from any other address of the machine they
    cannot be reached, and what reaches them past nginx on the machine itself is counted by
    its own address, whatever it forges."""
    from tournament.config import hall_addresses

    d = deployment
    outside = [a for a in hall_addresses() if a not in ("127.0.0.1", "localhost", "::1")]
    for address in outside:
        for port in d.workers:
            with pytest.raises(OSError):
                socket.create_connection((address.strip("[]"), port), timeout=2).close()
    assert "interface=127.0.0.1" in " ".join(_exec_start("ingenious@.service", 1))
    assert "--proxy-headers" not in " ".join(_exec_start("ingenious@.service", 1))
