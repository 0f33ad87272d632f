"""Links to pages that other apps keep, for the event app's pages to show.

The event app never imports the apps above it (``tests/test_layers.py``). Where one of its
pages should link to something only they know of, it asks a registry here, and the providers
those apps registered in their ``AppConfig.ready`` answer with a link per id:

- ``result_sources``: where a result version came from (``games``: the viewer of the verified
  record it was derived from; the results page and the arbiter's board page);
- ``board_pages``: a public page a board has (``games``: the spectators' page of an online
  game; the pairings page).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Link:
    """``label`` for a person, ``url`` to open."""

    label: str
    url: str


Provider = Callable[[list[int]], Mapping[int, Link]]


class LinkRegistry:
    """Named providers that map ids to links; asked in bulk, one query per provider."""

    def __init__(self) -> None:
        self._providers: dict[str, Provider] = {}

    def register(self, name: str, provider: Provider) -> None:
        """Add (or replace, on a reload) the provider called ``name``."""
        self._providers[name] = provider

    def links(self, ids: Iterable[int]) -> dict[int, Link]:
        """The known link of each of these ids (missing: none known)."""
        wanted = sorted(set(ids))
        found: dict[int, Link] = {}
        if wanted:
            for provider in self._providers.values():
                found.update(provider(wanted))
        return found


result_sources = LinkRegistry()
board_pages = LinkRegistry()
