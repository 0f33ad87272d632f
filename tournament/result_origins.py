"""Where a result version came from, when another app holds its source.

A result may be derived from a verified game record, which the ``games`` app keeps and links
to the result on its side (the event app stores results without knowing that records exist).
The pages that show a result (the results page, the arbiter's board page) ask here, and the
providers that apps registered in their ``AppConfig.ready`` answer with a link to the source.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Origin:
    """A result's source: ``label`` names it for a person, ``url`` shows it."""

    label: str
    url: str


Provider = Callable[[list[int]], Mapping[int, Origin]]
_providers: dict[str, Provider] = {}


def register(name: str, provider: Provider) -> None:
    """Add (or replace, on a reload) the provider called ``name``."""
    _providers[name] = provider


def origins(result_ids: Iterable[int]) -> dict[int, Origin]:
    """The known sources of these result versions, by result id (missing: none known)."""
    ids = sorted(set(result_ids))
    found: dict[int, Origin] = {}
    if ids:
        for provider in _providers.values():
            found.update(provider(ids))
    return found
