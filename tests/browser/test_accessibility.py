"""Every page passes axe-core's WCAG 2.1 A and AA rules at phone and desktop width (#23 item 17).

The pages are those of the layout test's demo-like event (a round of running clocks, four played
rounds with records), visited anonymously, as the arbiter, and as a player (My games) and an
invitee, at 390 px and 1366 px. Every violation is collected and reported with its rule, page
and the selector of each offending node, so that one run shows all that is left to fix.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.test_clock_browser import (  # noqa: F401  (fixtures)
    TIMEOUT_MS,
    arbiter,
    browser,
    server,
    session_cookie,
)
from tests.browser.test_layout import (  # noqa: F401  (fixtures)
    CLOCK_CONNECTED,
    arbiter_paths,
    event,
    player,
    public_paths,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": (390, 844), "desktop": (1366, 768)}
WCAG_21_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}


def violations(axe: Axe, page, url: str) -> list[str]:
    """Open ``url``, let its live parts settle, and list axe's violations on it."""
    response = page.goto(url)
    if response.status != 200:
        return [f"answered {response.status}"]
    if page.locator(".connection").count():
        page.wait_for_selector(CLOCK_CONNECTED)
    results = axe.run(page, options=WCAG_21_AA)
    return [f"{rule['id']}: {', '.join(' '.join(node['target']) for node in rule['nodes'])}"
            for rule in results.response["violations"]]


def test_every_page_passes_wcag_21_aa_at_phone_and_desktop_width(
    event, arbiter, player, server, browser  # noqa: F811
):
    account, invitation = player
    public = {**public_paths(event), "invitation": f"/invitations/{invitation}/"}
    desk = arbiter_paths(event)
    visits = [(None, public), (session_cookie(arbiter, server), desk),
              (session_cookie(account, server), {"my games": "/my-games/"})]
    axe = Axe()
    failures = []
    for width_name, (width, height) in WIDTHS.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        for cookie, paths in visits:
            context.clear_cookies()
            if cookie:
                context.add_cookies([cookie])
            for label, path in paths.items():
                failures += [f"{width_name} {width}px, {label} ({path}): {problem}"
                             for problem in violations(axe, page, server.url + path)]
        context.close()
    assert not failures, "\n".join(failures)
