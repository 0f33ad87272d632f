"""Player logins: the arbiter's invitations and withdrawals, and the page where a
player takes an invitation up.

An invitation's link is shown once, on the page that answers the arbiter's POST (its secret is
stored nowhere, see ``tournament.services.logins``), as slips with a QR code to print or hand
over. The player's page offers a new account, or a login to the account they already have
(the login page's form, so that django-axes counts and locks out its wrong passwords as it
does the login page's), or, when they are logged in already, to add the event to that account.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tournament.forms import LoginForm, SignupForm
from tournament.models import Event, Player
from tournament.permissions import arbiter_required
from tournament.printing.svg import qr_svg
from tournament.services import ServiceError, logins
from tournament.site import site_address

#: Sessions made here come from the password check of Django's own backend (django-axes' backend
#: only counts and locks; it never logs anybody in).
PASSWORD_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _slips(request, event: Event, invited: list[tuple[Player, logins.Invited]]):
    slips = []
    for player, item in sorted(invited, key=lambda pair: pair[0].name.casefold()):
        url = site_address.absolute_url(request, reverse("login_invitation", args=[item.secret]))
        slips.append({"player": player, "url": url, "qr": qr_svg(url),
                      "until": item.invitation.expires_at})
    return render(request, "tournament/arbiter/invitations.html", {
        "event": event, "is_arbiter": True, "slips": slips, "days": logins.INVITATION_DAYS,
    })


@arbiter_required
@require_POST
def invite_player(request, event, player_id):
    """A new invitation for one player, shown as its slip (an earlier one stops working)."""
    player = get_object_or_404(Player, pk=player_id, event=event)
    try:
        invited = logins.invite(player, user=request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
        return redirect("arbiter_player_edit", event.slug, player.pk)
    return _slips(request, event, [(player, invited)])


@arbiter_required
@require_POST
def invite_players(request, event):
    """Invitations for the players still in the event with neither a login nor an open
    invitation (so that the slips already handed out keep working), shown as slips."""
    states = logins.login_states(event)
    waiting = [p for p in event.players.filter(withdrawn_after_round__isnull=True)
               if p.pk not in states]
    if not waiting:
        messages.info(request, _("Every player has a login or an open invitation."))
        return redirect("arbiter_players", event.slug)
    return _slips(request, event, [(p, logins.invite(p, user=request.user)) for p in waiting])


@arbiter_required
@require_POST
def withdraw_login(request, event, player_id):
    """End the login (or the invitation). A withdrawn login also reissues the player's card:
    the message says so, and the player's page it returns to prints the new card."""
    player = get_object_or_404(Player, pk=player_id, event=event)
    try:
        withdrawn = logins.withdraw_login(player, user=request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        if withdrawn.login is None:
            done = _("%(name)s's invitation is withdrawn.")
        elif withdrawn.card is None:
            done = _("%(name)s's login is withdrawn.")
        else:
            done = _("%(name)s's login is withdrawn and their player card reissued: the old "
                     "card, whose code My games showed, no longer works. Print the new one "
                     "(Print this player's card) and hand it to the player.")
        messages.success(request, done % {"name": player.name})
    return redirect("arbiter_player_edit", event.slug, player.pk)


def _refused(request, refusal: logins.InvitationRefused):
    return render(request, "tournament/invitation_refused.html", {"message": str(refusal)},
                  status=refusal.status)


def _taker(request) -> tuple[object | None, SignupForm, LoginForm]:
    """Who takes the invitation up, with the two forms to show again: the account logged in,
    a new one from the sign-up form (not saved yet), or the one whose password the login form
    checked; None on a GET and while a form has errors."""
    signup, signin = SignupForm(prefix="new", request=request), LoginForm(request)
    if request.method != "POST":
        return None, signup, signin
    if request.user.is_authenticated:
        return request.user, signup, signin
    action = request.POST.get("action")
    if action == "create":
        signup = SignupForm(request.POST, prefix="new", request=request)
        return (signup.save(commit=False) if signup.is_valid() else None), signup, signin
    if action == "login":
        signin = LoginForm(request, data=request.POST)
        return (signin.get_user() if signin.is_valid() else None), signup, signin
    return None, signup, signin


@never_cache
def accept(request, secret):
    """The invited player's page; the invitation is used up by the first account that takes
    it, and a browser that was not logged in is logged in with that account."""
    try:
        invitation = logins.open_invitation(secret)
    except logins.InvitationRefused as refusal:
        return _refused(request, refusal)
    account, signup, signin = _taker(request)
    error = None
    if account is not None:
        try:
            logins.accept_invitation(secret, account)
        except logins.InvitationRefused as refusal:
            return _refused(request, refusal)
        except ServiceError as exc:
            error = str(exc)
        else:
            if not request.user.is_authenticated:
                auth_login(request, account, backend=PASSWORD_BACKEND)
            messages.success(request, _("%(event)s is in your games: you log in as "
                                        "%(account)s.") % {"event": invitation.player.event.name,
                                                           "account": account.get_username()})
            return redirect("my_games")
    return render(request, "tournament/invitation.html", {
        "event": invitation.player.event, "player": invitation.player,
        "signup": signup, "signin": signin, "error": error,
    }, status=409 if error else 429 if signup.throttled else 200)
