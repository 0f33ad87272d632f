"""Player logins: the arbiter's invitations, a player's acceptance, the withdrawal.

An invitation's secret is made here and handed back once; only its digest is stored
(``LoginInvitation``). Accepting attaches the invited player to an account: a new one, saved
here in the same transaction (so a refused invitation leaves no account behind), or the one
the player is logged in with. A login gives its account that player's own games and nothing
more: nothing here touches ``Event.arbiters`` or any permission.

A login's **My games** shows the player's card code (the link to the personal page), so
whoever held the account knows it. Withdrawing the login therefore reissues the card in the
same transaction: the old code stops checking the player in and confirming
results, and the arbiter prints the new card.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.boards import player_codes
from tournament.models import Event, HistoryEntry, LoginInvitation, Player, PlayerCard, PlayerLogin
from tournament.services import checkin
from tournament.services.errors import ServiceError
from tournament.services.history import log_change

INVITATION_DAYS = 7
"""How long an invitation works: long enough for an event of a few days, short enough that a
slip left on a table stops opening anything."""


class InvitationRefused(ServiceError):
    """A link that opens no invitation; ``status`` 404 when none has this secret, 410 when the
    invitation has ended (used, replaced, withdrawn or expired)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Invited:
    """A new invitation and its secret, which is stored nowhere: show or print it now."""

    invitation: LoginInvitation
    secret: str


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _known(user):
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def live_login(player: Player) -> PlayerLogin | None:
    """The player's login, unless there is none or it was withdrawn."""
    return PlayerLogin.objects.filter(player=player, withdrawn_at__isnull=True) \
        .select_related("user").first()


def _close_open_invitations(player: Player, now: datetime.datetime) -> int:
    return LoginInvitation.objects.filter(
        player=player, used_at__isnull=True, closed_at__isnull=True).update(closed_at=now)


