"""A player's personal page, ``/card/<code>/``: what the QR code on the player card opens.

No login: the code is the secret (``tournament.boards.player_codes``). The page shows the
player's own name and event, whether they have checked in (with the button while the check-in
is open), and where they sit in the current round; nothing about other players that the
public pages do not show. It is never cached, and its address, which holds the code, goes to
no other site: the code stays out of shared caches and other sites' logs. Wrong codes count
against the address's limit (``tournament.site.throttle``): guessing is refused with 429 long
before it could succeed.

The referrer policy is ``same-origin``. It was ``no-referrer``, under which a browser
sends ``Origin: null`` with every form the page posts, its own pages' included, and Django's CSRF
origin check refused the footer's language switch (``set_language``) with a bare "Forbidden
(403)" in every language. ``same-origin`` sends the address, and the real ``Origin``, to this
site only, which has the code already (it served the page); another site gets no referrer at
all, so the code still reaches none. ``strict-origin-when-cross-origin`` would pass the switch
as well but tell other sites this site's address, for nothing; taking the CSRF check off the
language switch, or a second switch for this page, would weaken or duplicate Django's. The
policy is set here, not left to the site's ``SECURE_REFERRER_POLICY``, so that a looser site
setting cannot reach the card's page.

No CSRF token on the page's own forms: the page's authority is the code in its address, not a
cookie, so a forged request from another site would need the code, and with it could open the
page anyway; and a phone whose CSRF cookie went (a private tab, cleared cookies) still checks in.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers, patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from tournament.boards import player_codes
from tournament.boards.seats import current_seat
from tournament.models import Absence, CheckIn, Confirmation
from tournament.services import checkin
from tournament.services.confirmations import players_confirm_results
from tournament.services.errors import ServiceError
from tournament.site import throttle
from tournament.views.confirm import (
    confirm_panel,
    confirmation_page,
    post_confirmation,
    posted_board,
    safe_next,
)

#: The card's address (with its code) to this site only: the module says why not "no-referrer".
REFERRER_POLICY = "same-origin"


def _private(response):
    """Nothing of this page in any cache, and its address in no other site's logs."""
    add_never_cache_headers(response)
    patch_cache_control(response, private=True)
    response["Referrer-Policy"] = REFERRER_POLICY
    return response


def refused(request, message: str, status: int):
    return _private(render(request, "tournament/checkin/refused.html", {
        "heading": _("This player card does not open a page"), "message": message,
    }, status=status))


def _card_holder(request, code: str):
    """The card's player, or the refusal to answer with (a wrong code counts against the
    address's limit)."""
    if throttle.codes_blocked(request):
        return None, _private(throttle.too_many(request))
    try:
        return player_codes.player_for_code(code), None
    except player_codes.CodeRefused as exc:
        throttle.code_failed(request)
        return None, refused(request, str(exc), exc.status)


@csrf_exempt
def personal_page(request, code: str):
    player, refusal = _card_holder(request, code)
    if refusal is not None:
        return refusal
    event = player.event
    if request.method == "POST":
        if request.POST.get("action") == "checkin":
            try:
                _row, created = checkin.check_in(player, CheckIn.Via.CARD)
            except ServiceError as exc:
                messages.error(request, str(exc))
            else:
                if created:
                    messages.success(request, _("You are checked in. Good luck!"))
                else:
                    messages.info(request, _("You had already checked in."))
        else:
            messages.error(request, _("Unknown action."))
        return _private(redirect(request.path))
    number = checkin.checkin_round(event)
    state = checkin.closed_reason(event)
    absence = (Absence.objects.filter(player=player, round_number=number).first()
               if number else None)
    seat = current_seat(player, timezone.now())
    absent_now = (seat.round is not None and seat.board is None and Absence.objects.filter(
        player=player, round_number=seat.round.number).exists())
    panel = (confirm_panel(player, Confirmation.Via.CARD, reverse("card_confirm", args=[code]),
                           board=seat.board, next_url=request.path)
             if seat.board is not None and not seat.board.is_bye
             and players_confirm_results(event) else None)
    return _private(render(request, "tournament/checkin/personal.html", {
        "event": event, "player": player, "seat": seat, "absent_now": absent_now,
        "checkin_round": number, "checkin_closed": state, "absence": absence,
        "checked_in": checkin.checked_in(player) if number else None,
        "withdrawn": player.withdrawn_after_round is not None,
        "code": player_codes.normalise(code), "panel": panel,
    }))


@csrf_exempt
def card_confirm(request, code: str):
    """The personal page's result panel alone (GET) and its post (POST), by the card's code;
    private and without a CSRF token for the personal page's reasons (module docstring)."""
    player, refusal = _card_holder(request, code)
    if refusal is not None:
        return refusal
    action = reverse("card_confirm", args=[code])
    if request.method == "POST":
        board = posted_board(request, player)
        failed = post_confirmation(request, player, board, Confirmation.Via.CARD)
        if failed is None:
            return _private(redirect(safe_next(request, action)))
        error, status = failed
        return _private(confirmation_page(request, confirm_panel(
            player, Confirmation.Via.CARD, action, board=board, data=request.POST,
            error=error, next_url=request.POST.get("next", "")), status))
    return _private(confirmation_page(request, confirm_panel(player, Confirmation.Via.CARD,
                                                             action)))
