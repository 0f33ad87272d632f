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
  answers nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class Link:
    """``label`` for a person, ``url`` to open."""

    label: str
    url: str


class LinkRegistry(Generic[K]):
    """Named providers that map keys to links; asked in bulk, one query per provider."""

    def __init__(self) -> None:
        self._providers: dict[str, Callable[[list[K]], Mapping[K, Link]]] = {}

    def register(self, name: str, provider: Callable[[list[K]], Mapping[K, Link]]) -> None:
        """Add (or replace, on a reload) the provider called ``name``."""
        self._providers[name] = provider

    def links(self, keys: Iterable[K]) -> dict[K, Link]:
        """The known link of each of these keys (missing: none known)."""
        wanted = sorted(set(keys))
        found: dict[K, Link] = {}
        if wanted:
            for provider in self._providers.values():
                found.update(provider(wanted))
        return found


result_sources: LinkRegistry[int] = LinkRegistry()
board_pages: LinkRegistry[int] = LinkRegistry()
personal_links: LinkRegistry[tuple[int, int]] = LinkRegistry()
