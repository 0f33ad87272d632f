"""Names that look alike, and text that mixes scripts (pure: no Django).

Two real players may share a name, so a look-alike is a warning for the arbiter, never a
refusal; a login's user name is another matter (``mixed_scripts``): nobody needs one that mixes
alphabets, and a mix is how one account passes for another.

``skeleton`` is deliberately small, not Unicode's full confusables table (UTS #39): the
search's folding (``name_search.folded``: compatibility forms, so full-width "Ａlice" is
"Alice"; case; accents, so "Zoë" is "Zoe"), then the Cyrillic and Greek letters whose small or
capital form is drawn like a Latin letter (``_LOOK_LATIN``). It misses rarer homoglyphs
(Armenian, Cherokee, mathematical letters NFKC does not fold); it is meant to catch the
duplicate entered from another keyboard layout.
"""

from __future__ import annotations

import unicodedata

from tournament.inputs.name_search import folded

#: Case-folded Cyrillic and Greek letters and the Latin letter they are drawn like (in the
#: small or the capital form: Cyrillic "в" is a small "в" but a capital "В" looks like "B").
_LOOK_LATIN = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ѕ": "s", "і": "i", "ј": "j", "к": "k", "м": "m",
    "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ԁ": "d",
    "һ": "h", "ԛ": "q", "ԝ": "w", "ү": "y", "ӏ": "l",
    # Greek
    "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m",
    "ν": "n", "ο": "o", "ρ": "p", "τ": "t", "υ": "y", "χ": "x",
})


def skeleton(name: str) -> str:
    """What ``name`` looks like: folded as the search folds it, look-alike letters made Latin.
    Two names with the same skeleton are easily taken for each other.

    >>> skeleton("Ａlice") == skeleton("alice") == skeleton("\\u0410lice") == skeleton("Alicé")
    True
    >>> skeleton("Alice") == skeleton("Alicia")
    False
    """
    return folded(name).translate(_LOOK_LATIN)


#: Scripts written together as one: Japanese mixes kanji with both kana.
_WRITTEN_TOGETHER = {"HIRAGANA": "CJK", "KATAKANA": "CJK"}


def _script(char: str) -> str | None:
    """The alphabet of a letter by its Unicode name's first word ("LATIN", "CYRILLIC"), None
    for what is no letter (digits, marks, punctuation and modifier letters mix with anything).
    """
    if unicodedata.category(char) not in ("Lu", "Ll", "Lt", "Lo"):
        return None
    try:
        script = unicodedata.name(char).split(" ", 1)[0]
    except ValueError:  # an unnamed letter (a recent code point): its own script
        return f"U+{ord(char):04X}"
    return _WRITTEN_TOGETHER.get(script, script)


def mixed_scripts(text: str) -> set[str]:
    """The alphabets of ``text``'s letters if there is more than one, else the empty set.

    >>> sorted(mixed_scripts("p\\u0430ypal"))
    ['CYRILLIC', 'LATIN']
    >>> mixed_scripts("ada_1984"), mixed_scripts("\\u0430\\u0434\\u0430")
    (set(), set())
    """
    scripts = {s for s in map(_script, unicodedata.normalize("NFKC", text)) if s is not None}
    return scripts if len(scripts) > 1 else set()
