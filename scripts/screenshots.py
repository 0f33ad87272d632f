"""Screenshots of the main pages for the README: ``python scripts/screenshots.py``.

Starts the product on a throw-away data folder with the demo event (the same as ``make run``),
drives Debian's Chromium through Playwright, and writes PNGs to ``docs/images/``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "images"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    data = tempfile.mkdtemp(prefix="ingenious-shots-")
    env = {**os.environ, "DEBUG": "1", "DATA_DIR": data}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True)
    subprocess.run([*manage, "demo"], env=env, check=True, capture_output=True)
    password = (Path(data) / "demo-arbiter-password.txt").read_text().strip()
    port = free_port()
    server = subprocess.Popen([*manage, "runserver", f"127.0.0.1:{port}", "--noreload"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.2)
        OUT.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            desk = browser.new_page(viewport={"width": 1280, "height": 860})
            desk.goto(base + "/accounts/login/")
            desk.fill("#id_username", "arbiter")
            desk.fill("#id_password", password)
            desk.click("button[type=submit]")
            shots = [
                ("arbiter-dashboard", "/e/demo-open/arbiter/"),
                ("result-entry", "/e/demo-open/arbiter/rounds/5/results/"),
                ("standings", "/e/demo-open/standings/"),
                ("crosstable", "/e/demo-open/crosstable/"),
            ]
            for name, path in shots:
                desk.goto(base + path)
                desk.screenshot(path=str(OUT / f"page-{name}.png"), full_page=True)
            desk.goto(base + "/e/demo-open/results/?round=1")
            link = desk.locator("a[href^='/games/']").first
            record = link.get_attribute("href") if link.count() else None
            desk.goto(base + "/e/demo-open/arbiter/rounds/5/")
            board_link = desk.locator("a[href^='/b/']").first.get_attribute("href")
            desk.goto(base + "/e/demo-open/clocks/5/")
            desk.click("[data-round-command='start_round']")
            desk.wait_for_timeout(1500)
            desk.screenshot(path=str(OUT / "page-clock-hall.png"), full_page=True)
            phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
            phone.goto(base + board_link)
            phone.wait_for_selector('#clock-connection[data-state="connected"]')
            phone.wait_for_timeout(1000)
            phone.screenshot(path=str(OUT / "page-phone-board-clock.png"))
            tablet = browser.new_page(viewport={"width": 1024, "height": 1366})
            tablet.goto(base + board_link)
            tablet.wait_for_selector('#clock-connection[data-state="connected"]')
            tablet.wait_for_timeout(1500)
            tablet.screenshot(path=str(OUT / "page-tablet-board.png"), full_page=True)
            phone.goto(base + "/e/demo-open/?q=Ada")
            phone.screenshot(path=str(OUT / "page-phone-find-yourself.png"), full_page=True)
            phone.goto(base + "/e/demo-open/pairings/by-name/")
            phone.screenshot(path=str(OUT / "page-phone-pairings.png"))
            if record:
                desk.goto(base + record)
                desk.screenshot(path=str(OUT / "page-game-viewer.png"), full_page=True)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"screenshots written to {OUT}")


if __name__ == "__main__":
    main()
