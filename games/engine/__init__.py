"""The Ingenious rules engine: pure Python, no Django, deterministic.

Verify a record (text, JSON text, bytes or a decoded JSON object):

>>> from games.engine import verify, Game, Placement
>>> verdict = verify('''
... [Players "2"]
... [Rules "mso"]
... 1. A e1R-f2O {O+1}
... 2. B j10P-k10P {P+2}
... ''')
>>> verdict.ok, verdict.error.line, verdict.game.scores["B"]["P"]
(False, 6, 2)
>>> verdict.error.reason
'unfinished record: the game is not over after 2 actions (seat A to move)'

Every error also has a stable ``code`` and its ``params`` (the site translates from these):

>>> verdict.error.code, verdict.error.params
('unfinished', {'count': 2, 'seat': 'A'})

Or drive a game one action at a time (the live scoresheet):

>>> game = Game(players=2, profile="mso")
>>> game.place("A", Placement.parse("e1R-f2O"))
{'O': 1}
>>> game.place("A", "j10P-k10P")
Traceback (most recent call last):
...
games.engine.errors.IllegalActionError: wrong seat to act: A cannot place a tile; seat B is to act

Read and write records: ``parse_record`` and ``format_record`` (text or JSON, lossless);
``random_game`` makes seeded random legal games for tests, demos and benchmarks.
"""

from .board import Board
from .errors import EngineError, IllegalActionError, NotationError
from .game import Game
from .notation import format_record, parse_record
from .randomgame import random_game
from .record import Action, Record
from .result import VerifiedGame
from .rules import Profile, get_profile
from .tiles import Placement, Tile
from .verify import Verdict, replay, verify

__all__ = [
    "Action",
    "Board",
    "EngineError",
    "Game",
    "IllegalActionError",
    "NotationError",
    "Placement",
    "Profile",
    "Record",
    "Tile",
    "Verdict",
    "VerifiedGame",
    "format_record",
    "get_profile",
    "parse_record",
    "random_game",
    "replay",
    "verify",
]
