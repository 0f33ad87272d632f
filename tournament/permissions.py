"""Who may act on an event (its arbiters and superusers, nobody else) and who may see which
of its rounds (``visible_rounds``)."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from tournament.models import Board, Event, Round


def arbiter_required(view):
    """Load the event named by ``slug``; anonymous users log in, other users get 403.

    Never cached (``Cache-Control: no-store``): arbiter pages show board tokens, personal links
    and invitation slips, which must not stay in a shared browser's or proxy's cache.
    """

    @never_cache
    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        event = get_object_or_404(Event, slug=slug)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not event.is_arbiter(request.user):
            raise PermissionDenied(_("You are not an arbiter of this event."))
        request.event = event
        return view(request, event, *args, **kwargs)

    return wrapper


def published_rounds(event: Event) -> QuerySet[Round]:
    """The rounds whose pairings are out: every one but a draft (only the last round can be
    one). Standings count these only: a draft's bye is not a result yet."""
    return event.rounds.exclude(status=Round.Status.DRAFTED)


def _public(to_round: str = "") -> Q:
    """The rule for everyone but the event's arbiters, from a model that reaches the round
    through ``to_round``: published, in an event that publishes its pairings."""
    return (Q(**{f"{to_round}event__publish_pairings": True})
            & ~Q(**{f"{to_round}status": Round.Status.DRAFTED}))


def visible_rounds(event: Event, user) -> QuerySet[Round]:
    """The rounds whose pairings ``user`` may see: all of them for the event's arbiters; for
    anyone else the published ones, and none while the event does not publish its pairings.

    The one rule every page, export, PDF, socket and download of pairings asks (through this,
    ``visible_round`` or ``visible_boards``): nothing of a draft reaches anyone else.
    """
    if event.is_arbiter(user):
        return event.rounds.all()
    return event.rounds.filter(_public())


def visible_boards(user, boards: QuerySet[Board] | None = None) -> QuerySet[Board]:
    """``boards`` (default: every board) narrowed to those of rounds ``visible_rounds`` gives
    ``user``, for the ways in that name a board by id (sockets, the game viewer)."""
    boards = Board.objects.all() if boards is None else boards
    if user is not None and user.is_authenticated and user.is_superuser:
        return boards
    public = _public("round__")
    if user is not None and user.is_authenticated:
        public |= Q(round__event__in=user.arbitrated_events.all())
    return boards.filter(public)


def visible_round(slug: str, number: int, user, *, live: bool = False) -> Round:
    """The round ``number`` of the event ``slug`` if ``visible_rounds`` gives it to ``user``,
    else 404. ``live``: a round with clocks and online games, so published even for its
    arbiters (the clock and online spectator pages of every app ask here)."""
    event = get_object_or_404(Event, slug=slug)
    rounds = visible_rounds(event, user)
    if live:
        rounds = rounds.exclude(status=Round.Status.DRAFTED)
    return get_object_or_404(rounds.select_related("event"), number=number)
