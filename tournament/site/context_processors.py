"""What every page's header needs to know about the account that is logged in."""

from __future__ import annotations

from tournament.models import PlayerLogin


def player_account(request) -> dict:
    """``plays``: whether the account holds a player login, even a withdrawn one (the header
    then links "My games", which also says when the arbiter withdrew one).

    A callable, so that its one query runs only when a template asks, for a logged-in user.
    """
    def plays() -> bool:
        user = getattr(request, "user", None)
        return bool(user and user.is_authenticated
                    and PlayerLogin.objects.filter(user=user).exists())

    return {"plays": plays}