@transaction.atomic
def invite(player: Player, *, user=None, now: datetime.datetime | None = None) -> Invited:
    """A new invitation for ``player``; an earlier one still open ends (only the newest slip
    works). Refused while the player has a login: withdraw it first."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    login = live_login(player)
    if login is not None:
        raise ServiceError(_("%(name)s already logs in as %(account)s; withdraw that login "
                             "first.") % {"name": player.name,
                                          "account": login.user.get_username()})
    now = now or timezone.now()
    _close_open_invitations(player, now)
    secret = secrets.token_urlsafe(32)
    invitation = LoginInvitation.objects.create(
        player=player, digest=digest(secret), created_by=_known(user),
        expires_at=now + datetime.timedelta(days=INVITATION_DAYS))
    return Invited(invitation, secret)


def open_invitation(secret: str, *, now: datetime.datetime | None = None,
                    lock: bool = False) -> LoginInvitation:
    """The invitation ``secret`` opens now, or ``InvitationRefused`` with the reason."""
    invitation = None
    if isinstance(secret, str) and 20 <= len(secret) <= 64:
        rows = LoginInvitation.objects.select_related("player__event")
        if lock:
            rows = rows.select_for_update(of=("self",))
        invitation = rows.filter(digest=digest(secret)).first()
    if invitation is None:
        raise InvitationRefused(_("This invitation link is not valid."), 404)
    if invitation.used_at is not None:
        raise InvitationRefused(_("This invitation has been used already: log in with the "
                                  "account it set up."), 410)
    if invitation.closed_at is not None:
        raise InvitationRefused(_("This invitation was withdrawn by the arbiter or replaced by "
                                  "a newer one."), 410)
    if (now or timezone.now()) >= invitation.expires_at:
        raise InvitationRefused(_("This invitation has expired."), 410)
    return invitation


def _check_account(account, event: Event, player: Player) -> None:
    """Refuse an account that cannot take this player: an arbiter of the event (an invitation
    opened in the arbiter's own browser must not end up there), or one already playing it."""
    if account.pk is None:
        return  # a new account: nothing is attached to it yet
    if event.is_arbiter(account):
        raise ServiceError(_("You are logged in as an arbiter of this event: log out, then "
                             "open the invitation again."))
    other = PlayerLogin.objects.filter(user=account, event=event, withdrawn_at__isnull=True) \
        .exclude(player=player).select_related("player").first()
    if other is not None:
        raise ServiceError(_("This account already plays in %(event)s as %(name)s.")
                           % {"event": event.name, "name": other.player.name})


@transaction.atomic
def accept_invitation(secret: str, account, *,
                      now: datetime.datetime | None = None) -> PlayerLogin:
    """Attach the invited player to ``account`` and use the invitation up.

    ``account`` is the user logged in, or a new one not saved yet (from the sign-up form):
    it is saved here, only once everything else is known to go through."""
    now = now or timezone.now()
    invitation = open_invitation(secret, now=now, lock=True)
    player = Player.objects.select_for_update().select_related("event") \
        .get(pk=invitation.player_id)
    event = player.event
    _check_account(account, event, player)
    if live_login(player) is not None:
        raise ServiceError(_("%(name)s already has a login.") % {"name": player.name})
    if account.pk is None:
        try:
            with transaction.atomic():
                account.save()
        except IntegrityError:  # the form found the name free, another sign-up took it since
            raise ServiceError(_("That username was taken a moment ago: choose another one.")
                               ) from None
    login, _created = PlayerLogin.objects.update_or_create(
        player=player, defaults={"event": event, "user": account, "attached_at": now,
                                 "withdrawn_at": None})
    invitation.used_at = now
    invitation.save(update_fields=["used_at"])
    log_change(event, HistoryEntry.Action.LOGIN_GIVEN,
               {"player": player.name, "account": account.get_username()}, user=account)
    return login


@dataclass(frozen=True)
class Withdrawn:
    """What ``withdraw_login`` ended: the login (None: there was only an invitation) and the
    player's new card, which replaces the one My games showed (None: no login was withdrawn,
    or the player held no card, the arbiter having revoked it)."""

    login: PlayerLogin | None
    card: PlayerCard | None = None


@transaction.atomic
def withdraw_login(player: Player, *, user=None,
                   now: datetime.datetime | None = None) -> Withdrawn:
    """End the player's login and any open invitation. The account keeps its other events; its
    page says this one was withdrawn. A withdrawn login also reissues the player's card: its
    code was on the account's My games, and would otherwise go on checking the player in and
    confirming results (logged as the arbiter's own reissue is)."""
    player = Player.objects.select_for_update().select_related("event").get(pk=player.pk)
    now = now or timezone.now()
    closed = _close_open_invitations(player, now)
    login = live_login(player)
    if login is None:
        if not closed:
            raise ServiceError(_("%(name)s has no login or invitation to withdraw.")
                               % {"name": player.name})
        return Withdrawn(None)
    login.withdrawn_at = now
    login.save(update_fields=["withdrawn_at"])
    log_change(player.event, HistoryEntry.Action.LOGIN_WITHDRAWN,
               {"player": player.name, "account": login.user.get_username()}, user=user)
    card = (checkin.reissue_card(player, user=user)
            if player_codes.live_card(player) is not None else None)
    return Withdrawn(login, card)


@dataclass(frozen=True)
class LoginState:
    """What the arbiter's pages say about a player's login: the account it logs in as, or
    until when an open invitation works (both None: neither)."""

    account: str | None = None
    invited_until: datetime.datetime | None = None


def login_states(event: Event, *, now: datetime.datetime | None = None) -> dict[int, LoginState]:
    """Each player of ``event`` with a login or an open invitation (two queries)."""
    now = now or timezone.now()
    states = {
        player: LoginState(invited_until=until)
        for player, until in LoginInvitation.objects.filter(
            player__event=event, used_at__isnull=True, closed_at__isnull=True,
            expires_at__gt=now).values_list("player_id", "expires_at")
    }
    for player, account in PlayerLogin.objects.filter(
            event=event, withdrawn_at__isnull=True).values_list("player_id", "user__username"):
        states[player] = LoginState(account=account)
    return states
