"""What the deployment story's arbiter starts from, made in the deployment's own database
(run as ``python -m tests.deploy.story_setup`` with the deployment's environment): an arbiter
with a password, a self-running event whose registration is open, and a round robin whose
round 1 is published online (its clocks left for the arbiter to start through the proxy), and
a board of a hall whose clock runs.
Prints what the story needs as one JSON line."""

from __future__ import annotations

import datetime
import json
import os


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from autopilot import services as autopilot
    from bench.events import create_clock_event
    from clocks import services as clocks
    from games.models import OnlineGame
    from games.online import play as online
    from tournament import services
    from tournament.boards import player_codes
    from tournament.models import Event

    arbiter = get_user_model().objects.create_user("story-arbiter", password="pw-story-arbiter-7")
    now = timezone.now()
    open_event = services.create_event(name="Open Doors", slug="open-doors", arbiter=arbiter,
                                       rounds_planned=3)
    autopilot.configure(open_event, {
        "first_round_at": now + datetime.timedelta(hours=2),
        "registration_closes_at": now + datetime.timedelta(hours=1), "schedule": "after",
        "minutes": 5, "registration": True}, user=arbiter)

    event = services.create_event(name="Over The Proxy", slug="over-the-proxy", arbiter=arbiter,
                                  pairing_system=Event.PairingSystem.ROUND_ROBIN,
                                  rounds_planned=1)
    ada = services.add_player(event, name="Ada First")
    services.add_player(event, name="Ben Second")
    round_ = services.publish_round(services.pair_next_round(event))
    game = OnlineGame.objects.get(pk=online.mark_online(round_, user=arbiter)[0].pk)
    card = player_codes.live_card(ada) or player_codes.issue_card(ada)
    hall = create_clock_event(1, arbiter=arbiter, slug="hall-clocks", time_control="600")
    clocks.start_round(hall, who=arbiter.username, user=arbiter)
    print(json.dumps({"clock_board": hall.boards.get().token, "slug": event.slug,
                      "round": round_.number, "tokens": [game.token_a, game.token_b],
                      "card": player_codes.code_for(card), "open": open_event.slug}))


if __name__ == "__main__":
    main()
