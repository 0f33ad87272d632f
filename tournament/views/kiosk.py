"""The check-in kiosk at the door, ``/e/<slug>/kiosk/``: a tablet the arbiter unlocked.

Unlocking sets a signed cookie on that device holding the event's id and its
``kiosk_generation``; "Lock all kiosks" raises the generation, so every unlocked device is
locked at once. A player types part of their name (case and accents ignored), picks
themself and confirms; or a barcode scanner reads the card's QR code and types its address
(the personal page's, with the code) and Enter; or the player types the code as the card
prints it. Either way the kiosk shows only "Checked in: <name>", never a personal link or a
code, and goes back to the empty search after a few seconds. Every request is a POST (a scanned
code in a query string would land in the logs and the browser's history). Check-ins are
rate-limited per address, and so are wrong codes (``tournament.site.throttle``).

The search box takes both, so a text is a code only in a code's own form
(``player_codes.code_in``); everything else is a name search, which never counts as a wrong
code: "Rosalind Franklin" reduces to 16 code characters, and once counted as a wrong code
each time she searched, until the kiosk refused real cards. A text that reduces to a code
without having its form (a code typed with spaces) is not shown again if no name matches: the
kiosk says how to type a code instead.
"""

from __future__ import annotations

from django.core import signing
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_protect

from tournament.boards import player_codes
from tournament.inputs import name_search
from tournament.inputs.request_input import column_range, whole_number
from tournament.models import CheckIn, Event, Player
from tournament.services import checkin
from tournament.services.errors import ServiceError
from tournament.site import throttle
from tournament.texts.formatting import name_key

COOKIE = "kiosk"
_SALT = "tournament.kiosk"
#: A kiosk stays unlocked through the event's days; locking is the arbiter's button.
MAX_AGE_S = 7 * 24 * 3600
#: The longest search the kiosk reads: names are at most 100 characters, codes 16 (19 as
#: printed), a scanned card's address a few dozen.
MAX_QUERY = 300
RESULTS = 8


def unlock_cookie(response, event: Event, *, secure: bool) -> None:
    """Make the device that receives ``response`` a kiosk of ``event``."""
    response.set_signed_cookie(COOKIE, f"{event.pk}:{event.kiosk_generation}", salt=_SALT,
                               max_age=MAX_AGE_S, httponly=True, samesite="Strict",
                               secure=secure)


def is_unlocked(request, event: Event) -> bool:
    try:
        value = request.get_signed_cookie(COOKIE, salt=_SALT, max_age=MAX_AGE_S)
    except (KeyError, signing.BadSignature):
        return False
    return value == f"{event.pk}:{event.kiosk_generation}"


def _page(request, event, status=200, **extra):
    response = render(request, "tournament/checkin/kiosk.html", {
        "event": event, "kiosk": True, "state": checkin.closed_reason(event),
        "round": checkin.checkin_round(event), **extra}, status=status)
    add_never_cache_headers(response)
    return response


def _done(request, event, player, created):
    return _page(request, event, done=player.name, again=not created)


def _check_in(request, event, player):
    try:
        _row, created = checkin.check_in(player, CheckIn.Via.KIOSK)
    except ServiceError as exc:
        return _page(request, event, status=409, error=str(exc))
    return _done(request, event, player, created)


def _candidates(event: Event, query: str) -> list[Player]:
    number = checkin.checkin_round(event)
    players = sorted((p for p in event.players.all()
                      if number is None or p.is_active_in(number)),
                     key=lambda p: name_key(p.name))
    return name_search.matching(query, players, lambda p: p.name, limit=RESULTS)


def _filtered(request, event):
    """The names matching what the player has typed so far (``static/js/kiosk.js`` asks as
    one types): the list alone, to replace the page's. Names only: a text in a code's form or
    resembling one lists nothing here (Enter sends it as a code), so typing never checks
    anyone in nor counts a wrong code."""
    if not throttle.kiosk_filter_allowed(request):
        return HttpResponse(status=429)
    query = request.POST.get("q", "")
    if len(query) > MAX_QUERY or "\x00" in query:
        return HttpResponse(status=400)
    query = query.strip()
    typed = len(query) >= 2 and player_codes.code_in(query) is None and not (
        player_codes.resembles_code(query))
    found = _candidates(event, query) if typed else []
    response = render(request, "tournament/checkin/_kiosk_results.html",
                      {"event": event, "found": found, "typed": query if typed else ""})
    add_never_cache_headers(response)
    return response


@csrf_protect
def kiosk(request, slug: str):
    event = get_object_or_404(Event, slug=slug)
    if not is_unlocked(request, event):
        response = render(request, "tournament/checkin/kiosk_locked.html",
                          {"event": event, "is_arbiter": event.is_arbiter(request.user)},
                          status=403)
        add_never_cache_headers(response)
        return response
    if request.method != "POST":
        return _page(request, event)
    if request.POST.get("filter") == "1":
        return _filtered(request, event)
    if not throttle.kiosk_allowed(request):
        return throttle.too_many(request, kiosk=True)
    post = request.POST
    ids = column_range(Player, "id")
    if "player" in post:  # the confirmation: check in the player picked
        pk = whole_number(post.get("player"), label=_("Player"), column=ids)
        return _check_in(request, event, get_object_or_404(Player, pk=pk, event=event))
    if "pick" in post:  # a name picked from the list: ask to confirm
        pk = whole_number(post.get("pick"), label=_("Player"), column=ids)
        return _page(request, event, pick=get_object_or_404(Player, pk=pk, event=event))
    query = post.get("q", "")
    if not isinstance(query, str) or len(query) > MAX_QUERY or "\x00" in query:
        return _page(request, event, status=400,
                     error=_("Type a part of your name, or scan your player card."))
    query = query.strip()
    code = player_codes.code_in(query)
    if code is not None:
        if throttle.codes_blocked(request):
            return throttle.too_many(request)
        try:
            player = player_codes.player_for_code(code, event=event)
        except player_codes.CodeRefused as exc:
            throttle.code_failed(request)
            return _page(request, event, status=exc.status, error=str(exc))
        return _check_in(request, event, player)
    if not query:
        return _page(request, event)
    found = _candidates(event, query)
    if found:
        return _page(request, event, query=query, found=found)
    if player_codes.resembles_code(query):  # perhaps a code: not left on the screen
        return _page(request, event, error=_(
            "No player's name matches. To check in with your card's code, type it as the card "
            "prints it, with the dashes (XXXX-XXXX-XXXX-XXXX), or scan the card's QR code."))
    return _page(request, event, query=query, error=_(
        "No player's name contains “%(q)s”. Try fewer letters, or see the arbiter.")
        % {"q": query})
