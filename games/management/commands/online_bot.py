"""``python manage.py online_bot LINK [--seed S]``: the bot plays one seat of an online game.

For practice: the arbiter gives one seat's personal link (from the round's online page) to the
bot and the other to the player. The bot is an ordinary client of the protocol
(``games/botclient.py``): it connects to the server named by the link (``http://host:port/p/
<token>/``), plays random legal moves when its seat is to act, and stops when the game is over.
"""

from __future__ import annotations

import asyncio
import random
import re
from urllib.parse import urlparse

from django.core.management.base import BaseCommand, CommandError

from games.botclient import BotError, play_seat

LINK = re.compile(r"/p/([A-Za-z0-9_-]{10,32})/?$")


class Command(BaseCommand):
    help = "Let the bot play the seat of an online game's personal link (for practice)."

    def add_arguments(self, parser):
        parser.add_argument("link", help="the seat's personal link, http://host:port/p/<token>/")
        parser.add_argument("--seed", type=int, default=None, help="the bot's choices")
        parser.add_argument("--timeout", type=float, default=3600,
                            help="seconds to wait for the opponent's move")

    def handle(self, *args, link: str, seed=None, timeout: float = 3600, **options):
        parsed = urlparse(link)
        match = LINK.search(parsed.path)
        if parsed.scheme not in ("http", "https") or not parsed.netloc or match is None:
            raise CommandError("the link must look like http://host:port/p/<token>/")
        try:
            import websockets  # noqa: F401
        except ImportError as error:
            raise CommandError("online_bot needs `websockets` (requirements-dev.txt)") from error
        url = f"{parsed.scheme}://{parsed.netloc}"
        try:
            seen = asyncio.run(play_seat(url, match.group(1), random.Random(seed),
                                         timeout=timeout))
        except (BotError, TimeoutError, OSError) as error:
            raise CommandError(str(error) or type(error).__name__) from error
        last = seen.last
        self.stdout.write(f"game over: {last['result']} ({last['end']}); seed {last['seed']}")
