"""Every shipped language is complete: no untranslated or fuzzy entry, all plural forms, the
same placeholders as the English, and a compiled .mo that says what the .po says (issue #14).

CI has no gettext, so the .mo files are committed; this test is what notices a .po edited
without running ``compilemessages``. It reads the catalogues with polib, nothing else.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings

DOMAINS = ("django", "djangojs")
SHIPPED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
CATALOGUES = [(code, domain) for code in SHIPPED for domain in DOMAINS]
#: nplurals per language: Russian has one, few and many (1, 2–4, 5–20, 21, …).
PLURALS = {"ru": 3, "sv": 2, "ko": 1, "de": 2}
#: %(name)s / %(n)d, %s / %d, {name}: what the code fills in must survive translation.
PLACEHOLDER = re.compile(r"%\(\w+\)[sdfr]|%[sdfr]|\{\w*\}")


def path(code: str, domain: str, ext: str) -> Path:
    return Path(settings.LOCALE_PATHS[0]) / code / "LC_MESSAGES" / f"{domain}.{ext}"


def where(entry: polib.POEntry) -> str:
    context = f"[{entry.msgctxt}] " if entry.msgctxt else ""
    return f"{context}{entry.msgid!r} ({', '.join(f'{f}:{n}' for f, n in entry.occurrences[:2])})"


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text.replace("%%", "")))


@pytest.fixture(params=CATALOGUES, ids=[f"{c}-{d}" for c, d in CATALOGUES])
def catalogue(request):
    code, domain = request.param
    po_path = path(code, domain, "po")
    assert po_path.exists(), f"{po_path} is missing: run makemessages -l {code}"
    return code, domain, polib.pofile(str(po_path))


def test_every_language_of_the_switcher_ships_both_catalogues():
    assert set(SHIPPED) == set(PLURALS)
    for code, domain in CATALOGUES:
        assert path(code, domain, "po").exists() and path(code, domain, "mo").exists()


def test_the_plural_forms_header(catalogue):
    code, _domain, po = catalogue
    assert not po.metadata_is_fuzzy, "a fuzzy header is left out of the .mo (plural rules lost)"
    forms = po.metadata.get("Plural-Forms", "")
    assert f"nplurals={PLURALS[code]};" in forms.replace(" ", ""), forms


def test_no_entry_is_untranslated_or_fuzzy(catalogue):
    code, domain, po = catalogue
    live = [e for e in po if not e.obsolete]
    missing = [where(e) for e in live if not e.translated() and "fuzzy" not in e.flags]
    fuzzy = [where(e) for e in live if "fuzzy" in e.flags]
    assert not missing and not fuzzy, (
        f"{code}/{domain}.po: {len(missing)} of {len(live)} untranslated, {len(fuzzy)} fuzzy; "
        f"first: {(missing + fuzzy)[:5]}"
    )


def test_plural_entries_fill_every_form(catalogue):
    code, _domain, po = catalogue
    for entry in po:
        if entry.msgid_plural and not entry.obsolete:
            forms = entry.msgstr_plural
            assert sorted(forms) == list(range(PLURALS[code])), where(entry)
            assert all(forms.values()), (where(entry), forms)


def test_placeholders_survive_translation(catalogue):
    _code, _domain, po = catalogue
    for entry in po:
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            # A form may drop the number ("one clock" for n=1), never add or rename one.
            allowed = set(placeholders(entry.msgid)) | set(placeholders(entry.msgid_plural))
            for text in entry.msgstr_plural.values():
                if text:
                    assert set(placeholders(text)) <= allowed, (where(entry), text)
        elif entry.msgstr:
            assert placeholders(entry.msgstr) == placeholders(entry.msgid), (
                where(entry), entry.msgstr)


def test_the_compiled_mo_matches_the_po(catalogue):
    """The committed .mo holds exactly the .po's usable translations (msgfmt leaves out
    untranslated and fuzzy entries): recompiled in memory with polib and compared."""
    code, domain, po = catalogue
    mo = polib.mofile(str(path(code, domain, "mo")))

    def table(entries):
        return {
            (e.msgctxt, e.msgid): (e.msgstr, tuple(sorted(e.msgstr_plural.items())))
            for e in entries if e.msgid
        }

    expected = table(
        e for e in po if not e.obsolete and "fuzzy" not in e.flags and e.translated()
    )
    assert table(mo) == expected, f"{code}/{domain}.mo is stale: run compilemessages"

