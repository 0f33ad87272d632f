"""Who may act on an event: its arbiters (and superusers), nobody else."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tournament.models import Event, Round


def arbiter_required(view):
    """Load the event named by ``slug``; anonymous users log in, other users get 403."""

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


def published_round(slug: str, number: int) -> Round:
    """The round ``number`` of the event ``slug`` as the public may see it: 404 while it is a
    draft (the clock and online spectator pages of every app ask here)."""
    round_ = get_object_or_404(Round.objects.select_related("event"), event__slug=slug,
                               number=number)
    if round_.status == Round.Status.DRAFTED:
        raise Http404(_("This round is not published."))
    return round_
