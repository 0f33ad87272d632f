"""Issue #35, item 4: the language switch works on the page a player card's QR code opens.

The page sent ``Referrer-Policy: no-referrer``, under which a browser posts every form with
``Origin: null``, and Django's CSRF check refused the footer's switch (``set_language``) with a
bare 403 in every language. The page now sends ``same-origin``: the test client posts the
switch as a browser does from that page under the policy the page sent (with CSRF checks on),
from each language of the switcher to the next (Chromium does it too:
tests/browser/test_checkin_kiosk_browser.py)."""

import re
from html import unescape
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from tournament.boards import player_codes

pytestmark = pytest.mark.django_db

PAGE_SCHEME_HOST = "http://testserver"  # where the test client's pages come from


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def sent_by_a_browser(policy: str, page: str, target: str) -> dict[str, str]:
    """The ``Origin`` and ``Referer`` a browser sends with a form posted from ``page`` to
    ``target`` under the page's referrer policy (Fetch, "append a request `Origin` header",
    for a POST that is not CORS; Referrer Policy for the referrer)."""
    same = _origin(page) == _origin(target)
    downgrade = page.startswith("https:") and not target.startswith("https:")
    if policy == "no-referrer" or (policy == "same-origin" and not same) or (
            downgrade and policy in ("no-referrer-when-downgrade", "strict-origin",
                                     "strict-origin-when-cross-origin")):
        origin = "null"
    else:
        origin = _origin(page)
    headers = {"HTTP_ORIGIN": origin}
    if same and policy not in ("no-referrer", "origin", "strict-origin"):
        headers["HTTP_REFERER"] = page  # the whole address, to this site only
    return headers


def _switcher(html: str) -> tuple[str, dict[str, str], list[str]]:
    """The footer's language form: its action, its fields, and the languages it offers."""
    form = re.search(r'<form action="([^"]+)" method="post" class="inline lang">(.*?)</form>',
                     html, re.S)
    assert form, "the page has no language switch"
    fields = {name: unescape(value) for name, value in re.findall(
        r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form.group(2))}
    return form.group(1), fields, re.findall(r'<option value="([^"]+)"', form.group(2))


def test_the_switch_works_on_the_card_page_in_every_language(event):
    code = player_codes.code_for(player_codes.live_card(event.players.get(name="Ada")))
    page_url = reverse("player_card", args=[code])
    browser = Client(enforce_csrf_checks=True)
    first = browser.get(page_url)
    policy = first["Referrer-Policy"]
    assert policy == "same-origin"
    languages = _switcher(first.content.decode())[2]
    assert set(languages) >= {"en", "ru", "sv", "ko", "de"}
    for language in languages[1:] + languages[:1]:
        page = browser.get(page_url)
        action, fields, _offered = _switcher(page.content.decode())
        assert fields["next"] == page_url
        switched = browser.post(action, {**fields, "language": language}, **sent_by_a_browser(
            policy, PAGE_SCHEME_HOST + page_url, PAGE_SCHEME_HOST + action))
        assert switched.status_code == 302, switched.content.decode()[:300]
        assert switched["Location"] == page_url
        assert f'<html lang="{language}">' in browser.get(page_url).content.decode()


def test_the_refusal_the_issue_saw_and_the_policy_that_keeps_the_code_here(event):
    """Under ``no-referrer`` the same post is refused; ``same-origin`` sends the card's
    address to this site only, never to another one."""
    code = player_codes.code_for(player_codes.live_card(event.players.get(name="Ada")))
    page_url = PAGE_SCHEME_HOST + reverse("player_card", args=[code])
    browser = Client(enforce_csrf_checks=True)
    action, fields, _offered = _switcher(browser.get(page_url).content.decode())
    refused = browser.post(action, {**fields, "language": "sv"}, **sent_by_a_browser(
        "no-referrer", page_url, PAGE_SCHEME_HOST + action))
    assert refused.status_code == 403 and "CSRF" in refused.content.decode()
    elsewhere = sent_by_a_browser("same-origin", page_url, "https://tiles.example.org/x")
    assert elsewhere == {"HTTP_ORIGIN": "null"}  # no Referer: the code stays here
    wrong = browser.get(reverse("player_card", args=["0" * 16]))
    assert wrong.status_code == 404 and wrong["Referrer-Policy"] == "same-origin"
