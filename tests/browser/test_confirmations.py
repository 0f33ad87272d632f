"""One tap that does damage asks first (#23 item 11): closing a round, withdrawing a player.

The question comes from static/js/site.js (``form[data-confirm]``; the CSP allows no inline
script). Dismissed, nothing is sent; accepted, the action happens.
"""

import random

import pytest

from games import simulation
from tests.browser.live import TIMEOUT_MS, session_cookie
from tournament.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_closing_a_round_and_withdrawing_a_player_ask_first(server, browser, arbiter):
    event = simulation.create_event("Careful Open", 12, random.Random(3), rounds=7,
                                    arbiter=arbiter)
    simulation.run(event, random.Random(3), rounds=1, user=arbiter)
    context = browser.new_context()
    context.add_cookies([session_cookie(arbiter, server)])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    asked = []

    def answer(accept):
        def handle(dialog):
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()
        return handle

    page.goto(f"{server.url}/e/{event.slug}/arbiter/rounds/1/")
    page.once("dialog", answer(False))
    page.get_by_role("button", name="Close round").click()
    page.wait_for_timeout(300)
    assert Round.objects.get(event=event, number=1).status == Round.Status.PUBLISHED
    page.once("dialog", answer(True))
    page.get_by_role("button", name="Close round").click()
    page.wait_for_load_state()
    page.wait_for_selector(".messages")
    assert Round.objects.get(event=event, number=1).status == Round.Status.CLOSED
    assert asked == ["Close round 1? Its results can then only be corrected one by one, with "
                     "a reason."] * 2

    player = event.players.order_by("seed").first()
    page.goto(f"{server.url}/e/{event.slug}/arbiter/players/")
    row = page.locator("tr", has=page.get_by_text(player.name, exact=True)).first
    row.locator("summary").click()  # the row's Actions: absence, invitation, withdrawal
    withdraw = row.locator("form[action$='/withdraw/']")
    withdraw.locator("input[name=reason]").fill("train home")
    page.once("dialog", answer(False))
    withdraw.get_by_role("button", name="Withdraw").click()
    page.wait_for_timeout(300)
    player.refresh_from_db()
    assert player.withdrawn_after_round is None
    page.once("dialog", answer(True))
    withdraw.get_by_role("button", name="Withdraw").click()
    page.wait_for_selector(".messages")
    player.refresh_from_db()
    assert player.withdrawn_after_round == 1
    assert asked[-1] == f"Withdraw {player.name}? They are not paired in later rounds."
    # and undone in one click while no round was played without them (#36, item 12)
    page.get_by_role("button", name=f"Undo the withdrawal of {player.name}").click()
    page.wait_for_selector(".messages")
    player.refresh_from_db()
    assert player.withdrawn_after_round is None
    context.close()
