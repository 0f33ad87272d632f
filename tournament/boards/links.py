"""Links to pages that other apps keep, for the event app's pages to show.

The event app never imports the apps above it (``tests/test_layers.py``). Where one of its
pages should link to something only they know of, it asks a registry here, and the providers
those apps registered in their ``AppConfig.ready`` answer with a link per key:

- ``result_sources``: where a result version came from, by result id (``games``: the viewer of
  the verified record it was derived from; the results page and the arbiter's board page);
- ``board_pages``: a public page a board has, by board id (``games``: the spectators' page of
  an online game; the pairings page);
- ``personal_links``: the page where one player plays their game, by (board id, player id)
  (``games``: that seat's personal link of an online game, while the round's links work; a
  logged-in player's "My games" page). Keyed by the player as well as the board because a
  seat's link is private: the page asks for its own player's seat only, and the provider
  answers nothing else;
- ``player_schedules``: when a player's next round starts and whether they may still ask to
  miss it, by player id (``autopilot``: the players of an event that runs itself; "My games"
  counts down to it);
- ``event_entries``: the way into an event for players who are not in it yet, by event id
  (``autopilot``: its registration page while registration is open; the event's page);
- ``automations``: what runs an event by itself, by event id (``autopilot``: "This event runs
  itself: …" with its state, to its page; the arbiter's dashboard, so that nobody pairs a round
  by hand without knowing the server is about to);
- ``clock_logs``: a board clock's log in words, by board id (``clocks``: who paused, adjusted
  or handed the clock over, when and why; the printed record of the round).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass(frozen=True)
class Link:
    """``label`` for a person, ``url`` to open."""

    label: str
    url: str


@dataclass(frozen=True)
class PlayerSchedule:
    """A player's next round: its ``number``, when it starts (``starts_at``; None: not known
    yet, ``words`` say when), and the page that takes a request to miss it (``absence_url``,
    empty when it is too late); ``absent``: the player asked to miss it; ``paused``: what runs
    the event is paused (``paused_reason`` says why), so the time is not kept."""

    number: int
    starts_at: datetime | None
    words: str
    absence_url: str = ""
    absent: bool = False
    paused: bool = False
    paused_reason: str = ""


@dataclass(frozen=True)
class ClockLine:
    """One line of a board clock's log: ``at`` (local time), ``who`` acted, ``what`` was
    done, in words, and ``why`` (the arbiter's reason; empty when none was asked)."""

    at: datetime
    who: str
    what: str
    why: str


class Registry(Generic[K, V]):
    """Named providers that map keys to links (or other answers); asked in bulk, one query
    per provider."""

    def __init__(self) -> None:
        self._providers: dict[str, Callable[[list[K]], Mapping[K, V]]] = {}

    def register(self, name: str, provider: Callable[[list[K]], Mapping[K, V]]) -> None:
        """Add (or replace, on a reload) the provider called ``name``."""
        self._providers[name] = provider

    def links(self, keys: Iterable[K]) -> dict[K, V]:
        """The known answer for each of these keys (missing: none known)."""
        wanted = sorted(set(keys))
        found: dict[K, V] = {}
        if wanted:
            for provider in self._providers.values():
                found.update(provider(wanted))
        return found


result_sources: Registry[int, Link] = Registry()
board_pages: Registry[int, Link] = Registry()
personal_links: Registry[tuple[int, int], Link] = Registry()
player_schedules: Registry[int, PlayerSchedule] = Registry()
event_entries: Registry[int, Link] = Registry()
automations: Registry[int, Link] = Registry()
clock_logs: Registry[int, tuple[ClockLine, ...]] = Registry()
