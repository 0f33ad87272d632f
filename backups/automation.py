"""What a backup carries of a self-running event (version 8): the players' logins, the
automation's settings and state, and the players' own registrations.

A self-running event's players registered themselves: their login is how they reach their
games, and the automation is what runs the event. Without them a restored event came back as
an ordinary online event whose players no page knew. Accounts are referred to by username, as
everywhere in a backup, and what refers to an account this server lacks is left out (the
players' seat links still work, and the arbiter can invite them again); an arbiter of the
restored event gets no player login, as registration refuses one.

A restored automation that was running comes back **paused**, like a restored round's
clocks: the server was down or this is a copy beside the original, and two automations must
not drive the same players; the arbiter resumes it on the Runs itself page. A finished one
stays finished.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from autopilot import runner
from autopilot import services as autopilot_services
from autopilot.models import Autopilot, Registration
from backups.rows import iso, keep_time
from tournament.models import Event, Player, PlayerLogin

#: Who the history names for the pause of a restored automation (the command line's restore).
WHO = "backup"
#: The automation's fields a backup keeps as they are (its settings, then where it stands).
FIELDS = (*autopilot_services.SETTINGS, "paused_by", "paused_reason", "waiting_for",
          "ended_round", "ended_ms")
MOMENTS = ("first_round_at", "registration_closes_at", "paused_at", "finished_at")


# -- writing the file ---------------------------------------------------------------------

def login_of(player: Player) -> dict | None:
    login = getattr(player, "login", None)
    if login is None:
        return None
    return {"user": login.user.get_username(), "attached_at": iso(login.attached_at),
            "withdrawn_at": iso(login.withdrawn_at)}


def export(event: Event, seed: dict[int, int]) -> dict | None:
    """The ``automation`` object of the file (None: the event does not run itself)."""
    pilot = Autopilot.objects.filter(event=event).first()
    if pilot is None:
        return None
    values = {name: getattr(pilot, name) for name in FIELDS if name not in MOMENTS}
    return {
        **values, **{name: iso(getattr(pilot, name)) for name in MOMENTS},
        "running": pilot.running, "created_at": iso(pilot.created_at),
        "registrations": [
            {"user": r.user.get_username(), "name": r.name, "club": r.club,
             "country": r.country, "rating": r.rating, "status": r.status,
             "player": seed.get(r.player_id), "created_at": iso(r.created_at),
             "decided_at": iso(r.decided_at)}
            for r in Registration.objects.filter(event=event).select_related("user")
        ],
    }


# -- reading it -----------------------------------------------------------------------------

@dataclass
class PlannedLogin:
    login: PlayerLogin
    user: str


@dataclass
class PlannedAutomation:
    pilot: Autopilot
    created_at: datetime | None
    registrations: list[tuple[Registration, str, int | None, datetime | None]] = field(
        default_factory=list)
    """(unsaved registration, username, the player's pairing number, created_at)."""


def read_login(reader, raw, path: str, live_users: dict[str, str]) -> PlannedLogin | None:
    """``players[i].login``: the account, when attached, and when withdrawn (none: live).
    An account holds at most one live login of an event."""
    if raw is None:
        return None
    data = reader.obj(raw, path)
    user = reader.get(data, "user", path, str)
    attached_at = reader.moment(reader.get(data, "attached_at", path, str),
                                f"{path}.attached_at")
    withdrawn_at = reader.moment(reader.get(data, "withdrawn_at", path, (str, type(None))),
                                 f"{path}.withdrawn_at")
    if user is not None and withdrawn_at is None:
        if user in live_users:
            reader.problem(f"{path}.user", _("the account %(user)r is the login of %(path)s "
                                             "too") % {"user": user, "path": live_users[user]})
        live_users[user] = path
    if attached_at and withdrawn_at and withdrawn_at < attached_at:
        reader.problem(f"{path}.withdrawn_at", _("before the login was attached"))
    if user is None or attached_at is None:
        return None
    return PlannedLogin(PlayerLogin(attached_at=attached_at, withdrawn_at=withdrawn_at), user)


def read(reader, raw, seeds: dict[int, int]) -> PlannedAutomation | None:
    """``automation``: each setting through the model's own validation, each registration's
    player a pairing number of the file, one waiting registration per account."""
    if raw is None:
        return None
    path = "automation"
    data = reader.obj(raw, path)
    kinds = {"schedule": str, "paused_by": str, "paused_reason": str, "waiting_for": str,
             "registration": bool, "approval": bool}
    values = {}
    for name in FIELDS:
        if name in MOMENTS:
            continue
        values[name] = reader.get(data, name, path, kinds.get(name, (int, type(None))))
    pilot = Autopilot(**{k: v for k, v in values.items() if v is not None})
    for name in MOMENTS:
        setattr(pilot, name, reader.moment(reader.get(data, name, path, (str, type(None))),
                                           f"{path}.{name}"))
    pilot.running = reader.get(data, "running", path, bool) is not False
    reader.check(pilot, path, exclude=["event"])
    if pilot.registration and pilot.registration_closes_at and pilot.first_round_at \
            and pilot.registration_closes_at > pilot.first_round_at:
        reader.problem(f"{path}.registration_closes_at",
                       _("Registration must close at round 1's start at the latest."))
    planned = PlannedAutomation(pilot, reader.moment(
        reader.get(data, "created_at", path, (str, type(None)), default=None),
        f"{path}.created_at"))
    waiting: dict[str, str] = {}
    for index, item in enumerate(reader.items(data.get("registrations", []),
                                              f"{path}.registrations")):
        r_path = f"{path}.registrations[{index}]"
        r_data = reader.obj(item, r_path)
        row = {key: reader.get(r_data, key, r_path, kinds) for key, kinds in (
            ("name", str), ("club", str), ("country", str), ("rating", (int, type(None))),
            ("status", str))}
        registration = Registration(**{k: v for k, v in row.items() if v is not None})
        registration.decided_at = reader.moment(
            reader.get(r_data, "decided_at", r_path, (str, type(None)), default=None),
            f"{r_path}.decided_at")
        reader.check(registration, r_path, exclude=["event", "user", "player"])
        user = reader.get(r_data, "user", r_path, str)
        seed = reader.get(r_data, "player", r_path, (int, type(None)), default=None)
        if seed is not None and seed not in seeds:
            reader.problem(f"{r_path}.player", _("no player has pairing number %(n)s")
                           % {"n": seed})
        if registration.status == Registration.Status.WAITING and user is not None:
            if user in waiting:
                reader.problem(f"{r_path}.user", _("the account %(user)r waits for approval "
                                                   "in %(path)s too")
                               % {"user": user, "path": waiting[user]})
            waiting[user] = r_path
            if seed is not None:
                reader.problem(f"{r_path}.player", _("a registration waiting for approval "
                                                     "has no player yet"))
        created_at = reader.moment(
            reader.get(r_data, "created_at", r_path, (str, type(None)), default=None),
            f"{r_path}.created_at")
        if user is not None:
            planned.registrations.append((registration, user, seed, created_at))
    return planned


# -- restoring it ---------------------------------------------------------------------------

def restore_logins(event: Event, logins: dict[int, PlannedLogin],
                   by_seed: dict[int, Player]) -> None:
    """Each player's login whose account this server has, but for the event's arbiters."""
    accounts = _accounts({planned.user for planned in logins.values()})
    arbiters = set(event.arbiters.values_list("pk", flat=True))
    for seed, planned in logins.items():
        user = accounts.get(planned.user)
        if user is None or user.pk in arbiters:
            continue
        login = planned.login
        login.player, login.event, login.user = by_seed[seed], event, user
        login.save()


def restore(event: Event, planned: PlannedAutomation, by_seed: dict[int, Player], *,
            arbiter=None, attach_accounts: bool = True) -> Autopilot:
    """The automation, paused if it was running, and its registrations (those whose account
    this server has, but for the event's arbiters; none from a file uploaded from outside)."""
    pilot = planned.pilot
    pilot.event = event
    pilot.save()
    keep_time(Autopilot, pilot.pk, "created_at", planned.created_at)
    if pilot.running and pilot.finished_at is None:  # in this transaction: no tick saw it
        runner.pause(pilot, by=arbiter.get_username() if arbiter else WHO, reason=_(
            "Restored from a backup: resume it once the players can reach their games."))
    accounts = _accounts({user for _r, user, _s, _c in planned.registrations}
                         if attach_accounts else set())
    arbiters = set(event.arbiters.values_list("pk", flat=True))
    for registration, username, seed, created_at in planned.registrations:
        if username not in accounts or accounts[username].pk in arbiters:
            continue
        registration.event, registration.user = event, accounts[username]
        registration.player = by_seed.get(seed) if seed is not None else None
        registration.save()
        keep_time(Registration, registration.pk, "created_at", created_at)
    return pilot


def _accounts(usernames: set[str]) -> dict:
    users = get_user_model()
    return {user.get_username(): user for user in users.objects.filter(
        **{f"{users.USERNAME_FIELD}__in": usernames})}
