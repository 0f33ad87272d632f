"""Finding a player by a part of the name, typed as people type it on a phone.

"bjorn" must find "Björn", "Wojcik" "Wójcik", "sean" "Seán", "ZOE" "Zoë": people at the venue
type without accents, in any case. Names are compared folded: decomposed (NFKD), combining
marks removed, case-folded, and the few Latin letters that do not decompose (ø, ł, đ, æ, œ,
þ, ı) spelled as their usual plain letters. Plain Python: the database's own case-insensitive
search knows neither accents nor, on SQLite, any letter outside ASCII.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import TypeVar

_PLAIN = str.maketrans({"ø": "o", "ł": "l", "đ": "d", "ð": "d", "æ": "ae", "œ": "oe",
                        "þ": "th", "ı": "i", "ħ": "h", "ŧ": "t"})

T = TypeVar("T")


def folded(text: str) -> str:
    """``text`` as it is compared: no accents, no case, white space collapsed."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().translate(_PLAIN).split())


def matching(query: str, items: Iterable[T], name_of, *, limit: int = 10) -> list[T]:
    """The first ``limit`` items whose name contains the query, accents and case ignored."""
    wanted = folded(query)
    if not wanted:
        return []
    found = []
    for item in items:
        if wanted in folded(name_of(item)):
            found.append(item)
            if len(found) == limit:
                break
    return found
